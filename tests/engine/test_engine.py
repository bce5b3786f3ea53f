"""The async :class:`~tichu.engine.GameEngine` (rules.md R2..R8, protocol.md notifications and errors).

Deals that a test needs to control are rigged through the engine's ``rng``: a
:class:`random.Random` whose first shuffle lays out the deck as the test says.
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from tests.support.players import AsyncPlayer, Listening
from tests.support.players import Notice as Event
from tests.support.scripted import ScriptedPlayer
from tichu.agents.agent import AgentPlayer
from tichu.agents.random_agent import RandomAgent
from tichu.core.cards import (
    DOG,
    LABELS,
    MAHJONG,
    SPECIALS,
    cards_of,
    indices_of,
    parse_mask,
)
from tichu.core.combos import BOMB, PASS_PLAY, SINGLE, Play, bombs_of
from tichu.core.errors import RuleViolation, Violation
from tichu.core.round import ActionKind, Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView
from tichu.engine.engine import GameEngine
from tichu.engine.player import Later, Player
from tichu.records.record import game_record, replay
from tichu.server.wire.protocol import COMBINATION_NAMES

# -- protocol.md, "Notifications": the public context of each event the engine emits ------

PROTOCOL_CONTEXTS: dict[str, set[str]] = {
    "game_started": set(),
    "round_started": {"round_index"},
    "hand_cards_dealt": {"count"},
    "player_announced": {"player_index", "grand"},
    "player_schupfed": {"player_index"},
    "start_playing": {"start_player_index"},
    "player_passed": {"player_index"},
    "player_played": {"turn", "trick_points", "trick_owner_index", "is_bomb", "out_of_turn"},
    "player_out": {"player_index", "place"},
    "wish_made": {"wish_value"},
    "wish_fulfilled": set(),
    "trick_taken": {"player_index", "points", "dragon_recipient"},
    "hands_revealed": {"hands"},
    "player_turn_changed": {"current_turn_index"},
    "round_over": {"card_points", "bonus", "points", "total", "out_order", "is_double_victory"},
    "game_over": {"game_score", "total", "winner"},
}


# -- helpers --------------------------------------------------------------------------------


class RiggedRandom(random.Random):
    """Lays out the first shuffles as given (14 labels per seat, the first 8 dealt first), then shuffles."""

    def __init__(self, *deals: Sequence[str], seed: int = 0) -> None:
        super().__init__(seed)
        self._orders = deque(_deck_order(deal) for deal in deals)

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        if self._orders:
            x[:] = self._orders.popleft()
        else:
            super().shuffle(x)


def _deck_order(hands: Sequence[str]) -> list[int]:
    order = [LABELS.index(label) for labels in hands for label in labels.split()]
    assert sorted(order) == list(range(56)), "a rigged deal must hold the 56 cards once each"
    return order


def build_deal(fixed: Sequence[str], bombs: Sequence[str], seed: int) -> tuple[list[str], list[str]]:
    """A deal where seat i holds ``fixed[i]`` and, after pushing, exactly the bombs ``bombs[i]``.

    The other cards are spread at random (seeded); every seat pushes its three lowest
    cards that are neither fixed nor special (to right, partner, left).

    :returns: The four hands (14 labels each) and the four pushes (3 labels each).
    """
    rng = random.Random(seed)
    fixed_masks = [parse_mask(labels) for labels in fixed]
    taken = 0
    for mask in fixed_masks:
        taken |= mask
    rest = [index for index in range(56) if not taken >> index & 1]
    for _ in range(10000):
        rng.shuffle(rest)
        hands, position = [], 0
        for seat in range(4):
            need = 14 - fixed_masks[seat].bit_count()
            mask = fixed_masks[seat]
            for index in rest[position:position + need]:
                mask |= 1 << index
            position += need
            hands.append(mask)
        pushes = []
        for seat in range(4):
            free = [1 << index for index in indices_of(hands[seat] & ~fixed_masks[seat] & ~SPECIALS)]
            if len(free) < 3:
                break
            pushes.append(free[:3])
        else:
            after = list(hands)
            for giver, triple in enumerate(pushes):
                for offset, card in enumerate(triple, start=1):
                    after[giver] &= ~card
                    after[(giver + offset) % 4] |= card
            wanted = [sorted(parse_mask(b) for b in spec.split(",") if b.strip()) for spec in bombs]
            if all(sorted(play[0] for play in bombs_of(after[seat])) == wanted[seat] for seat in range(4)):
                labels = [" ".join(LABELS[i] for i in _first_fixed(hands[seat], fixed_masks[seat]))
                          for seat in range(4)]
                push_labels = [" ".join(LABELS[card.bit_length() - 1] for card in triple) for triple in pushes]
                return labels, push_labels
    raise AssertionError("no deal found")


def _first_fixed(hand: int, fixed: int) -> list[int]:
    return indices_of(fixed) + indices_of(hand & ~fixed)


def _choose(legal: Sequence[Play], labels: str) -> Play:
    mask = parse_mask(labels)
    for play in legal:
        if play[0] == mask:
            return play
    return Play(mask, 0, 0, 0)


BLOCK = object()  # script entry: never answer (until the engine cancels the request)


class Client(Listening, AsyncPlayer):
    """An async player like a connected client: yields to the loop before every answer.

    Plays follow ``script`` (labels, an :class:`asyncio.Future` whose result is labels,
    or :data:`BLOCK`), then random legal choices. Every event and request is recorded.
    """

    acts_unprompted = True  # like a client, it may call or bomb at any moment

    def __init__(self, name: str, seed: int = 0, *, push: str | None = None, script: Sequence[Any] = (),
                 dragon: Sequence[Any] = ()) -> None:
        super().__init__(name)
        self.rng = random.Random(seed)
        self.push = push
        self.script: deque[Any] = deque(script)
        self.dragon_script: deque[Any] = deque(dragon)
        self.requests: list[str] = []
        self.cancelled = 0
        self.aborted = 0  # requests whose coroutine the engine cancelled
        self.asked = asyncio.Event()
        self.blocked = asyncio.Event()  # set while a BLOCK entry holds a request open

    def request_cancelled(self) -> None:
        self.cancelled += 1

    async def answer_grand_tichu(self, view: SeatView) -> bool:
        await asyncio.sleep(0)
        return False

    async def answer_schupf(self, view: SeatView) -> tuple[int, int, int]:
        await asyncio.sleep(0)
        if self.push:
            right, partner, left = (parse_mask(label) for label in self.push.split())
            self.push = None  # the script is for the first round only
            return right, partner, left
        right, partner, left = self.rng.sample(indices_of(view.hand), 3)
        return 1 << right, 1 << partner, 1 << left

    async def answer_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        self.requests.append("play")
        self.asked.set()
        await asyncio.sleep(0)
        if self.script:
            entry = self.script.popleft()
            if entry is BLOCK:
                await self._block()
            if isinstance(entry, asyncio.Future):
                entry = await entry
            return _choose(legal, entry)
        return legal[self.rng.randrange(len(legal))]

    async def answer_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        await asyncio.sleep(0)
        return choices[self.rng.randrange(len(choices))]

    async def answer_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        self.requests.append("give_dragon")
        await asyncio.sleep(0)
        if self.dragon_script and self.dragon_script.popleft() is BLOCK:
            await self._block()
        return recipients[self.rng.randrange(len(recipients))]

    async def _block(self) -> None:
        self.blocked.set()
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            self.aborted += 1
            raise


class ListeningRandom(Listening, AgentPlayer):
    """A :class:`RandomAgent` at a seat that listens and records its events (a hook may check each)."""

    def __init__(self, name: str, seed: int | None = None) -> None:
        super().__init__(RandomAgent(name, seed))


async def _until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.001)
    await asyncio.wait_for(poll(), timeout)


def _rnd(engine: GameEngine) -> Round:
    """The engine's current round (there is one while a test inspects it)."""
    assert engine.round is not None
    return engine.round


def _round_snapshot(engine: GameEngine) -> tuple[Any, ...]:
    round_ = engine.round
    assert round_ is not None
    return (tuple(round_.hands), round_.trick, round_.trick_owner, round_.turn, tuple(round_.announcements),
            tuple(round_.events), round_.trick_closed, tuple(round_.out_order), round_.wish_open)


def _labels(cards: list[list[int]]) -> set[tuple[int, int]]:
    return {(value, suit) for value, suit in cards}


def _mask_cards(mask: int) -> set[tuple[int, int]]:
    return {(card.value, card.suit) for card in cards_of(mask)}


_SCORE_KEYS = {"card_points", "bonus", "points", "total", "game_score", "out_order", "round_scores"}


def _cards_in(value: Any) -> set[tuple[int, int]]:
    """Every ``[value, suit]`` pair anywhere in a JSON-like value."""
    found: set[tuple[int, int]] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in _SCORE_KEYS:
                found |= _cards_in(item)
    elif isinstance(value, (list, tuple)):
        if len(value) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in value) \
                and 0 <= value[0] <= 16 and 0 <= value[1] <= 4:
            found.add((value[0], value[1]))
        for item in value:
            if isinstance(item, (list, tuple, dict)):
                found |= _cards_in(item)
    return found


# -- a whole game ------------------------------------------------------------------------


async def test_random_game_ends_with_a_winner_at_target_R7_4() -> None:
    """Four RandomAgents play one game to its end: a team has >= target and more points (R7.4)."""
    rules = RuleSet()
    engine = GameEngine([AgentPlayer(RandomAgent(f"R{seat}", 100 + seat)) for seat in range(4)], rules, seed=11)
    game = await engine.run()
    assert game.is_over
    assert max(game.total) >= 1000
    assert game.winner == (20 if game.total[0] > game.total[1] else 31)
    # R7.4: the game ended after the first round in which a team reached the target.
    running = [0, 0]
    for number, result in enumerate(game.results):
        running = [running[0] + result.points[0], running[1] + result.points[1]]
        finished = max(running) >= 1000 and running[0] != running[1]
        assert finished == (number == len(game.results) - 1)
    assert running == list(game.total)
    assert engine.info.phase == "game_over" and not engine.info.is_running


async def test_target_score_from_rules_R7_4() -> None:
    """``RuleSet.target_score`` replaces 1000 (R7.4)."""
    engine = GameEngine([AgentPlayer(RandomAgent(f"R{seat}", seat)) for seat in range(4)],
                        RuleSet(target_score=150), seed=3)
    game = await engine.run()
    assert max(game.total) >= 150 and game.total[0] != game.total[1]
    before_last = [sum(r.points[t] for r in game.results[:-1]) for t in (0, 1)]
    assert not (max(before_last) >= 150 and before_last[0] != before_last[1])


def _check_protocol_stream(events: list[Event], seat: int) -> list[tuple[int, int]]:
    """Check one seat's notifications of a whole game against protocol.md and the rules.

    :returns: ``(shown, expected)`` trick points of each round's final play where they differ
        (checked on their own by :func:`test_final_play_of_a_round_shows_its_trick_points`).
    """
    final_mismatches: list[tuple[int, int]] = []
    mismatch: tuple[int, int] | None = None
    assert events[0] == Event("game_started", {})
    assert events[-1].name == "game_over"
    round_overs: list[dict[str, Any]] = []
    in_round = False
    current: int | None = None
    out: list[int] = []
    accumulated = 0
    dealt: list[int] = []
    schupfed: set[int] = set()
    wish: int | None = None
    for event in events:
        name, context = event
        assert name in PROTOCOL_CONTEXTS, f"{name} is no protocol notification"
        assert set(context) == PROTOCOL_CONTEXTS[name], f"{name} context {sorted(context)}"
        if name == "round_started":
            assert not in_round
            assert context["round_index"] == len(round_overs)
            in_round, current, out, accumulated, dealt, schupfed, wish = True, None, [], 0, [], set(), None
        elif name == "hand_cards_dealt":
            dealt.append(context["count"])
        elif name == "player_schupfed":
            assert dealt == [8, 6]
            schupfed.add(context["player_index"])
        elif name == "start_playing":
            assert schupfed == {0, 1, 2, 3}, "R2.3: play starts after all four pushed"
            current = context["start_player_index"]
        elif name == "player_turn_changed":
            current = context["current_turn_index"]
            assert current not in out, "an out seat is never at turn (R4.4)"
        elif name == "player_passed":
            assert context["player_index"] == current, "R4.1: only the seat at turn passes"
        elif name == "player_played":
            player, cards, combination = context["turn"]
            assert combination[0] in COMBINATION_NAMES.values() and combination[0] != "pass"
            assert combination[1] == len(cards) and cards
            assert context["is_bomb"] == (combination[0] == "bomb")
            assert isinstance(context["out_of_turn"], bool)
            if context["out_of_turn"]:
                assert context["is_bomb"], "R4.3: only bombs are played out of turn"
            else:
                assert player == current, "R4.1: a play at turn comes from the seat at turn"
            if isinstance(combination[2], float):
                assert cards == [[16, 0]] and combination[2] % 1 == 0.5, "R3.6: only a Phoenix single is x.5"
            assert player not in out
            assert context["trick_owner_index"] == player
            assert mismatch is None, f"trick_points {mismatch[0]} but the trick holds {mismatch[1]}"
            accumulated += sum({5: 5, 10: 10, 13: 10, 15: 25, 16: -25}.get(value, 0) for value, _ in cards)
            if context["trick_points"] != accumulated:
                mismatch = (context["trick_points"], accumulated)  # fine only if the round ends here
            if wish is not None and any(value == wish for value, _ in cards):
                wish = None
        elif name == "wish_made":
            assert 2 <= context["wish_value"] <= 14, "R5.1"
            wish = context["wish_value"]
        elif name == "wish_fulfilled":
            assert wish is None, "wish_fulfilled follows a play of the wished value (R5.4)"
        elif name == "player_out":
            out.append(context["player_index"])
            assert context["place"] == len(out)
        elif name == "trick_taken":
            assert mismatch is None, f"trick_points {mismatch[0]} but the trick holds {mismatch[1]}"
            assert context["points"] == accumulated
            recipient = context["dragon_recipient"]
            if recipient is not None:
                assert (recipient - context["player_index"]) % 2 == 1, "R4.5: the Dragon goes to an opponent"
            accumulated = 0
        elif name == "round_over":
            assert in_round
            in_round = False
            if mismatch is not None:
                final_mismatches.append(mismatch)
                mismatch = None
            assert context["out_order"] == out
            assert len(out) == (2 if context["is_double_victory"] else 3)
            for key in ("card_points", "bonus", "points", "total"):
                assert len(context[key]) == 2
            assert context["points"] == [context["card_points"][t] + context["bonus"][t] for t in (0, 1)]
            if context["is_double_victory"]:
                assert sorted(context["card_points"]) == [0, 200], "R7.1"
            else:
                assert sum(context["card_points"]) == 100, "R7.2"
            round_overs.append(context)
            previous = round_overs[-2]["total"] if len(round_overs) > 1 else [0, 0]
            assert context["total"] == [previous[t] + context["points"][t] for t in (0, 1)]
        elif name == "hands_revealed":
            assert seat in out, "R8.3: hands are revealed only to a seat that is out"
    over = events[-1].context
    assert over["game_score"] == [[r["points"][0] for r in round_overs], [r["points"][1] for r in round_overs]]
    assert over["total"] == round_overs[-1]["total"]
    assert max(over["total"]) >= 1000
    assert over["winner"] == (20 if over["total"][0] > over["total"][1] else 31)
    return final_mismatches


async def test_notifications_follow_protocol_names_and_contexts() -> None:
    """Every notification of a whole game has a protocol.md name and exactly its context keys, in a
    consistent order (turns, trick points, places, round totals, game_over)."""
    players = [ListeningRandom(f"L{seat}", 40 + seat) for seat in range(4)]
    engine = GameEngine(players, RuleSet(), seed=5)
    await engine.run()
    names = set()
    for seat, player in enumerate(players):
        _check_protocol_stream(player.events, seat)
        names |= {event.name for event in player.events}
    # The game was rich enough to exercise the checks above.
    assert {"player_played", "player_passed", "trick_taken", "player_out", "wish_made", "round_over"} <= names
    # Public events are broadcast alike to every listener (hands_revealed aside, R8.3).
    public = [[event for event in player.events if event.name != "hands_revealed"] for player in players]
    assert public[0] == public[1] == public[2] == public[3]


async def test_many_games_keep_the_protocol_stream_consistent() -> None:
    """The same protocol checks over several seeds (bombs, Dragon gifts, double victories turn up)."""
    seen: set[str] = set()
    bombs = dragons = doubles = 0
    for seed in range(6):
        players = [ListeningRandom(f"L{seat}", seed * 10 + seat) for seat in range(4)]
        await GameEngine(players, RuleSet(), seed=seed).run()
        for seat, player in enumerate(players):
            _check_protocol_stream(player.events, seat)
        for event in players[0].events:
            seen.add(event.name)
            bombs += event.name == "player_played" and event.context["is_bomb"]
            dragons += event.name == "trick_taken" and event.context["dragon_recipient"] is not None
            doubles += event.name == "round_over" and event.context["is_double_victory"]
    assert bombs and dragons and doubles


async def test_final_play_of_a_round_shows_its_trick_points() -> None:
    """``player_played.trick_points`` is the open trick's points after the play (protocol.md, R8.1),
    also for the play that ends a round (R7.2: that trick then goes to its owner)."""
    finals = []
    for seed in range(4):
        players = [ListeningRandom(f"L{seat}", seed * 10 + seat) for seat in range(4)]
        await GameEngine(players, RuleSet(), seed=seed).run()
        finals += _check_protocol_stream(players[0].events, 0)
    assert finals == [], f"(shown, expected) trick points of rounds' final plays: {finals}"


async def test_seeded_games_are_deterministic() -> None:
    """The same seeds give the same game: deals, every notification and the scores."""
    async def play(seed: int) -> tuple[list[Event], list[Any], list[Any]]:
        players = [ListeningRandom(f"L{seat}", seed + seat) for seat in range(4)]
        engine = GameEngine(players, RuleSet(), seed=seed, keep_rounds=True)
        game = await engine.run()
        deals = [round_.first_deal + round_.second_deal for round_ in engine.rounds]
        return players[1].events, game.results, deals

    first, second, other = await play(7), await play(7), await play(8)
    assert first == second
    assert first[2] != other[2]


# -- async players (clients) -------------------------------------------------------------


async def test_async_client_players_play_a_whole_game() -> None:
    """Four async :class:`Player` subclasses (like WebSocket clients) play a game through ``run()``;
    each receives protocol notifications and the game is a valid record (records.md)."""
    clients = [Client(f"C{seat}", seed=seat) for seat in range(4)]
    engine = GameEngine(clients, RuleSet(target_score=400), seed=21, keep_rounds=True)
    game = await engine.run()
    assert game.is_over and max(game.total) >= 400
    assert all(client.requests for client in clients)
    for seat, client in enumerate(clients):
        _check_protocol_stream_any_target(client.events, seat)
    record = game_record(engine.rounds, engine.rules, [(c.name, c.kind) for c in clients], record_id="clients")
    assert replay(record) is None


def _check_protocol_stream_any_target(events: list[Event], seat: int) -> None:
    """Names and contexts of protocol.md; ``hands_revealed`` only once the seat is out (R8.3)."""
    out: list[int] = []
    for name, context in events:
        assert name in PROTOCOL_CONTEXTS and set(context) == PROTOCOL_CONTEXTS[name]
        if name == "round_started":
            out = []
        elif name == "player_out":
            out.append(context["player_index"])
        elif name == "hands_revealed":
            assert seat in out
    assert events[0].name == "game_started" and events[-1].name == "game_over"


async def test_mixed_table_of_clients_and_agents() -> None:
    """Two clients and two agents at one table finish a game; the agents are never awaited."""
    players: list[Player] = [Client("C0", 1), AgentPlayer(RandomAgent("A1", 2)), Client("C2", 3),
                             AgentPlayer(RandomAgent("A3", 4))]
    engine = GameEngine(players, RuleSet(target_score=300), seed=9)
    game = await engine.run()
    assert game.winner in (20, 31)
    assert players[0].requests and players[2].requests  # type: ignore[attr-defined]


# -- illegal answers are refused ------------------------------------------------------------


class Liar(Client):
    """A client that answers every request with something the rules do not allow."""

    def __init__(self, name: str, push_answer: Any, play_answer: Callable[[SeatView, Sequence[Play]], Any]) -> None:
        super().__init__(name)
        self.push_answer = push_answer
        self.play_answer = play_answer
        self.wishes = 0
        self.gifts = 0

    async def answer_grand_tichu(self, view: SeatView) -> bool:
        return "yes"  # type: ignore[return-value]  # not a bool: no call

    async def answer_schupf(self, view: SeatView) -> tuple[int, int, int]:
        await asyncio.sleep(0)
        return self.push_answer(view)  # type: ignore[no-any-return]

    async def answer_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        self.requests.append("play")
        await asyncio.sleep(0)
        return self.play_answer(view, legal)  # type: ignore[no-any-return]

    async def answer_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        self.wishes += 1
        return 99  # R5.1: 2..14 only

    async def answer_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        self.gifts += 1
        return (view.seat + 2) % 4  # R4.5: the partner may not receive it


class Exploder(Client):
    """A client whose every decision raises."""

    async def answer_grand_tichu(self, view: SeatView) -> bool:
        raise RuntimeError("boom")

    async def answer_schupf(self, view: SeatView) -> tuple[int, int, int]:
        raise RuntimeError("boom")

    async def answer_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        self.requests.append("play")
        raise RuntimeError("boom")

    async def answer_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        raise RuntimeError("boom")

    async def answer_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        raise RuntimeError("boom")


def _foreign_card(view: SeatView, legal: Sequence[Play]) -> Any:
    missing = next(index for index in range(56) if not view.hand >> index & 1)
    return 1 << missing, SINGLE, 1, 2


def _wrong_rank(view: SeatView, legal: Sequence[Play]) -> Any:
    mask, kind, length, rank = next(play for play in legal if play[0])
    return mask, kind, length, rank + 1  # the cards are legal, the claimed combination is not


def _not_a_play(view: SeatView, legal: Sequence[Play]) -> Any:
    return "S5 S6"


def _whole_hand(view: SeatView, legal: Sequence[Play]) -> Any:
    return view.hand, SINGLE, 1, 14


PUSHES: dict[str, Callable[[SeatView], Any]] = {
    "same card thrice": lambda view: (view.hand & -view.hand,) * 3,
    "cards not in hand": lambda view: tuple(1 << i for i in range(56) if not view.hand >> i & 1)[:3],
    "two cards": lambda view: tuple(1 << i for i in indices_of(view.hand))[:2],
    "two-card masks": lambda view: tuple(3 << i for i in indices_of(view.hand))[:3],
    "none": lambda view: None,
}


def _replay_seat_decisions(round_: Round, seat: int) -> tuple[list[tuple[Play, list[Play]]], list[Any], list[Any]]:
    """Replay a finished round; return the seat's plays with their legal options, its wishes and gifts."""
    deal = list(zip(round_.first_deal, round_.second_deal))
    again = Round(round_.rules, deal=deal)
    for other in range(4):
        again.decide_grand_tichu(other, round_.announcements[other] == 2)
    for other in range(4):
        given = round_.given[other]
        assert given is not None
        again.schupf(other, given)
    plays: list[tuple[Play, list[Play]]] = []
    wishes: list[Any] = []
    gifts: list[Any] = []
    for kind, actor, value in round_.events:
        if actor == seat and kind in (ActionKind.PLAY, ActionKind.PASS) and again.turn == seat:
            legal = again.legal_plays()
            chosen = next(play for play in legal if play[0] == (value or 0))
            plays.append((chosen, legal))
        if actor == seat and kind == ActionKind.WISH:
            wishes.append(value)
        if actor == seat and kind == ActionKind.DRAGON:
            gifts.append((again.trick_owner, value))
        again.apply(_action(kind, actor, value))
    assert again.is_over
    return plays, wishes, gifts


def _action(kind: ActionKind, seat: int, value: Any) -> Any:
    from tichu.core.round import Action
    return Action(kind, seat, value)


@pytest.mark.parametrize("push", sorted(PUSHES))
@pytest.mark.parametrize("play", [_foreign_card, _wrong_rank, _not_a_play, _whole_hand],
                         ids=["card-not-in-hand", "wrong-combination", "not-a-play", "whole-hand"])
async def test_engine_refuses_illegal_answers_and_falls_back(push: str, play: Any) -> None:
    """A client's illegal push (R2.3), play (R4.1), wish (R5.1) and Dragon recipient (R4.5) are
    refused: the engine falls back (lowest cards, pass or first legal play, first wish, first
    opponent), nothing illegal is applied, and the game goes on to its end."""
    hands = ["Ma Dr S2 S3 S4 B5 G6 R7 S9 BZ GB RD SK BA"]  # seat 0 leads the Mah Jong, holds the Dragon
    rest = [index for index in range(56) if not parse_mask(hands[0]) >> index & 1]
    random.Random(1).shuffle(rest)
    for seat in range(3):
        hands.append(" ".join(LABELS[i] for i in rest[14 * seat:14 * seat + 14]))
    liar = Liar("Liar", PUSHES[push], play)
    players: list[Player] = [liar, AgentPlayer(RandomAgent("R1", 1)),
                             AgentPlayer(RandomAgent("R2", 2)), AgentPlayer(RandomAgent("R3", 3))]
    engine = GameEngine(players, RuleSet(target_score=300), rng=RiggedRandom(hands, seed=4), keep_rounds=True)
    game = await asyncio.wait_for(engine.run(), 20)
    assert game.is_over
    record = game_record(engine.rounds, engine.rules, [(p.name, p.kind) for p in players], record_id="liar")
    assert replay(record) is None  # nothing illegal was applied
    first = engine.rounds[0]
    assert first.announcements[0] == 0  # "yes" is no Grand Tichu call
    # R2.3 fallback: the three lowest cards of the hand, to right, partner, left.
    assert first.given[0] == tuple(1 << i for i in indices_of(first.first_deal[0] | first.second_deal[0])[:3])
    wishes_seen = gifts_seen = 0
    for round_ in engine.rounds:
        plays, wishes, gifts = _replay_seat_decisions(round_, 0)
        for chosen, legal in plays:
            assert chosen == (PASS_PLAY if PASS_PLAY in legal else legal[0])
        assert all(value == 2 for value in wishes)  # choices[0] for the refused 99
        for owner, to in gifts:
            assert to == (owner + 1) % 4  # the first opponent for the refused partner
        wishes_seen += len(wishes)
        gifts_seen += len(gifts)
    assert liar.wishes == wishes_seen >= 1
    assert liar.gifts == gifts_seen >= 1


async def test_engine_survives_a_player_whose_decisions_raise() -> None:
    """A client that raises on every request does not stop the table; it is treated as no answer."""
    players: list[Player] = [Exploder("X"), AgentPlayer(RandomAgent("R1", 1)),
                             AgentPlayer(RandomAgent("R2", 2)), AgentPlayer(RandomAgent("R3", 3))]
    engine = GameEngine(players, RuleSet(target_score=300), seed=2, keep_rounds=True)
    game = await asyncio.wait_for(engine.run(), 20)
    assert game.is_over
    assert players[0].requests  # type: ignore[attr-defined]
    record = game_record(engine.rounds, engine.rules, [(p.name, p.kind) for p in players], record_id="x")
    assert replay(record) is None


async def test_agent_illegal_play_is_refused() -> None:
    """An agent's illegal answer (a ScriptedPlayer's play not in ``legal``) is refused like a client's."""
    hands, pushes = build_deal(["Ma S9", "", "", ""], ["", "", "", ""], seed=1)
    # Seat 1 answers the Mah Jong holder's lead with a card it does not hold: refused, it passes.
    players = [ScriptedPlayer("S0", schupf=pushes[0], plays=["S9"]),
               ScriptedPlayer("S1", schupf=pushes[1], plays=["Dr Ph"]),
               ScriptedPlayer("S2", schupf=pushes[2]), ScriptedPlayer("S3", schupf=pushes[3])]
    engine = GameEngine(players, RuleSet(target_score=100), rng=RiggedRandom(hands), keep_rounds=True)
    await asyncio.wait_for(engine.run(), 20)
    events = engine.rounds[0].events
    assert events[0] == (ActionKind.PLAY, 0, parse_mask("S9"))
    assert events[1] == (ActionKind.PASS, 1, None)


# -- Tichu and bomb offers to agents (R6.1, R4.3) ------------------------------------------


class Recorder(RandomAgent):
    """A RandomAgent that checks and logs every Tichu and bomb offer against the round's state."""

    engine: GameEngine

    def __init__(self, name: str, seed: int, log: list[tuple[Any, ...]], *, tichu_rate: float = 0.01) -> None:
        super().__init__(name, seed)
        self.log = log
        self.TICHU_RATE = tichu_rate

    def decide_tichu(self, view: SeatView) -> bool:
        round_ = self.engine.round
        assert round_ is not None
        seat = view.seat
        answer = super().decide_tichu(view)
        self.log.append(("tichu", self.engine.info.round_index, seat, round_.phase, view.hand.bit_count(),
                         round_.has_played[seat], round_.announcements[seat], answer))
        return answer

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        round_ = self.engine.round
        assert round_ is not None
        seat = view.seat
        self.log.append(("bomb", self.engine.info.round_index, seat, round_.trick, round_.trick_owner, round_.turn,
                         round_.trick_closed, tuple(bombs), view.hand, round_.decision))
        return super().decide_bomb(view, bombs)


async def _recorded_game(seed: int, tichu_rate: float = 0.01, rules: RuleSet | None = None
                         ) -> tuple[GameEngine, list[tuple[Any, ...]]]:
    log: list[tuple[Any, ...]] = []
    agents = [Recorder(f"Rec{seat}", seed * 7 + seat, log, tichu_rate=tichu_rate) for seat in range(4)]
    engine = GameEngine([AgentPlayer(agent) for agent in agents], rules or RuleSet(), seed=seed,
                        keep_rounds=True)
    for agent in agents:
        agent.engine = engine
    await engine.run()
    return engine, log


async def test_tichu_is_offered_only_before_the_first_card_R6_1() -> None:
    """Agents are offered Tichu only while they may call (R2.4, R6.1): in play, with all 14 cards,
    without a call; and every seat without a call is offered in every round."""
    for seed in (1, 2):
        engine, log = await _recorded_game(seed, tichu_rate=0.05)
        offers = [entry for entry in log if entry[0] == "tichu"]
        assert offers
        for _, _, _, phase, count, has_played, announcement, _ in offers:
            assert phase == 2 and count == 14 and not has_played and announcement == 0
        accepted = 0
        for index, round_ in enumerate(engine.rounds):
            offered = {entry[2] for entry in offers if entry[1] == index}
            grand = {seat for seat in range(4) if round_.announcements[seat] == 2}
            assert offered == set(range(4)) - grand
            for seat in range(4):
                answers = [entry[7] for entry in offers if entry[1] == index and entry[2] == seat]
                # A call ends the offers to that seat for the round (R6.3); no call, no Tichu.
                assert True not in answers[:-1]
                assert (round_.announcements[seat] == 1) == (answers[-1:] == [True])
                accepted += answers[-1:] == [True]
        assert accepted


async def test_tichu_accepted_once_then_not_offered_again_R6_3() -> None:
    """An agent that accepts the first offer calls Tichu (``player_announced``, not grand) and is never
    offered again that round; a Grand Tichu caller is never offered Tichu (R6.3)."""
    hands, pushes = build_deal(["Ma", "", "", ""], ["", "", "", ""], seed=2)
    players = [ScriptedPlayer("S0", schupf=pushes[0], tichu=[True]),
               ScriptedPlayer("S1", schupf=pushes[1], grand_tichu=True),
               ScriptedPlayer("S2", schupf=pushes[2]), ScriptedPlayer("S3", schupf=pushes[3])]
    engine = GameEngine(players, RuleSet(target_score=1), rng=RiggedRandom(hands), keep_rounds=True)
    await asyncio.wait_for(engine.run(), 20)
    first = engine.rounds[0]
    assert first.announcements == [1, 2, 0, 0]
    assert first.events[0] == (ActionKind.TICHU, 0, None)
    announced = [e.context for e in players[2].events if e.name == "player_announced"]
    assert {"player_index": 1, "grand": True} in announced and {"player_index": 0, "grand": False} in announced
    assert players[1].offers["tichu"] == 0  # Grand Tichu every round: never offered a plain Tichu
    assert len(engine.rounds) == 1  # target 1: the offer counts below are of this round
    assert players[0].offers["tichu"] == 1  # accepted at the first offer, then never asked again
    assert players[2].offers["tichu"] >= 1


async def test_tichu_offered_before_push_with_tichu_before_schupf() -> None:
    """With ``RuleSet.tichu_before_schupf`` an agent is offered Tichu before the push, with 14 cards."""
    _, log = await _recorded_game(3, rules=RuleSet(tichu_before_schupf=True, target_score=200))
    phases = {entry[3] for entry in log if entry[0] == "tichu"}
    assert 1 in phases  # Phase.SCHUPF
    assert all(entry[4] == 14 for entry in log if entry[0] == "tichu")


async def test_bombs_offered_only_when_held_and_allowed_R4_3() -> None:
    """Agents are offered bombs only when they hold one, never on a lead or on the Dog, never at
    their own turn while the trick is open, and every offered bomb beats the trick (R3.8, R4.3)."""
    total = 0
    for seed in range(4):
        _, log = await _recorded_game(seed)
        for entry in (e for e in log if e[0] == "bomb"):
            _, _, seat, trick, _, turn, closed, bombs, hand, decision = entry
            total += 1
            assert bombs, "an empty offer"
            assert trick is not None and trick[0] != DOG, "R4.3: no bomb on a lead or the Dog"
            assert closed or seat != turn or decision == Decision.DRAGON, \
                "at its turn a seat plays the bomb as its play"
            for bomb in bombs:
                assert bomb[1] == BOMB and bomb[0] & ~hand == 0
                if trick[1] == BOMB:
                    assert (bomb[2], bomb[3]) > (trick[2], trick[3]), "R3.8: a bomb must beat the bomb"
            assert sorted(b[0] for b in bombs) == sorted(b[0] for b in bombs_of(hand)
                                                         if trick[1] != BOMB or (b[2], b[3]) > (trick[2], trick[3]))
    assert total >= 20


async def test_bombs_offered_nearest_seat_after_trick_owner_first_R4_3() -> None:
    """After seat 0's lead, seats 2 and 3 (holding bombs) are offered in that order (seat 1 is at
    turn). When seat 2 bombs, play continues after the bomber (seat 3), and seat 3's lower bomb is
    no longer offered (a later bomb must beat the earlier one)."""
    hands, pushes = build_deal(["Ma S9", "", "SB BB GB RB", "S7 B7 G7 R7"],
                               ["", "", "SB BB GB RB", "S7 B7 G7 R7"], seed=3)

    class Logged(ScriptedPlayer):
        engine: GameEngine

        def __init__(self, name: str, log: list[Any], **kwargs: Any) -> None:
            super().__init__(name, **kwargs)
            self.log = log

        def offer_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
            round_ = _rnd(self.engine)
            self.log.append((view.seat, round_.trick_owner, round_.trick, tuple(b[0] for b in bombs)))
            return super().offer_bomb(view, bombs)

    for accept in (False, True):
        log: list[Any] = []
        players = [Logged("S0", log, schupf=pushes[0], plays=["S9"]),
                   Logged("S1", log, schupf=pushes[1], plays=[""]),
                   Logged("S2", log, schupf=pushes[2], bombs=["SB BB GB RB" if accept else None]),
                   Logged("S3", log, schupf=pushes[3], bombs=[None] * 50)]
        engine = GameEngine(players, RuleSet(target_score=1), rng=RiggedRandom(hands), keep_rounds=True)
        for player in players:
            player.engine = engine
        await asyncio.wait_for(engine.run(), 20)
        nine = (parse_mask("S9"), SINGLE, 1, 9)
        assert log[0] == (2, 0, nine, (parse_mask("SB BB GB RB"),))
        first_round_events = engine.rounds[0].events
        if not accept:
            assert log[1] == (3, 0, nine, (parse_mask("S7 B7 G7 R7"),))
        else:
            assert first_round_events[1] == (ActionKind.BOMB, 2, parse_mask("SB BB GB RB"))
            # play continues with the seat after the bomber
            assert first_round_events[2][1] == 3
            jacks_on_top = [entry for entry in log[1:] if entry[2] is not None and entry[2][1] == BOMB
                            and entry[2][3] == 11]
            assert all(parse_mask("S7 B7 G7 R7") not in entry[3] for entry in jacks_on_top)
            played = [e.context for e in players[1].events if e.name == "player_played"]
            assert played[1]["turn"][0] == 2 and played[1]["is_bomb"] and played[1]["out_of_turn"]


# -- interrupts from clients (protocol.md: announce, bomb) ----------------------------------


async def test_interrupt_bomb_cancels_the_open_request_R4_3() -> None:
    """While the engine awaits client seat 1's play, client seat 3 bombs (``bomb`` message): seat 1's
    request is cancelled (``request_cancelled``), the bomb is applied and announced out of turn,
    and play continues with the seat after the bomber; the game then runs to its end.
    Before that, the refused interrupts (protocol.md errors 304, 305, 307) change nothing."""
    hands, pushes = build_deal(["Ma S9", "S8 B8 G8 R8", "", "S7 B7 G7 R7"],
                               ["", "S8 B8 G8 R8", "", "S7 B7 G7 R7"], seed=5)
    loop = asyncio.get_running_loop()
    lead = loop.create_future()
    seat0 = Client("A", 10, push=pushes[0], script=[lead])
    seat1 = Client("B", 11, push=pushes[1], script=[BLOCK])
    seat2 = ScriptedPlayer("S", schupf=pushes[2])
    seat3 = Client("C", 13, push=pushes[3])
    engine = GameEngine([seat0, seat1, seat2, seat3], RuleSet(target_score=200), rng=RiggedRandom(hands))
    task = asyncio.ensure_future(engine.run())
    try:
        await asyncio.wait_for(seat0.asked.wait(), 5)
        # The leader is asked: no trick yet, so no bomb (R4.3) -> 305, nothing changes.
        before, heard = _round_snapshot(engine), len(seat2.events)
        with pytest.raises(RuleViolation) as denied:
            engine.interrupt(3, ActionKind.BOMB, parse_mask("S7 B7 G7 R7"))
        assert denied.value.violation == Violation.BOMB_NOT_ALLOWED
        assert _round_snapshot(engine) == before and len(seat2.events) == heard
        lead.set_result("S9")
        await asyncio.wait_for(seat1.blocked.wait(), 5)
        before, heard = _round_snapshot(engine), len(seat2.events)
        # Seat 1 is at turn: its bomb is its play -> 304.
        with pytest.raises(RuleViolation) as own_turn:
            engine.interrupt(1, ActionKind.BOMB, parse_mask("S8 B8 G8 R8"))
        assert own_turn.value.violation == Violation.NOT_YOUR_TURN
        # Seat 0 has played its first card: no Tichu any more (R6.1) -> 307.
        with pytest.raises(RuleViolation) as late_call:
            engine.interrupt(0, ActionKind.TICHU)
        assert late_call.value.violation == Violation.CALL_NOT_ALLOWED
        # Three 7s are no bomb -> refused, nothing changes.
        with pytest.raises(RuleViolation):
            engine.interrupt(3, ActionKind.BOMB, parse_mask("S7 B7 G7"))
        assert _round_snapshot(engine) == before and len(seat2.events) == heard
        assert seat1.cancelled == 0 and _rnd(engine).announcements[0] == 0
        # The bomb lands.
        engine.interrupt(3, ActionKind.BOMB, parse_mask("S7 B7 G7 R7"))
        assert seat1.cancelled == 1
        assert _rnd(engine).trick_owner == 3 and _rnd(engine).turn == 0
        assert _rnd(engine).events[-1] == (ActionKind.BOMB, 3, parse_mask("S7 B7 G7 R7"))
        new = [event for event in seat2.events[heard:]]
        assert new[0].name == "player_played"
        assert new[0].context["turn"] == [3, [[7, 4], [7, 3], [7, 2], [7, 1]], ["bomb", 4, 7]]
        assert new[0].context["is_bomb"] is True and new[0].context["out_of_turn"] is True
        assert new[0].context["trick_owner_index"] == 3
        assert new[1] == Event("player_turn_changed", {"current_turn_index": 0})
        game = await asyncio.wait_for(task, 20)
    finally:
        task.cancel()
    assert seat1.aborted == 1  # the engine dropped the cancelled request's coroutine
    assert game.is_over
    assert seat1.requests.count("play") >= 2  # asked again later
    # Only seat 1's request was cancelled.
    assert seat0.cancelled == seat3.cancelled == 0


async def test_interrupt_bomb_saves_a_dragon_trick_R4_3_R4_5() -> None:
    """While client seat 0 is asked whom to give its Dragon trick (R4.5), client seat 3 bombs it
    (R4.3): seat 0's request is cancelled, nobody receives a Dragon gift, and the trick with the
    Dragon's 25 points goes to the bomb's side."""
    hands, pushes = build_deal(["Ma Dr", "", "", "S7 B7 G7 R7"], ["", "", "", "S7 B7 G7 R7"], seed=8)
    seat0 = Client("A", 10, push=pushes[0], script=["Dr"], dragon=[BLOCK])
    seat1 = Client("B", 11, push=pushes[1], script=[""])
    seat2 = ScriptedPlayer("S", schupf=pushes[2], plays=[""])
    seat3 = Client("C", 13, push=pushes[3], script=[""])
    engine = GameEngine([seat0, seat1, seat2, seat3], RuleSet(target_score=200), rng=RiggedRandom(hands))
    task = asyncio.ensure_future(engine.run())
    try:
        await asyncio.wait_for(seat0.blocked.wait(), 5)
        assert _rnd(engine).dragon_recipients() == [1, 3]
        engine.interrupt(3, ActionKind.BOMB, parse_mask("S7 B7 G7 R7"))
        assert seat0.cancelled == 1
        assert _rnd(engine).trick_owner == 3 and _rnd(engine).dragon_recipients() == []
        await asyncio.wait_for(task, 20)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert seat0.aborted == 1
    taken = [e.context for e in seat2.events if e.name == "trick_taken"]
    assert taken[0]["dragon_recipient"] is None and taken[0]["points"] == 25
    assert taken[0]["player_index"] in (1, 3)  # seat 3's bomb, or seat 1 bombing over it


async def test_interrupt_bomb_on_the_dog_is_refused_R3_10() -> None:
    """After the Dog the partner leads: no trick to bomb (R3.10, R4.3) -> 305, nothing changes."""
    hands, pushes = build_deal(["Ma Hu", "", "", "S7 B7 G7 R7"], ["", "", "", "S7 B7 G7 R7"], seed=9)
    seat0 = Client("A", 10, push=pushes[0], script=["Hu"])
    seat2 = Client("P", 12, push=pushes[2], script=[BLOCK])
    seat3 = Client("C", 13, push=pushes[3])
    engine = GameEngine([seat0, ScriptedPlayer("S", schupf=pushes[1]), seat2, seat3], RuleSet(target_score=200),
                        rng=RiggedRandom(hands))
    task = asyncio.ensure_future(engine.run())
    try:
        await asyncio.wait_for(seat2.blocked.wait(), 5)
        assert _rnd(engine).turn == 2 and _rnd(engine).trick_turns[0][0] == 0  # the Dog lies on the table
        before = _round_snapshot(engine)
        with pytest.raises(RuleViolation) as denied:
            engine.interrupt(3, ActionKind.BOMB, parse_mask("S7 B7 G7 R7"))
        assert denied.value.violation == Violation.BOMB_NOT_ALLOWED
        assert _round_snapshot(engine) == before and seat2.cancelled == 0
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_replace_player_while_its_decision_is_awaited() -> None:
    """A client leaves while the engine awaits its play: ``replace_player`` seats an agent, which is
    asked at once; the old client's request is dropped and the game goes on to its end."""
    hands, pushes = build_deal(["Ma S9", "", "", ""], ["", "", "", ""], seed=10)
    seat1 = Client("B", 11, push=pushes[1], script=[BLOCK])
    players: list[Player] = [ScriptedPlayer("S0", schupf=pushes[0], plays=["S9"]), seat1,
                             ScriptedPlayer("S2", schupf=pushes[2]), ScriptedPlayer("S3", schupf=pushes[3])]
    engine = GameEngine(players, RuleSet(target_score=200), rng=RiggedRandom(hands), keep_rounds=True)
    task = asyncio.ensure_future(engine.run())
    try:
        await asyncio.wait_for(seat1.blocked.wait(), 5)
        agent = ScriptedPlayer("Bot", plays=[""])
        assert engine.replace_player(1, agent) is seat1
        game = await asyncio.wait_for(task, 20)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert game.is_over and seat1.aborted == 1 and seat1.requests == ["play"]
    assert engine.rounds[0].events[1] == (ActionKind.PASS, 1, None)  # the agent's answer
    assert engine.info.player_names[1] == "Bot"


async def test_interrupt_tichu_from_a_client_R6_1() -> None:
    """A client calls Tichu (``announce``) before its first card: the call is applied and broadcast;
    a second call is refused with 307 and changes nothing (R6.3)."""
    hands, pushes = build_deal(["Ma S9", "", "", ""], ["", "", "", ""], seed=6)
    loop = asyncio.get_running_loop()
    lead = loop.create_future()
    seat0 = Client("A", 1, push=pushes[0], script=[lead])
    listener = ScriptedPlayer("S1", schupf=pushes[1])
    players: list[Player] = [seat0, listener, ScriptedPlayer("S2", schupf=pushes[2]), Client("C", 3, push=pushes[3])]
    engine = GameEngine(players, RuleSet(target_score=1), rng=RiggedRandom(hands), keep_rounds=True)
    task = asyncio.ensure_future(engine.run())
    try:
        await asyncio.wait_for(seat0.asked.wait(), 5)
        engine.interrupt(3, ActionKind.TICHU)
        assert _rnd(engine).announcements[3] == 1
        assert listener.events[-1] == Event("player_announced", {"player_index": 3, "grand": False})
        before = _round_snapshot(engine)
        with pytest.raises(RuleViolation) as again:
            engine.interrupt(3, ActionKind.TICHU)
        assert again.value.violation == Violation.CALL_NOT_ALLOWED
        assert _round_snapshot(engine) == before
        lead.set_result("S9")
        await asyncio.wait_for(task, 20)
    finally:
        task.cancel()
    assert (ActionKind.TICHU, 3, None) in engine.rounds[0].events
    assert engine.rounds[0].result().calls[3] == 1


async def test_interrupt_outside_a_round_is_refused() -> None:
    """Before the game starts there is no round: a bomb gets 305, a Tichu call 307."""
    engine = GameEngine([Client(f"C{seat}") for seat in range(4)])
    with pytest.raises(RuleViolation) as bomb:
        engine.interrupt(0, ActionKind.BOMB, parse_mask("S7 B7 G7 R7"))
    assert bomb.value.violation == Violation.BOMB_NOT_ALLOWED
    with pytest.raises(RuleViolation) as call:
        engine.interrupt(0, ActionKind.TICHU)
    assert call.value.violation == Violation.CALL_NOT_ALLOWED


async def _bomb_in_the_window() -> tuple[GameEngine, list[Client], ScriptedPlayer]:
    """Seat 0 leads the 9, everybody passes; in the bomb window client seat 3 bombs the closed trick."""
    hands, pushes = build_deal(["Ma S9", "S8 B8 G8 R8", "", "S7 B7 G7 R7"],
                               ["", "S8 B8 G8 R8", "", "S7 B7 G7 R7"], seed=5)
    seat0 = Client("A", 10, push=pushes[0], script=["S9"])
    seat1 = Client("B", 11, push=pushes[1], script=[""])
    seat2 = ScriptedPlayer("S", schupf=pushes[2], plays=[""])
    seat3 = Client("C", 13, push=pushes[3], script=[""])
    engine = GameEngine([seat0, seat1, seat2, seat3], RuleSet(target_score=200), rng=RiggedRandom(hands),
                        bomb_window=30.0)
    task = asyncio.ensure_future(engine.run())
    try:
        await _until(lambda: engine.round is not None and _rnd(engine).trick_closed)
        assert _rnd(engine).trick_owner == 0 and _rnd(engine).turn == 0
        assert not [e for e in seat2.events if e.name == "trick_taken"]
        engine.interrupt(3, ActionKind.BOMB, parse_mask("S7 B7 G7 R7"))
        assert _rnd(engine).trick_owner == 3 and not _rnd(engine).trick_closed and _rnd(engine).turn == 0
        await _until(lambda: len(seat0.requests) >= 2)  # seat 0 is asked again: play goes on after seat 3
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    return engine, [seat0, seat1, seat3], seat2


async def test_interrupt_bomb_in_the_bomb_window_after_the_last_pass_R4_3() -> None:
    """After the last pass the trick is not taken at once: with clients seated the engine waits
    ``bomb_window`` and a client's bomb still lands on the trick (R4.3; protocol.md, "The bomb
    window"); the trick is not collected by the 9's owner."""
    engine, _, listener = await _bomb_in_the_window()
    events = _rnd(engine).events
    assert [kind for kind, _, _ in events[:5]] == [ActionKind.PLAY, ActionKind.PASS, ActionKind.PASS,
                                                   ActionKind.PASS, ActionKind.BOMB]
    taken = [e.context for e in listener.events if e.name == "trick_taken"]
    assert not taken or taken[0]["player_index"] != 0
    played = [e.context for e in listener.events if e.name == "player_played"]
    assert played[1]["turn"][0] == 3 and played[1]["out_of_turn"] and played[1]["trick_points"] == 0


async def _only_client_owns(first: str, bomb: str, *, bombs_in_window: bool) -> asyncio.Future[Any]:
    """Client seat 0 (the only client) leads ``first``, the agents pass; with a 30 s bomb window
    the engine either takes the trick at once (``bombs_in_window`` False: seat 0 is asked to lead
    again) or waits, and seat 0 bombs its own closed trick with ``bomb`` in the window. The
    engine's task is cancelled at once (the table closes) and returned, finished."""
    hands, pushes = build_deal(["Ma " + first + " " + bomb, "", "", ""], [bomb, "", "", ""], seed=7)
    seat0 = Client("A", 10, push=pushes[0], script=[first], dragon=[1])
    agents = [ScriptedPlayer(f"S{seat}", schupf=pushes[seat], plays=["", "", ""], dragon=[1]) for seat in (1, 2, 3)]
    engine = GameEngine([seat0, *agents], RuleSet(target_score=200), rng=RiggedRandom(hands), bomb_window=30.0)
    task = asyncio.ensure_future(engine.run())
    try:
        await _until(lambda: engine.round is not None and _rnd(engine).trick_closed)
        if not bombs_in_window:
            await _until(lambda: len(seat0.requests) >= 2)  # well within the 30 s window
            assert any(e.name == "trick_taken" for e in agents[0].events)
        else:
            await asyncio.sleep(0.2)
            assert _rnd(engine).trick_closed and not any(e.name == "trick_taken" for e in agents[0].events)
            engine.interrupt(0, ActionKind.BOMB, parse_mask(bomb))
            assert _rnd(engine).trick_owner == 0 and not _rnd(engine).trick_closed
    finally:
        task.cancel()
        await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 5)
    return task


async def test_no_bomb_window_when_the_only_client_owns_the_trick_R4_3() -> None:
    """A bomb on one's own trick gains nothing outside the Dragon's trick (R4.3: the owner leads
    next and may lead the bomb), so when the only client seated owns the closing trick the engine
    takes it at once instead of waiting the bomb window: the person leads without a pause."""
    await _only_client_owns("S9", "S7 B7 G7 R7", bombs_in_window=False)


async def test_the_bomb_window_is_waited_for_the_owner_of_the_dragons_trick_R4_3() -> None:
    """The Dragon's owner may bomb its own trick to keep it (R4.3): with the only client owning the
    Dragon's trick, the window is waited and its bomb lands on the closed trick. The table closed
    right after the bomb stops (Python 3.11's ``wait_for`` swallowed a cancel that came with the
    interrupt, and the game played on)."""
    assert (await _only_client_owns("Dr", "S7 B7 G7 R7", bombs_in_window=True)).cancelled()


async def test_request_cancelled_only_for_an_open_request() -> None:
    """protocol.md: ``request_cancelled`` goes "only to the seat whose request an interrupt
    cancelled". A bomb in the bomb window cancels no request (the seat due to lead was not asked
    yet), so nobody may receive it."""
    _, (seat0, seat1, seat3), _ = await _bomb_in_the_window()
    assert seat0.requests == ["play", "play"]  # its lead (the 9) and the request after the bomb only
    assert (seat0.cancelled, seat1.cancelled, seat3.cancelled) == (0, 0, 0), \
        "request_cancelled went to a seat without an open request"


# -- hidden information in notifications (R8) -------------------------------------------------


async def test_no_notification_reveals_another_seats_hand_R8() -> None:
    """Over whole games, every event a seat receives holds no card of another seat's current hand,
    except ``hands_revealed``, which goes only to seats that are out (R8.3) and shows the hands."""
    revealed = 0
    for seed in (31, 32, 33):
        players = [ListeningRandom(f"L{seat}", seed + seat) for seat in range(4)]
        engine = GameEngine(players, RuleSet(), seed=seed)

        def checker(engine: GameEngine, seat: int) -> Callable[[Event], None]:
            def check(event: Event) -> None:
                nonlocal revealed
                round_ = engine.round
                hands = list(round_.hands) if round_ is not None else [0] * 4
                if event.name == "hands_revealed":
                    assert round_ is not None and seat in round_.out_order and not round_.is_over
                    assert [_labels(cards) for cards in event.context["hands"]] == [_mask_cards(h) for h in hands]
                    revealed += 1
                    return
                others = set().union(*(_mask_cards(hands[other]) for other in range(4) if other != seat))
                assert not (_cards_in(event.context) & others), f"{event.name} leaks another hand to seat {seat}"
            return check

        for seat, player in enumerate(players):
            player.on_notify = checker(engine, seat)
        await engine.run()
    assert revealed > 0


async def test_hands_not_revealed_when_the_table_forbids_it_R8_3() -> None:
    """With ``reveal_hands_when_out=False`` nobody ever receives ``hands_revealed``."""
    players = [ListeningRandom(f"L{seat}", seat) for seat in range(4)]
    await GameEngine(players, RuleSet(reveal_hands_when_out=False), seed=4).run()
    assert all(event.name != "hands_revealed" for player in players for event in player.events)
    assert any(event.name == "player_out" for event in players[0].events)


async def test_grand_tichu_decided_on_eight_cards_R2_1() -> None:
    """At the Grand Tichu decision a seat's view holds its first 8 cards only (R2.1), and every seat
    still has 8 cards (R2.2: the rest comes after all four decided)."""
    seen: list[tuple[int, tuple[int, ...]]] = []

    class Peeking(RandomAgent):
        reads_table = True

        def decide_grand_tichu(self, view: SeatView) -> bool:
            seen.append((view.hand.bit_count(), view.public_state().count_hand_cards))
            return super().decide_grand_tichu(view)

    engine = GameEngine([AgentPlayer(Peeking(f"P{seat}", seat)) for seat in range(4)],
                        RuleSet(target_score=200), seed=1)
    await engine.run()
    assert seen and all(entry == (8, (8, 8, 8, 8)) for entry in seen)


def test_engine_needs_four_players() -> None:
    """A table has four seats (R1.3)."""
    with pytest.raises(ValueError):
        GameEngine([AgentPlayer(RandomAgent("a")), AgentPlayer(RandomAgent("b")), AgentPlayer(RandomAgent("c"))])


async def test_replace_player_takes_over_the_seat() -> None:
    """``replace_player`` seats another player (an agent for a client that left): it is asked from
    then on, and its name shows in the table info."""
    engine = GameEngine([AgentPlayer(RandomAgent(f"R{seat}", seat)) for seat in range(4)],
                        RuleSet(target_score=100), seed=1)
    listener = ListeningRandom("L", 9)
    old = engine.replace_player(2, listener)
    assert old.name == "R2" and engine.info.player_names[2] == "L" and engine.players[2] is listener
    await engine.run()
    assert listener.events and listener.events[-1].name == "game_over"


async def test_a_call_while_an_agent_decides_later_is_seen_R6_1() -> None:
    """An agent whose answer comes later (as at a server, after a pause) decides on what the
    table is when it answers: a client's Tichu call during the pause makes its pending answer
    stale, and it is asked again with a view that shows the call (R6.1, R8.1)."""
    hands, pushes = build_deal(["Ma S9", "", "", ""], ["", "", "", ""], seed=5)
    seen: list[tuple[int, ...]] = []
    paused = asyncio.Event()
    release = asyncio.Event()

    class Paused(ScriptedPlayer):
        """Leads the Mah Jong once the test releases it; every play is answered later."""

        def play(self, view: SeatView, legal: Sequence[Play]) -> Later[Play]:  # type: ignore[override]
            seen.append(view.public_state().announcements)
            return Later(self._after_release(view, legal))

        async def _after_release(self, view: SeatView, legal: Sequence[Play]) -> Play:
            paused.set()
            await release.wait()
            return next(play for play in legal if play[0] == MAHJONG)

    players: list[Player] = [Paused("P", schupf=pushes[0]), Client("C", 11, push=pushes[1]),
                             ScriptedPlayer("S2", schupf=pushes[2]), Client("D", 13, push=pushes[3])]
    engine = GameEngine(players, RuleSet(target_score=100), rng=RiggedRandom(hands))
    task = asyncio.ensure_future(engine.run())
    try:
        await asyncio.wait_for(paused.wait(), 5)
        assert seen == [(0, 0, 0, 0)]
        engine.interrupt(1, ActionKind.TICHU)
        await _until(lambda: len(seen) == 2)
        assert seen[1] == (0, 1, 0, 0), "the agent was not asked again after the call"
        release.set()
        await _until(lambda: bool(_rnd(engine).has_played[0]))
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_offers_go_only_to_players_that_cannot_act_unprompted_R6_1_R4_3() -> None:
    """Tichu (R6.1) and bombs out of turn (R4.3) are offered to agents, which cannot act by
    themselves; a client calls and bombs unprompted (``announce``, ``bomb``), so it is never
    offered one (no view is built for an answer that is always no)."""

    class Unprompted(ScriptedPlayer):
        acts_unprompted = True

    hands, pushes = build_deal(["Ma", "", "S5 B5 G5 R5", "S7 B7 G7 R7"], ["", "", "S5 B5 G5 R5", "S7 B7 G7 R7"],
                               seed=3)
    seats: list[ScriptedPlayer] = [Unprompted("U0", schupf=pushes[0]), ScriptedPlayer("S1", schupf=pushes[1]),
                                   Unprompted("U2", schupf=pushes[2]), ScriptedPlayer("S3", schupf=pushes[3])]
    engine = GameEngine(list(seats), RuleSet(target_score=1), rng=RiggedRandom(hands))
    await asyncio.wait_for(engine.run(), 20)
    assert seats[0].offers == seats[2].offers == {"tichu": 0, "bomb": 0}
    assert seats[1].offers["tichu"] > 0 and seats[3].offers["tichu"] > 0
    assert seats[3].offers["bomb"] > 0  # it holds the sevens


# -- offers answered later (a server's agents decide in worker processes) -------------------


class LaterOffers(AgentPlayer):
    """An agent whose Tichu and bomb offers come :class:`Later`, each decided after a turn of the
    loop (as a server's agent decides in a worker process)."""

    async def _later(self, decide: Callable[..., Any], *args: Any) -> Any:
        await asyncio.sleep(0)
        return decide(*args)

    def offer_tichu(self, view: SeatView) -> Later[bool]:  # type: ignore[override]  # an agent answering later
        return Later(self._later(self.agent.decide_tichu, view))

    def offer_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Later[Play | None]:  # type: ignore[override]
        return Later(self._later(self.agent.decide_bomb, view, bombs))


@pytest.mark.parametrize("before_schupf", [False, True])
async def test_offers_answered_later_play_the_same_game_R6_1_R4_3(before_schupf: bool) -> None:
    """Offers answered later are asked in the same order and applied alike: seeded agents play the
    same games as when they answer at once (each seat sees the calls of the seats before it), and
    declined offers are not asked again and again (the games end)."""
    calls = bombs = 0
    for seed in (1, 2, 3):
        games = []
        for seat_agent in (AgentPlayer, LaterOffers):
            agents = [RandomAgent(f"R{seat}", seed * 10 + seat) for seat in range(4)]
            for agent in agents:
                agent.TICHU_RATE = 0.05
            engine = GameEngine([seat_agent(agent) for agent in agents],
                                RuleSet(target_score=300, tichu_before_schupf=before_schupf), seed=seed,
                                keep_rounds=True)
            await asyncio.wait_for(engine.run(), 30)
            games.append([round_.events for round_ in engine.rounds])
        assert games[0] == games[1]
        events = [event for round_events in games[1] for event in round_events]
        calls += sum(event[0] == ActionKind.TICHU for event in events)
        bombs += sum(event[0] == ActionKind.BOMB for event in events)
    assert calls and bombs


class HeldOffers(ScriptedPlayer):
    """A scripted agent whose offers come later; its first offer of the kind ``hold`` waits for
    the test's :attr:`release` (the engine may cancel it meanwhile).

    :ivar views: The views of its offers, by kind.
    :ivar held: Set once the held offer waits.
    :ivar cancelled: Offers the engine cancelled while they waited.
    """

    def __init__(self, name: str, hold: str, **kwargs: Any) -> None:
        super().__init__(name, **kwargs)
        self.hold: str | None = hold
        self.views: dict[str, list[SeatView]] = {"tichu": [], "bomb": []}
        self.held = asyncio.Event()
        self.release: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.cancelled = 0

    async def _later(self, kind: str, answer: Any) -> Any:
        if self.hold == kind:
            self.hold = None
            self.held.set()
            try:
                return await self.release
            except asyncio.CancelledError:
                self.cancelled += 1
                raise
        await asyncio.sleep(0)
        return answer

    def offer_tichu(self, view: SeatView) -> Later[bool]:  # type: ignore[override]
        self.views["tichu"].append(view)
        return Later(self._later("tichu", super().offer_tichu(view)))

    def offer_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Later[Play | None]:  # type: ignore[override]
        self.views["bomb"].append(view)
        return Later(self._later("bomb", super().offer_bomb(view, bombs)))


class ScriptedClient(ScriptedPlayer):
    """A scripted player that acts unprompted, like a client (it is offered nothing)."""

    acts_unprompted = True


async def test_a_client_bomb_while_a_bomb_offer_is_awaited_makes_it_stale_R4_3() -> None:
    """Seat 2 is offered a bomb on seat 0's nine and answers later; meanwhile client seat 3 bombs.
    Seat 2's answer, a bomb, is dropped (not thrown over the new bomb unasked), and seat 2 is
    offered again, now on seat 3's bomb."""
    hands, pushes = build_deal(["Ma S9", "", "SB BB GB RB", "S7 B7 G7 R7"],
                               ["", "", "SB BB GB RB", "S7 B7 G7 R7"], seed=3)
    jacks, sevens = parse_mask("SB BB GB RB"), parse_mask("S7 B7 G7 R7")
    seat2 = HeldOffers("S2", "bomb", schupf=pushes[2])
    players = [ScriptedPlayer("S0", schupf=pushes[0], plays=["S9"]), ScriptedPlayer("S1", schupf=pushes[1]),
               seat2, ScriptedClient("S3", schupf=pushes[3])]
    engine = GameEngine(players, RuleSet(target_score=1), rng=RiggedRandom(hands), keep_rounds=True)
    task = asyncio.create_task(asyncio.wait_for(engine.run(), 20))
    await asyncio.wait_for(seat2.held.wait(), 5)
    assert _rnd(engine).trick is not None and _rnd(engine).trick_owner == 0
    engine.interrupt(3, ActionKind.BOMB, sevens)
    # The answer arrives at once, before the engine sees the bomb: it is dropped all the same.
    seat2.release.set_result(next(bomb for bomb in _rnd(engine).bombs_for(2) if bomb.cards == jacks))
    await task
    events = engine.rounds[0].events
    assert events[0] == (ActionKind.PLAY, 0, parse_mask("S9"))
    assert events[1] == (ActionKind.BOMB, 3, sevens)
    assert (ActionKind.BOMB, 2, jacks) not in events  # its script declines every later offer
    second = seat2.views["bomb"][1]
    assert second.trick is not None and second.trick.cards == sevens


async def test_a_client_call_while_a_tichu_offer_is_awaited_asks_again_seeing_it_R6_1() -> None:
    """Seat 1 is offered Tichu and answers later; meanwhile client seat 0 calls Tichu. The pending
    answer is dropped and seat 1 is asked again, seeing the call (R6.1)."""
    hands, pushes = build_deal(["Ma", "", "", ""], ["", "", "", ""], seed=2)
    seat1 = HeldOffers("S1", "tichu", schupf=pushes[1])
    players = [ScriptedClient("S0", schupf=pushes[0]), seat1, ScriptedPlayer("S2", schupf=pushes[2]),
               ScriptedPlayer("S3", schupf=pushes[3])]
    engine = GameEngine(players, RuleSet(target_score=1), rng=RiggedRandom(hands), keep_rounds=True)
    task = asyncio.create_task(asyncio.wait_for(engine.run(), 20))
    await asyncio.wait_for(seat1.held.wait(), 5)
    engine.interrupt(0, ActionKind.TICHU)
    await asyncio.sleep(0.01)
    assert seat1.cancelled == 1  # the engine gave up the overtaken offer
    await task
    first, second = seat1.views["tichu"][:2]
    assert first.public_state().announcements[0] == 0 and second.public_state().announcements[0] == 1
    assert engine.rounds[0].announcements == [1, 0, 0, 0]
