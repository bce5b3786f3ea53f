"""What a seat may do beyond its turn (docs/server.md, an extension of the protocol): the
``private_state`` of ``player_joined`` carries ``may_announce`` (R6.1), ``bombs`` (R4.3) and
``unseen_bombs`` (R3.7, issue 36: the bombs the cards the seat has not seen could still form), and
the notification ``private_state_changed`` tells the seat, and only it (R8), whenever one of them
differs from what it was last told, right after the notification of the event that changed it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from urllib.parse import urlencode

from tests.support.cards import Card, card_set, find_seed, mask_from_json
from tests.support.checks import check_seat_messages
from tests.support.live_server import Message, eventually, read_table_records
from tests.support.raw_client import GAME_WAIT, Client, Skip, StartServer, is_event
from tichu.client.state import TableState
from tichu.core.cards import DOG, mask_of, parse_mask
from tichu.core.combos import bombs_of
from tichu.core.unseen import UnseenBombs, unseen_bombs, unseen_cards
from tichu.core.views import PrivateState, build_private_state
from tichu.server.wire.protocol import cards_json, private_state_json

#: The fields the extension adds to ``private_state``.
OPTIONS = {"may_announce", "bombs", "unseen_bombs"}
Options = tuple[bool, frozenset[frozenset[Card]], UnseenBombs]


def options_of(private: Message) -> Options:
    """What a ``private_state`` says the seat may do beyond its turn, the bombs in no order, and
    the bombs its unseen cards could still form."""
    assert set(private) >= OPTIONS and isinstance(private["may_announce"], bool), private
    unseen = private["unseen_bombs"]
    return (private["may_announce"], frozenset(card_set(bomb) for bomb in private["bombs"]),
            UnseenBombs(tuple(unseen["four_of_a_kind"]), tuple(unseen["straight_flush"])))


def bomb_cards(hand: list[list[int]]) -> frozenset[Card]:
    """Every card of the hand that is part of a bomb (R3.7)."""
    cards: set[Card] = set()
    for play in bombs_of(mask_from_json(hand)):
        cards |= card_set(cards_json(play.cards))
    return frozenset(cards)


def dog_on_top(state: TableState) -> bool:
    """Whether the Dog is the open trick's last play (R3.10)."""
    turns = state.public.get("trick_turns") or []
    return bool(turns) and card_set(turns[-1][1]) == card_set(cards_json(DOG))


def bombs_beating_the_trick(state: TableState) -> frozenset[frozenset[Card]]:
    """The test's own reading of R4.3 and R3.8 for a seat that is not at turn: no bomb before the
    first play of a trick, none on the Dog, else each bomb of the hand that beats the top."""
    turns = state.public.get("trick_turns") or []
    if not turns or not state.hand or dog_on_top(state):
        return frozenset()
    kind, length, rank = turns[-1][2]
    return frozenset(card_set(cards_json(bomb.cards)) for bomb in bombs_of(mask_from_json(state.hand))
                     if kind != "bomb" or (bomb.length, bomb.rank) > (length, rank))


@dataclass
class Seen:
    """What :func:`check_options` checked for one seat.

    :ivar open_tricks: Another seat acted on an open trick while this seat was told its bombs.
    :ivar leads: Another seat led while this seat held a bomb and was told none.
    :ivar dogs: Another seat acted on the Dog while this seat held a bomb and was told none.
    :ivar first_plays: The seat's first play of a round, followed at once by ``may_announce`` false.
    :ivar calls: The seat's Tichu call, followed at once by ``may_announce`` false.
    :ivar pushes: Rounds in which the seat was told ``may_announce`` true once the push was done.
    """

    open_tricks: int = 0
    leads: int = 0
    dogs: int = 0
    first_plays: int = 0
    calls: int = 0
    pushes: int = 0


def check_options(client: Client) -> Seen:
    """Check what one seat was told it may do beyond its turn, over every message it got.

    - R8: each ``private_state_changed`` is this seat's own (``player_index``), its bombs are of
      its own hand, and it differs from what the seat was last told (``player_joined`` or an
      earlier change: nothing is sent without a change);
    - R3.7, R8: its unseen bombs are those of the cards neither in its hand nor played, as the
      seat's own view of the table (the played cards it was told) gives them;
    - R4.3: before each play or pass of another seat while this one is not at turn (the table
      then waits for that seat, so everything the last event changed has been told) the bombs
      told are exactly those of the hand that beat the open trick: none on a lead or on the Dog;
    - R6.1: once the push is done the seat may call Tichu; at each own ``play`` request it may
      exactly while it has neither played nor called this round (in the rounds it saw from their
      start); its first play and its call
      are followed at once by ``private_state_changed`` with ``may_announce`` false.
    """
    seat = client.seat
    state = TableState()
    seen = Seen()
    told: Options | None = None
    played = called = pushed = False
    known = False  # whether the seat's plays and calls of the round are known (not after joining mid-round)
    messages = client.messages
    for index, message in enumerate(messages):
        if message.get("type") == "request" and message["payload"]["action"] == "play" and known:
            assert told is not None and told[0] == (not played and not called), (seat, message, told)
        if message.get("type") != "notification":
            continue
        event, context = message["payload"]["event"], message["payload"]["context"]
        if pushed and event != "private_state_changed":
            assert told is not None and told[0], f"seat {seat}: may_announce not true after the push (R6.1)"
            seen.pushes += 1
            pushed = False
        actor = context["turn"][0] if event == "player_played" else context.get("player_index")
        if (event in ("player_played", "player_passed") and actor != seat and told is not None
                and state.public.get("current_turn_index") != seat):
            expected = bombs_beating_the_trick(state)
            assert told[1] == expected, (seat, message, told, expected)
            holds = bool(bomb_cards(state.hand))
            if expected:
                seen.open_tricks += 1
            elif holds and not state.public.get("trick_turns"):
                seen.leads += 1
            elif holds and dog_on_top(state):
                seen.dogs += 1
        if event == "private_state_changed":
            private = context["private_state"]
            assert private["player_index"] == seat, f"seat {seat} got another seat's private state (R8): {message}"
            assert all(card_set(bomb) <= card_set(private["hand_cards"]) for bomb in private["bombs"]), message
            assert options_of(private) != told, f"seat {seat}: private_state_changed without a change: {message}"
            on_table = mask_from_json(state.public.get("played_cards") or [])
            unseen = unseen_cards(mask_from_json(private["hand_cards"]), on_table)
            assert options_of(private)[2] == unseen_bombs(unseen), f"seat {seat}: unseen bombs (R3.7): {message}"
            told = options_of(private)
        elif event == "player_joined" and "session_id" in context:
            told = options_of(context["private_state"])
        elif event == "round_started":
            played = called = False
            known = True
        elif event == "start_playing":
            pushed = True
        elif actor == seat and event in ("player_played", "player_announced") and told is not None and told[0]:
            after = messages[index + 1]
            assert is_event(after, "private_state_changed"), f"seat {seat}: {event} not followed by the change"
            assert after["payload"]["context"]["private_state"]["may_announce"] is False, after
            if event == "player_played":
                seen.first_plays += 1
            else:
                seen.calls += 1
        if actor == seat and event == "player_played":
            played = True
        elif actor == seat and event == "player_announced":
            called = True
        state.apply(event, context)
    return seen


async def watch(client: Client, request: Message) -> Message | Skip | None:
    """A player that keeps its bombs and leads the Dog whenever it can (so that bombs are held
    while the Dog lies on the table): the push and the plays spare the cards of bombs."""
    action, context = request["action"], request["context"]
    keep = bomb_cards(context.get("hand_cards") or [])
    if action == "schupf":
        free = [card for card in context["hand_cards"] if tuple(card) not in keep]
        return {"given_schupf_cards": client.rng.sample(free, 3)} if len(free) >= 3 else None
    if action != "play":
        return None
    dog = cards_json(DOG)
    if dog in context["legal_plays"]:
        return {"cards": dog}
    spare = [play for play in context["legal_plays"] if not card_set(play) & keep] or context["legal_plays"]
    return {"cards": client.rng.choice(spare)}


async def test_each_seat_is_told_when_it_may_call_and_bomb(start_server: StartServer) -> None:
    """Four clients play a whole game; one calls Tichu at its first turn, all keep their bombs and
    lead the Dog when they can, a spectator watches. Every seat's ``player_joined`` carries
    ``may_announce`` false and no bombs (the lobby); after the push it is told it may call
    (R6.1), and right after its first play (or its call) that it may not; while another seat's
    play lies open it is told the bombs that beat it, and none on a lead or on the Dog (R4.3);
    it never gets another seat's private state, nor a change that changes nothing, and the
    spectator gets none at all (R8)."""
    seed = find_seed(lambda deals: sum(bool(bombs_of(mask_of(deals[0][seat]))) for seat in range(4)) >= 2)
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(seed=seed, target_score=300)
        clients = [await server.join(name, "options", seed=index) for index, name in enumerate("ABCD")]
        spectator = await server.raw(urlencode({"table_name": "options", "spectate": "1"}), name="watcher")
        await spectator.wait_event("spectate_started")
        for client in clients:
            joined = client.events("player_joined")[0]
            assert options_of(joined["private_state"]) == (False, frozenset(), UnseenBombs((), ()))

        async def caller(client: Client, request: Message) -> Message | Skip | None:
            calls = [call for call in client.events("player_announced") if call["player_index"] == client.seat]
            if request["action"] == "play" and not calls:
                start = len(client.messages)
                await client.send_type("announce")
                await client.wait_event("player_announced", start=start, player_index=client.seat)
            return await watch(client, request)

        await clients[0].send_type("start_game")
        await asyncio.gather(*(client.play(strategy=caller if client is clients[1] else watch) for client in clients))
        await spectator.wait_event("game_over")
    [record] = read_table_records(server, "options")
    seen = [check_options(client) for client in clients]
    for client, checked in zip(clients, seen):
        client.assert_clean()
        check_seat_messages(client, record)
        assert checked.pushes == len(record["rounds"]), (client.name, checked)
        assert checked.first_plays >= (client is not clients[1]), (client.name, checked)
    assert seen[1].calls == 1, seen[1]
    assert sum(checked.open_tricks for checked in seen) > 0, "no seat was told a bomb on an open trick"
    assert sum(checked.leads for checked in seen) > 0, "no seat held a bomb at another seat's lead"
    assert sum(checked.dogs for checked in seen) > 0, "no seat held a bomb while the Dog lay on the table"
    assert not spectator.events("private_state_changed")
    assert not [m for m in spectator.messages if "private_state" in (m.get("payload") or {}).get("context", {})]


async def test_a_reconnect_is_told_afresh(start_server: StartServer) -> None:
    """A client holding a bomb drops at another seat's lead (told: no bomb, R4.3), the table
    plays on until it is the dropped seat's turn, and the client reconnects: its ``player_joined``
    carries what the seat may do now (its bombs on the open trick), which is what it is told
    from then on; no ``private_state_changed`` repeats it, and the game ends cleanly."""
    seed = find_seed(lambda deals: bool(bombs_of(mask_of(deals[0][0]))))
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(seed=seed, grace_period=5.0)
        ada = await server.join("Ada", "again", seed=1)
        bob = await server.join("Bob", "again", seed=2)
        await ada.send_type("start_game")
        ada_task = asyncio.create_task(ada.play(strategy=watch))

        def lead_while_ada_holds_a_bomb(request: Message) -> bool:
            return (request["action"] == "play" and request["context"]["trick_combination"] is None
                    and bool(bomb_cards([list(card) for card in ada.hand])))

        held = (await bob.play(until=None, hold=lead_while_ada_holds_a_bomb, strategy=watch))["payload"]
        ada_task.cancel()
        await asyncio.gather(ada_task, return_exceptions=True)
        check_options(ada)
        [told] = [options_of(m["payload"]["context"]["private_state"]) for m in ada.messages
                  if is_event(m, "private_state_changed") or is_event(m, "player_joined", player_index=0)][-1:]
        assert told[1] == frozenset(), f"told bombs at another seat's lead: {told}"
        await ada.drop()
        lead = min((play for play in held["context"]["legal_plays"] if len(play) == 1), key=lambda play: play[0][0])
        await bob.respond(held, {"cards": lead})
        bob_task = asyncio.create_task(bob.play(strategy=watch))
        table = server.table("again")
        await eventually(lambda: table.peers[0] is not None and table.peers[0].pending is not None)
        again = await server.reconnect(ada, seed=3)
        joined = again.events("player_joined")[0]
        round_ = table.round
        assert round_ is not None
        assert joined["private_state"] == private_state_json(build_private_state(round_, 0))
        assert options_of(joined["private_state"])[1], "the seat holds a bomb on an open trick at its turn"
        await asyncio.gather(bob_task, again.play(strategy=watch))
        check_options(again)
        for client in (bob, again):
            client.assert_clean()


def test_the_bombs_are_listed_weakest_first() -> None:
    """Issue 36, finding 5: the client offers the first bomb as the weakest without knowing the
    order of bombs, so ``private_state.bombs`` lists them weakest first (R3.8): the four Sevens
    before the straight flush, whatever order the core found them in."""
    hand = parse_mask("S7 B7 G7 R7 G2 G3 G4 G5 G6")
    found = bombs_of(hand)
    flush, fours = next(bomb for bomb in found if bomb.length == 5), next(bomb for bomb in found if bomb.length == 4)
    state = PrivateState(0, hand, None, None, bombs=(flush, fours))
    assert private_state_json(state)["bombs"] == [cards_json(fours.cards), cards_json(flush.cards)]


def test_the_unseen_bombs_go_out_as_values_and_suits() -> None:
    """Issue 36, finding 5: the browser shows which bombs the unseen cards could still form (R3.7)
    as the server lists them: the values of four of a kind and the suits of straight flushes."""
    unseen = parse_mask("S3 B3 G3 R3 SA BA GA RA B2 B4 B5 B6 R9 RZ RB RD RK Ph")
    state = PrivateState(0, parse_mask("S8 B8"), None, None, unseen_cards=unseen)
    assert private_state_json(state)["unseen_bombs"] == {"four_of_a_kind": [3, 14], "straight_flush": [2, 4]}
