"""The bots (tichu.client.bots): RandomBrain's decisions and hooks (calls and bombs as the server's
private state allows them, R6.1, R4.3) and next_option."""

from __future__ import annotations

from typing import Any, cast

from tests.client.conftest import HAND, WISH_VALUES, OfflineClient, answer_json, cards, joined, request, text
from tichu.client.bots import Brain, RandomBrain, next_option
from tichu.server.wire.incoming import DragonAnswer, GrandTichuAnswer, SchupfAnswer, WishAnswer
from tichu.server.wire.outgoing import PlayContext, RequestPayload


async def test_random_brain_is_seeded_and_legal() -> None:
    legal = [cards("S5"), cards("B5"), []]
    play: PlayContext = {"hand_cards": HAND, "legal_plays": legal, "trick_combination": None,
                         "trick_owner_index": None, "wish_value": None, "hint": None}
    first, second = RandomBrain(seed=9), RandomBrain(seed=9)
    client = OfflineClient(first)
    for brain in (first, second):
        assert answer_json(await brain.play(client, play))["cards"] in legal
        given = (await brain.schupf(client, {"hand_cards": HAND})).given_schupf_cards
        assert len(set(given)) == 3 and all(list(card) in HAND for card in given)
        assert (await brain.wish(client, {"wish_values": [3, 0]})).wish_value in (3, 0)  # as the server lists
        assert (await brain.give_dragon_away(client, {"opponent_indexes": [1, 3]})).dragon_recipient in (1, 3)
        assert isinstance((await brain.announce_grand_tichu(client, {"hand_cards": HAND[:8]})).announced, bool)
    assert first.rng.random() == second.rng.random()


def _playing_client(brain: Brain, hand: list[list[int]], trick_turns: list[Any]) -> OfflineClient:
    client = OfflineClient(brain)
    client.state.apply("player_joined", joined(0, hand=hand))
    client.state.public.update(phase="playing", trick_turns=trick_turns, current_turn_index=1)
    return client


def _private_state_changed(hand: list[list[int]], *, may_announce: bool, bombs: list[list[list[int]]]) -> str:
    """The server's ``private_state_changed`` for seat 0 (docs/server.md)."""
    private = {"player_index": 0, "hand_cards": hand, "given_schupf_cards": None, "received_schupf_cards": None,
               "may_announce": may_announce, "bombs": bombs,
               "unseen_bombs": {"four_of_a_kind": [], "straight_flush": []}}
    return text("notification", {"event": "private_state_changed", "context": {"private_state": private}})


async def test_random_brain_calls_tichu_and_bombs_as_the_server_allows() -> None:
    """R6.1, R4.3: the private state says the seat may call and may lay the four Aces; the brain
    (at chance 1) calls at once, and throws exactly the bomb the server named when the turn
    passes to another seat (a change of the private state may come just before the turn comes
    to this seat, so it is no chance to bomb)."""
    brain = RandomBrain(seed=10)
    brain.TICHU_RATE = brain.BOMB_RATE = 1.0
    hand = cards("SA BA GA RA S2 B3 G4 R5 S6 B7 G8 R9 SZ Ph")
    client = _playing_client(brain, hand, [[1, cards("S5 B5"), ["pair", 2, 5]]])
    await client.receive_text(_private_state_changed(hand, may_announce=True, bombs=[cards("RA GA BA SA")]))
    assert client.state.may_announce and client.state.bombs == [cards("RA GA BA SA")]
    assert client.sent_of("announce") == [{}] and client.sent_of("bomb") == []
    await client.receive_text(_private_state_changed(hand, may_announce=False, bombs=[cards("RA GA BA SA")]))
    await client.receive_text(text("notification", {"event": "player_turn_changed",
                                                    "context": {"current_turn_index": 2}}))
    assert client.sent_of("announce") == [{}]
    assert client.sent_of("bomb") == [{"cards": cards("RA GA BA SA")}]


async def test_random_brain_does_not_work_out_calls_or_bombs_itself() -> None:
    """The hand holds a bomb and no card was played, but the server's private state allows
    neither a call nor a bomb (say, the Mah Jong's wish is being chosen, R4.3): the brain does
    nothing, whatever the hand and the trick look like."""
    brain = RandomBrain(seed=12)
    brain.TICHU_RATE = brain.BOMB_RATE = 1.0
    hand = cards("SA BA GA RA S2 B3 G4 R5 S6 B7 G8 R9 SZ Ph")
    client = _playing_client(brain, hand, [[1, cards("S5 B5"), ["pair", 2, 5]]])
    await client.receive_text(_private_state_changed(hand, may_announce=False, bombs=[]))
    await client.receive_text(text("notification", {"event": "player_turn_changed",
                                                    "context": {"current_turn_index": 2}}))
    await client.receive_text(text("notification", {"event": "player_passed", "context": {"player_index": 2}}))
    assert client.sent_of("announce") == [] and client.sent_of("bomb") == []


async def test_random_brain_never_bombs_at_its_own_turn_or_by_chance_zero() -> None:
    """At its own turn a bomb is the play (R4.3), never a ``bomb`` message; at chance 0 no bomb."""
    brain = RandomBrain(seed=11)
    brain.BOMB_RATE = 1.0
    hand = cards("SA BA GA RA")
    client = _playing_client(brain, hand, [[1, cards("S5"), ["single", 1, 5]]])
    client.state.public["current_turn_index"] = 0
    await client.receive_text(_private_state_changed(hand, may_announce=False, bombs=[hand]))
    await client.receive_text(text("notification", {"event": "player_turn_changed",
                                                    "context": {"current_turn_index": 0}}))
    brain.BOMB_RATE = 0.0
    await client.receive_text(text("notification", {"event": "player_passed", "context": {"player_index": 1}}))
    assert client.sent_of("bomb") == [] and client.sent_of("announce") == []


def test_next_option_skips_what_was_tried() -> None:
    dragon = request("give_dragon_away", {"opponent_indexes": [1, 3]})
    assert next_option(dragon, [DragonAnswer(1)]) == DragonAnswer(3)
    assert next_option(dragon, [DragonAnswer(1), DragonAnswer(3)]) is None
    assert next_option(request("wish", {"wish_values": WISH_VALUES}), [WishAnswer(2)]) == WishAnswer(3)
    assert next_option(request("announce_grand_tichu", {"hand_cards": HAND[:8]}), []) == GrandTichuAnswer(False)
    schupf = next_option(request("schupf", {"hand_cards": HAND}), [])
    assert isinstance(schupf, SchupfAnswer) and answer_json(schupf) == {"given_schupf_cards": HAND[:3]}
    assert next_option(cast(RequestPayload, {"action": "dance"}), []) is None
