"""The terminal console (tichu.client.console): commands, their checks, the table as text, ConsoleBrain."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest

from tests.client.conftest import (
    HAND,
    WISH_VALUES,
    JsonDict,
    OfflineClient,
    answer_json,
    cards,
    joined,
    play_request,
    request,
    settle,
    text,
)
from tichu.client.console import (
    Command,
    CommandError,
    ConsoleBrain,
    describe_event,
    format_cards,
    interpret,
    parse_command,
    prompt_for,
    render_table,
)
from tichu.client.state import TableState
from tichu.rules import parse_cards
from tichu.server.wire.outgoing import PlayContext, RequestPayload


@pytest.mark.parametrize(("line", "expected"), [
    ("S5 b5", Command("cards", cards=tuple(parse_cards("S5 B5")))),
    ("ph dr", Command("cards", cards=tuple(parse_cards("Ph Dr")))),
    ("  pass ", Command("pass")),
    ("Tichu", Command("tichu")),
    ("yes", Command("yes")),
    ("n", Command("no")),
    ("bomb SA BA GA RA", Command("bomb", cards=tuple(parse_cards("SA BA GA RA")))),
    ("wish 8", Command("wish", numbers=(8,))),
    ("wish a", Command("wish", numbers=(14,))),
    ("wish Z", Command("wish", numbers=(10,))),
    ("dragon 3", Command("dragon", numbers=(3,))),
    ("1", Command("number", numbers=(1,))),
    ("swap 1 2", Command("swap", numbers=(1, 2))),
    ("start", Command("start")),
    ("quit", Command("quit")),
])
def test_parse_command(line: str, expected: Command) -> None:
    assert parse_command(line) == expected


@pytest.mark.parametrize(("line", "message"), [
    ("", "type a command"),
    ("S5 X9", "not understood"),
    ("bomb", "name the bomb's cards"),
    ("bomb SA XX", "unknown card 'XX'"),
    ("S5 s5", "named twice"),
    ("wish 1", "no card value"),
    ("wish W", "no card value"),
    ("swap 1 7", "no seat '7'"),
    ("pass now", "not understood"),
])
def test_parse_command_refuses(line: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse_command(line)


def test_interpret_checks_the_play_against_the_legal_plays() -> None:
    play = play_request("r-1", [cards("S5 B5"), cards("Ph S5"), []])
    assert answer_json(interpret(parse_command("B5 S5"), play)) == {"cards": cards("S5 B5")}
    assert answer_json(interpret(parse_command("pass"), play)) == {"cards": []}
    with pytest.raises(CommandError, match="you do not hold RZ"):
        interpret(parse_command("RZ"), play)
    with pytest.raises(CommandError, match="Dr is not a legal play now"):
        interpret(parse_command("Dr"), play)
    lead = play_request("r-2", [cards("S5")])
    cast(PlayContext, lead["context"])["wish_value"] = 5
    with pytest.raises(CommandError, match="cannot pass"):
        interpret(parse_command("pass"), lead)
    with pytest.raises(CommandError, match=r"the wish \(5\) must be fulfilled"):
        interpret(parse_command("Dr"), lead)
    with pytest.raises(CommandError, match="play cards"):
        interpret(parse_command("yes"), lead)
    bomb_turn = play_request("r-3", [cards("SA BA GA RA")], cards("SA BA GA RA"))
    assert answer_json(interpret(parse_command("bomb RA GA BA SA"), bomb_turn)) == {"cards": cards("SA BA GA RA")}


def test_interpret_the_other_requests() -> None:
    grand = request("announce_grand_tichu", {"hand_cards": HAND[:8]})
    assert answer_json(interpret(parse_command("yes"), grand)) == {"announced": True}
    assert answer_json(interpret(parse_command("no"), grand)) == {"announced": False}
    with pytest.raises(CommandError, match="yes or no"):
        interpret(parse_command("S5"), grand)
    schupf = request("schupf", {"hand_cards": HAND})
    assert answer_json(interpret(parse_command("S3 Ph Ma"), schupf)) == {"given_schupf_cards": cards("S3 Ph Ma")}
    with pytest.raises(CommandError, match="three cards"):
        interpret(parse_command("S3 Ph"), schupf)
    with pytest.raises(CommandError, match="you do not hold Hu"):
        interpret(parse_command("S3 Ph Hu"), schupf)
    wish = request("wish", {"wish_values": WISH_VALUES})
    assert answer_json(interpret(parse_command("wish K"), wish)) == {"wish_value": 13}
    assert answer_json(interpret(parse_command("9"), wish)) == {"wish_value": 9}
    with pytest.raises(CommandError, match="wish one of 2, 3, "):
        interpret(parse_command("15"), wish)
    with pytest.raises(CommandError, match="wish one of 2, 3, "):  # the server lists no empty wish here (R5.1)
        interpret(parse_command("wish 0"), wish)
    optional = request("wish", {"wish_values": [*WISH_VALUES, 0]})
    assert answer_json(interpret(parse_command("wish 0"), optional)) == {"wish_value": 0}
    dragon = request("give_dragon_away", {"opponent_indexes": [1, 3]})
    assert answer_json(interpret(parse_command("3"), dragon)) == {"dragon_recipient": 3}
    with pytest.raises(CommandError, match="seat 1 or 3"):
        interpret(parse_command("dragon 2"), dragon)
    with pytest.raises(CommandError, match="cannot answer"):
        interpret(parse_command("yes"), cast(RequestPayload, {"action": "dance"}))


def test_render_table_and_describe_events() -> None:
    state = TableState()
    state.apply("player_joined", joined(0, hand=HAND))
    state.public.update(phase="playing", current_turn_index=2, count_hand_cards=[14, 12, 9, 0],
                        announcements=[0, 1, 2, 0], out_order=[3], wish_value=8, wish_open=True,
                        trick_turns=[[1, cards("S5 B5"), ["pair", 2, 5]]], trick_owner_index=1, trick_points=10,
                        total=[120, 80])
    shown = render_table(state)
    assert "Table home: round 1, playing; score team 20: 120, team 31: 80" in shown
    assert "Bot 1" in shown and "Tichu" in shown and "Grand Tichu" in shown and "out #1" in shown
    assert "at turn" in shown.splitlines()[3] and "you, host" in shown.splitlines()[1]
    assert "Trick: Bot 1: S5 B5, owner Bot 1, 10 points" in shown and "Wish: 8" in shown
    assert f"Your hand: {format_cards(HAND, sort=True)}" in shown
    assert format_cards(HAND, sort=True).startswith("Ph Dr RA GK") and format_cards([[3, 9]]) == "?[3, 9]"
    played = {"turn": [3, cards("RA GA BA SA"), ["bomb", 4, 14]], "out_of_turn": True}
    assert describe_event(state, "player_played", played) == "Bot 3 bombs RA GA BA SA (bomb 14)"
    assert describe_event(state, "trick_taken", {"player_index": 0, "points": 25, "dragon_recipient": 1}) \
        == "Anna takes the trick (25 points); the Dragon trick goes to Bot 1"
    assert describe_event(state, "wish_made", {"wish_value": 14}) == "Wish: Ace"
    assert describe_event(state, "player_out", {}) == "player_out: {}"
    assert describe_event(state, "player_turn_changed", {"current_turn_index": 1}) is None
    dragon = request("give_dragon_away", {"opponent_indexes": [1, 3]})
    assert prompt_for(dragon) == "> Give the Dragon trick to an opponent: dragon SEAT (1 or 3)"
    assert prompt_for(request("wish", {"wish_values": [2, 3, 0]})).endswith("one of 2, 3, 0 for none")


def test_the_console_offers_what_the_server_allows_beyond_the_turn() -> None:
    """The table and each ``private_state_changed`` show the call and the bombs the server's
    private state allows (R6.1, R4.3), with their commands; nothing when it allows neither."""
    state = TableState()
    state.apply("player_joined", joined(0, hand=HAND))
    assert "You may" not in render_table(state)
    private = {**state.private, "may_announce": True, "bombs": [cards("RA GA BA SA"), cards("S6 S5 S4 S3 S2")]}
    state.apply("private_state_changed", {"private_state": private})
    line = "You may call Tichu (tichu) or bomb (bomb RA GA BA SA, bomb S6 S5 S4 S3 S2)"
    assert render_table(state).splitlines()[-1] == line
    assert describe_event(state, "private_state_changed", {"private_state": private}) == line
    private = {**private, "may_announce": False, "bombs": []}
    state.apply("private_state_changed", {"private_state": private})
    assert describe_event(state, "private_state_changed", {"private_state": private}) is None
    assert "You may" not in render_table(state)


async def test_console_brain_answers_from_typed_lines() -> None:
    output: list[str] = []
    brain = ConsoleBrain(output.append)
    client = OfflineClient(brain)
    await client.receive_text(text("notification", {"event": "player_joined", "context": joined(hand=HAND)}))
    assert await brain.handle_line(client, "pass")
    assert output[-1] == "! nothing to decide now"
    play = play_request("r-1", [cards("S5"), cards("SA BA GA RA"), []], cards("SA BA GA RA S5 Dr"))
    cast(PlayContext, play["context"])["hint"] = [cards("S5")]
    await client.receive_text(text("request", play))
    await settle(lambda: any(line.startswith("> Your turn") for line in output))
    assert "[hint: S5]" in output[-1] and "Your hand:" in output[-2]
    await brain.handle_line(client, "Dr")
    await brain.handle_line(client, "tichu")
    await brain.handle_line(client, "show")
    await brain.handle_line(client, "help")
    await brain.handle_line(client, "bogus words")
    await brain.handle_line(client, "bomb SA BA GA RA")
    await settle(lambda: bool(client.sent_of("response")))
    assert client.sent_of("response")[0]["response_data"] == {"cards": cards("SA BA GA RA")}
    assert client.sent_of("announce") == [{}] and client.sent_of("bomb") == []
    assert "! Dr is not a legal play now" in output and any(line.startswith("Commands:") for line in output)
    await client.receive_text(text("error", {"code": 300, "message": "no", "context": {}}))
    assert "! server: no (error 300)" in output
    await settle(lambda: output[-1].startswith("> Your turn"))
    await brain.handle_line(client, "S5")
    await settle(lambda: len(client.sent_of("response")) == 2)
    await brain.handle_line(client, "bomb SA BA GA RA")
    await brain.handle_line(client, "start")
    await brain.handle_line(client, "swap 1 2")
    assert not await brain.handle_line(client, "quit")
    assert client.sent_of("bomb") == [{"cards": cards("SA BA GA RA")}]
    assert client.sent_of("swap_players") == [{"player_index_1": 1, "player_index_2": 2}]
    assert [entry.message.TYPE for entry in client.sent][-3:] == ["start_game", "swap_players", "leave"]


@pytest.mark.parametrize(("request_", "line", "answer"), [
    ({"action": "announce_grand_tichu", "context": {"hand_cards": HAND[:8]}}, "no", {"announced": False}),
    ({"action": "schupf", "context": {"hand_cards": HAND}}, "S3 Ma Ph", {"given_schupf_cards": cards("S3 Ma Ph")}),
    ({"action": "wish", "context": {"wish_values": WISH_VALUES}}, "wish D", {"wish_value": 12}),
    ({"action": "give_dragon_away", "context": {"opponent_indexes": [1, 3]}}, "dragon 1", {"dragon_recipient": 1}),
])
async def test_console_brain_answers_each_request(request_: JsonDict, line: str, answer: JsonDict) -> None:
    output: list[str] = []
    brain = ConsoleBrain(output.append)
    client = OfflineClient(brain)
    await client.receive_text(text("request", {"request_id": "r-1", "timeout": None, **request_}))
    await settle(lambda: bool(output) and output[-1].startswith("> "))
    await brain.handle_line(client, line)
    await settle(lambda: bool(client.sent_of("response")))
    assert client.sent_of("response") == [{"request_id": "r-1", "action": request_["action"],
                                           "response_data": answer}]


async def test_console_brain_drops_lines_typed_before_the_question() -> None:
    output: list[str] = []
    brain = ConsoleBrain(output.append)
    client = OfflineClient(brain)
    grand = request("announce_grand_tichu", {"hand_cards": HAND[:8]})
    await client.receive_text(text("request", grand))
    await settle(lambda: bool(output))
    await brain.handle_line(client, "yes")
    await brain.handle_line(client, "no")  # typed twice before the answer left
    await settle(lambda: bool(client.sent_of("response")))
    await client.receive_text(text("request", {**grand, "request_id": "r-2"}))
    await settle(lambda: output.count("> Grand Tichu? (yes/no)") == 2)
    await asyncio.sleep(0.02)
    assert [response["request_id"] for response in client.sent_of("response")] == ["r-1"]
