"""The bots (tichu.client.bots): RandomBrain's decisions and hooks, bombs_against and next_option."""

from __future__ import annotations

from typing import Any

from tests.client.conftest import HAND, JsonDict, OfflineClient, cards, joined, text
from tichu.client.bots import Brain, RandomBrain, bombs_against, next_option


async def test_random_brain_is_seeded_and_legal() -> None:
    context: JsonDict = {"hand_cards": HAND, "legal_plays": [cards("S5"), cards("B5"), []],
                         "opponent_indexes": [1, 3]}
    first, second = RandomBrain(seed=9), RandomBrain(seed=9)
    client = OfflineClient(first)
    for brain in (first, second):
        assert (await brain.play(client, context))["cards"] in context["legal_plays"]
        given = (await brain.schupf(client, context))["given_schupf_cards"]
        assert len({tuple(card) for card in given}) == 3
        assert 2 <= (await brain.wish(client, context))["wish_value"] <= 14
        assert (await brain.give_dragon_away(client, context))["dragon_recipient"] in (1, 3)
        assert isinstance((await brain.announce_grand_tichu(client, context))["announced"], bool)
    assert first.rng.random() == second.rng.random()


def _playing_client(brain: Brain, hand: list[list[int]], trick_turns: list[Any]) -> OfflineClient:
    client = OfflineClient(brain)
    client.state.apply("player_joined", joined(0, hand=hand))
    client.state.public.update(phase="playing", trick_turns=trick_turns, current_turn_index=1)
    return client


async def test_random_brain_calls_tichu_and_bombs_unprompted() -> None:
    brain = RandomBrain(seed=10)
    brain.TICHU_RATE = brain.BOMB_RATE = 1.0
    hand = cards("SA BA GA RA S2 B3 G4 R5 S6 B7 G8 R9 SZ Ph")
    client = _playing_client(brain, hand, [[1, cards("S5 B5"), ["pair", 2, 5]]])
    await client.receive_text(text("notification", {"event": "player_turn_changed",
                                                    "context": {"current_turn_index": 2}}))
    assert client.sent_of("announce") == [{}]
    assert client.sent_of("bomb") == [{"cards": cards("RA GA BA SA")}]


async def test_random_brain_never_bombs_at_its_own_turn_or_by_chance_zero() -> None:
    brain = RandomBrain(seed=11)
    brain.BOMB_RATE = 1.0
    client = _playing_client(brain, cards("SA BA GA RA"), [[1, cards("S5"), ["single", 1, 5]]])
    await client.receive_text(text("notification", {"event": "player_turn_changed",
                                                    "context": {"current_turn_index": 0}}))
    brain.BOMB_RATE = 0.0
    await client.receive_text(text("notification", {"event": "player_passed", "context": {"player_index": 1}}))
    assert client.sent_of("bomb") == [] and client.sent_of("announce") == []


def test_bombs_against_the_trick() -> None:
    hand = cards("SA BA GA RA S2 S3 S4 S5 S6 Ph")
    assert bombs_against(hand, []) == []
    assert bombs_against(hand, [[0, cards("Hu"), ["single", 1, 0]]]) == []
    assert len(bombs_against(hand, [[0, cards("Ph"), ["single", 1, 1.5]]])) == 2
    straight_flush = [[0, cards("B7 B6 B5 B4 B3"), ["bomb", 5, 7]]]
    assert bombs_against(hand, straight_flush) == []
    assert bombs_against(hand, [[0, cards("SK BK GK RK"), ["bomb", 4, 13]]]) == [cards("RA GA BA SA"),
                                                                                   cards("S6 S5 S4 S3 S2")]


def test_next_option_skips_what_was_tried() -> None:
    request = {"action": "give_dragon_away", "context": {"opponent_indexes": [1, 3]}}
    assert next_option(request, [{"dragon_recipient": 1}]) == {"dragon_recipient": 3}
    assert next_option(request, [{"dragon_recipient": 1}, {"dragon_recipient": 3}]) is None
    assert next_option({"action": "wish", "context": {}}, [{"wish_value": 2}]) == {"wish_value": 3}
    assert next_option({"action": "announce_grand_tichu"}, []) == {"announced": False}
    assert next_option({"action": "schupf", "context": {"hand_cards": HAND}}, []) == \
        {"given_schupf_cards": HAND[:3]}
    assert next_option({"action": "dance"}, []) is None
