"""The table state (tichu.client.state): one seat's view kept from the notifications, without a network."""

from __future__ import annotations

import copy
from typing import cast

from tests.client.conftest import HAND, JsonDict, OfflineClient, cards, joined, text
from tichu.client.bots import RandomBrain
from tichu.client.state import TableState


def test_the_state_follows_a_round() -> None:
    """Issue 36: the seats' names follow the table's notifications; the game's state is what each
    event carries (``public_delta``, ``private_delta``), replaced field by field, and an event
    without it changes nothing (no hand counts around the push, no trick points, no places)."""
    state = TableState()
    state.apply("player_joined", joined())
    state.apply("player_joined", {"player_index": 2, "player_name": "Ben"})
    state.apply("players_swapped", {"player_index_1": 1, "player_index_2": 2})
    public = state.public
    assert public["player_names"] == ["Anna", "Ben", "Bot 1", "Bot 3"] and state.client_seats == {0, 1}
    before, hand = copy.deepcopy(public), state.hand
    bare: list[tuple[str, JsonDict]] = [
        ("game_started", {}), ("round_started", {"round_index": 0}),
        ("hand_cards_dealt", {"count": 8, "hand_cards": HAND[:8]}),
        ("player_announced", {"player_index": 1, "grand": True}),
        ("player_schupfed", {"player_index": 0}), ("start_playing", {"start_player_index": 3}),
        ("player_played", {"turn": [0, cards("S5 B5"), ["pair", 2, 5]], "trick_points": 10, "trick_owner_index": 0,
                           "is_bomb": False, "out_of_turn": False}),
        ("wish_made", {"wish_value": 8}), ("player_turn_changed", {"current_turn_index": 1}),
        ("trick_taken", {"player_index": 0, "points": 25, "dragon_recipient": 3}),
        ("player_out", {"player_index": 2, "place": 1}),
        ("round_over", {"card_points": [10, 90], "bonus": [0, -200], "points": [10, -110], "total": [10, -110],
                        "out_order": [2, 0, 1], "is_double_victory": False})]
    for event, context in bare:
        state.apply(event, context)
    assert state.public == before and state.hand == hand, "an event without the state changes nothing"

    state.apply("player_schupfed", {"player_index": 3, "private_delta": {"hand_cards": HAND[:11]},
                                    "public_delta": {"phase": "playing", "current_turn_index": 3}})
    assert (public["phase"], public["current_turn_index"], len(state.hand)) == ("playing", 3, 11)
    assert public["count_hand_cards"] == before["count_hand_cards"], "a field not sent is kept"
    delta = {"points": [10, 0, 0, 25], "trick_turns": [], "out_order": [2], "passed": []}
    state.apply("trick_taken", {"player_index": 0, "points": 25, "dragon_recipient": 3, "public_delta": delta})
    assert {key: public[key] for key in delta} == delta
    state.apply("hands_revealed", {"hands": [HAND, [], [], []]})
    state.apply("player_played", {"turn": [0, cards("S5 B5"), ["pair", 2, 5]], "trick_points": 10,
                                  "trick_owner_index": 0, "is_bomb": False, "out_of_turn": False})
    assert state.revealed_hands is not None and cards("S5")[0] not in state.revealed_hands[0]  # R8.3
    state.apply("game_over", {"game_score": [[10], [-110]], "total": [1010, 0], "winner": 20,
                              "public_delta": {"phase": "game_over", "is_running": False, "total": [1010, 0]}})
    assert public["phase"] == "game_over" and not public["is_running"] and public["total"] == [1010, 0]


def test_own_seat_moves_with_a_swap_and_unknown_events_are_ignored() -> None:
    state = TableState()
    state.apply("player_joined", joined(1))
    state.apply("players_swapped", {"player_index_1": 1, "player_index_2": 3})
    state.apply("some_future_event", {"x": 1})
    assert state.player_index == 3 and state.private["player_index"] == 3 and state.client_seats == {3}
    state.apply("player_left", {"player_index": 3, "player_name": "Anna", "host_index": 2,
                                "replaced_by_agent": True})
    assert state.public["host_index"] == 2 and state.name(3) == "seat 3"  # the agent's name is the server's


async def test_the_joined_state_is_a_copy_of_the_logged_message() -> None:
    client = OfflineClient(RandomBrain(seed=8))
    await client.receive_text(text("notification", {"event": "player_joined", "context": joined()}))
    await client.receive_text(text("notification", {"event": "round_over", "context": {
        "points": [1, 2], "total": [1, 2], "card_points": [1, 2], "bonus": [0, 0], "out_order": [],
        "is_double_victory": False, "public_delta": {"round_scores": [[1, 2]], "total": [1, 2]}}}))
    logged = cast(JsonDict, client.notifications("player_joined")[0]["public_state"])
    assert logged["round_scores"] == [] and client.public_state["round_scores"] == [[1, 2]]


def test_the_private_state_is_the_servers_after_private_state_changed() -> None:
    """``private_state_changed`` (docs/server.md) replaces the private state: what the seat may do
    beyond its turn is the server's word (R6.1, R4.3). It may come before ``start_playing``
    (the round is played once the last push is in): the received cards are then not added twice."""
    state = TableState()
    state.apply("player_joined", joined(hand=HAND[:11]))
    assert not state.may_announce and state.bombs == []
    received = cards("GA BA SA")
    changed = {"player_index": 0, "hand_cards": HAND[:11] + received, "given_schupf_cards": cards("S3 Ma Ph"),
               "received_schupf_cards": received, "may_announce": True, "bombs": [cards("SA RA GA BA")]}
    state.apply("private_state_changed", {"private_state": changed})
    assert state.private == changed and state.private is not changed
    assert state.may_announce and state.bombs == [cards("SA RA GA BA")]
    state.apply("start_playing", {"start_player_index": 0, "received_schupf_cards": received})
    assert sorted(state.hand) == sorted(HAND[:11] + received)
    state.apply("private_state_changed", {"private_state": {**changed, "may_announce": False, "bombs": []}})
    assert not state.may_announce and state.bombs == []
