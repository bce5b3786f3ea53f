"""The table state (tichu.client.state): one seat's view kept from the notifications, without a network."""

from __future__ import annotations

from typing import cast

from tests.client.conftest import HAND, JsonDict, OfflineClient, cards, joined, text
from tichu.client.bots import RandomBrain
from tichu.client.state import TableState


def test_the_state_follows_a_round() -> None:
    state = TableState()
    state.apply("player_joined", joined())
    events: list[tuple[str, JsonDict]] = [
        ("player_joined", {"player_index": 2, "player_name": "Ben"}),
        ("players_swapped", {"player_index_1": 1, "player_index_2": 2}),
        ("game_started", {}), ("round_started", {"round_index": 0}),
        ("hand_cards_dealt", {"count": 8, "hand_cards": HAND[:8]}),
        ("player_announced", {"player_index": 1, "grand": True}),
        ("hand_cards_dealt", {"count": 6, "hand_cards": HAND}),
    ]
    for event, context in events:
        state.apply(event, context)
    public = state.public
    assert public["player_names"] == ["Anna", "Ben", "Bot 1", "Bot 3"] and state.client_seats == {0, 1}
    assert public["phase"] == "schupf" and public["count_hand_cards"] == [14] * 4
    assert public["announcements"] == [0, 2, 0, 0] and len(state.hand) == 14

    state.private["given_schupf_cards"] = cards("S3 Ma Ph")
    for seat in range(4):
        state.apply("player_schupfed", {"player_index": seat})
    assert public["count_hand_cards"] == [11] * 4 and len(state.hand) == 11
    state.apply("start_playing", {"start_player_index": 3, "received_schupf_cards": cards("RZ G2 Hu")})
    assert public["phase"] == "playing" and public["current_turn_index"] == 3
    assert len(state.hand) == 14 and cards("Hu")[0] in state.hand and public["count_hand_cards"] == [14] * 4

    state.apply("player_played", {"turn": [0, cards("S5 B5"), ["pair", 2, 5]], "trick_points": 10,
                                  "trick_owner_index": 0, "is_bomb": False, "out_of_turn": False})
    assert public["count_hand_cards"][0] == 12 and cards("S5")[0] not in state.hand
    assert public["trick_owner_index"] == 0 and public["trick_points"] == 10 and len(public["played_cards"]) == 2
    state.apply("wish_made", {"wish_value": 8})
    assert public["wish_open"]
    state.apply("wish_fulfilled", {})
    state.apply("player_turn_changed", {"current_turn_index": 1})
    state.apply("trick_taken", {"player_index": 0, "points": 10, "dragon_recipient": None})
    state.apply("trick_taken", {"player_index": 0, "points": 25, "dragon_recipient": 3})
    assert public["points"] == [10, 0, 0, 25] and public["trick_turns"] == [] and not public["wish_open"]
    state.apply("player_out", {"player_index": 2, "place": 1})
    state.apply("hands_revealed", {"hands": [HAND, [], [], []]})
    state.apply("round_over", {"card_points": [10, 90], "bonus": [0, -200], "points": [10, -110],
                               "total": [10, -110], "out_order": [2, 0, 1], "is_double_victory": False})
    assert public["round_scores"] == [[10, -110]] and public["phase"] == "round_over"
    assert state.revealed_hands is not None and public["out_order"] == [2]
    state.apply("game_over", {"game_score": [[10], [-110]], "total": [1010, 0], "winner": 20})
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
        "is_double_victory": False}}))
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
