"""One stream, two clients: the transport of the state (Issue 36).

The server sends each seat the state after every game event (``public_delta``,
``private_delta``: docs/server.md, "The state with every event"); both clients' reducers only
replace what it sends, the Python client's (:class:`tichu.client.state.TableState`) and the
browser's (``web/js/state.js``, under Node). So these tests check transport, not rules: after
every frame of a whole game both clients hold exactly the state the server sent (the joining
state with every field a later message replaced), they agree with each other, and without the
server's state they change nothing of the game (no rule is worked out on the client).

The stream is ``tests/data/golden_stream.txt`` (``tests/data/make_golden_stream.py``): the text frames seat 0
received during a whole game at a live server. Both sides give their state as one canonical
snapshot (``TableState.snapshot()``, ``State.snapshot()``); ``tests/js/state_stream.mjs`` prints
the browser's after each frame. Without ``node`` the tests are skipped, unless ``CI=true``
(``.ci/run`` installs Debian's ``nodejs``).
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tichu.client.state import _SNAPSHOT_PUBLIC, TableState

ROOT = Path(__file__).resolve().parents[2]
STREAM = ROOT / "tests" / "data" / "golden_stream.txt"
SCRIPT = ROOT / "tests" / "js" / "state_stream.mjs"

JsonDict = dict[str, Any]


def _node() -> str:
    """The ``node`` executable; skips the test without one (fails it under ``CI=true``)."""
    found = shutil.which("node")
    if found is None:
        reason = "node not found on PATH: the browser's state.js cannot run"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {reason}", pytrace=False)
        pytest.skip(reason)
    return found


def _frames() -> list[JsonDict]:
    """The WebSocket frames of the golden stream's table (the records after them left out)."""
    lines = (json.loads(line) for line in STREAM.read_text(encoding="utf-8").splitlines() if line)
    return [line for line in lines if "type" in line and "payload" in line]


def _python_snapshots(frames: list[JsonDict]) -> list[JsonDict]:
    state = TableState()
    views = []
    for frame in frames:
        if frame["type"] == "notification":
            state.apply(frame["payload"]["event"], frame["payload"].get("context") or {})
        views.append(state.snapshot())
    return views


def _js_snapshots(frames: list[JsonDict], folder: Path) -> list[JsonDict]:
    path = folder / "frames.jsonl"
    path.write_text("".join(json.dumps(frame) + "\n" for frame in frames), encoding="utf-8")
    done = subprocess.run([_node(), str(SCRIPT), str(path)], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, f"node {SCRIPT.name} failed:\n{done.stderr}"
    return [json.loads(line) for line in done.stdout.splitlines()]


def _describe(frame: JsonDict) -> str:
    payload = frame["payload"]
    what = payload.get("event") or payload.get("action") or payload.get("code")
    return f"{frame['type']} {what}: {json.dumps(payload)[:300]}"


def _first_difference(frames: list[JsonDict], python: list[JsonDict], browser: list[JsonDict]) -> str | None:
    """Where the two clients first disagree, in words, or ``None``."""
    for step, (frame, ours, theirs) in enumerate(zip(frames, python, browser, strict=True)):
        for field in sorted(set(ours) | set(theirs)):
            if ours.get(field, "<missing>") != theirs.get(field, "<missing>"):
                return (f"after frame {step} ({_describe(frame)}) the clients disagree on {field!r}:\n"
                        f"  client/state.py: {ours.get(field, '<missing>')!r}\n"
                        f"  web/js/state.js: {theirs.get(field, '<missing>')!r}")
    return None


def _compare(frames: list[JsonDict], folder: Path) -> list[JsonDict]:
    """Drive both clients with the frames and assert they agree after each; the Python snapshots."""
    browser = _js_snapshots(frames, folder)
    python = _python_snapshots(frames)
    assert len(browser) == len(frames), f"node printed {len(browser)} snapshots for {len(frames)} frames"
    difference = _first_difference(frames, python, browser)
    assert difference is None, difference
    return python


def _notification(event: str, **context: Any) -> JsonDict:
    return {"type": "notification", "payload": {"event": event, "context": context}}


def _sent(frames: list[JsonDict]) -> list[JsonDict]:
    """The state the server sent, after each frame, in the snapshot's shape (its public fields,
    the seats that passed, the hand and the private cards): the joining message's states with
    every field a later message replaced. Plain dictionary updates: no rule is read here."""
    public: JsonDict = {}
    private: JsonDict = {}
    sent = []
    for frame in frames:
        payload = frame["payload"]
        context = payload.get("context") or {}
        if frame["type"] == "notification" and payload["event"] == "player_joined" and "session_id" in context:
            public, private = copy.deepcopy(context["public_state"]), copy.deepcopy(context["private_state"])
        elif frame["type"] == "notification" and payload["event"] == "private_state_changed":
            private = copy.deepcopy(context["private_state"])
        elif frame["type"] == "notification":
            public.update(context.get("public_delta") or {})
            private.update(context.get("private_delta") or {})
        view = {key: copy.deepcopy(public.get(key)) for key in _SNAPSHOT_PUBLIC}
        view.update(passed=sorted(public.get("passed") or []), hand_cards=sorted(private.get("hand_cards") or []),
                    may_announce=bool(private.get("may_announce")), bombs=private.get("bombs") or [])
        for key in ("given_schupf_cards", "received_schupf_cards"):
            view[key] = None if private.get(key) is None else sorted(private[key])
        sent.append(view)
    return sent


def test_both_clients_hold_the_state_the_server_sent_after_every_frame(tmp_path: Path) -> None:
    """Fed the same frames, the Python and the browser client hold the same snapshot after each
    one, and it is the state the server sent; the stream is a whole game (so every kind of
    notification in it was compared)."""
    frames = _frames()
    python = _compare(frames, tmp_path)
    for step, (frame, ours, sent) in enumerate(zip(frames, python, _sent(frames), strict=True)):
        for key, value in sent.items():
            assert ours[key] == value, f"after frame {step} ({_describe(frame)}): {key} is not as sent"
    assert python[-1]["phase"] == "game_over" and python[-1]["round_scores"], "the stream is not a whole game"


def test_without_the_state_sent_the_clients_change_nothing_of_the_game(tmp_path: Path) -> None:
    """The same frames without ``public_delta``, ``private_delta`` and ``private_state_changed``:
    both clients keep the state they joined with through the whole game (the revealed hands aside,
    which protocol.md has a seat track from the plays, R8.3): they work out no rule (Issue 36:
    no hand counts around the push, no trick points, no turn order, no places)."""
    frames = []
    for frame in _frames():
        payload = frame["payload"]
        if payload.get("event") == "private_state_changed":
            continue
        frame = copy.deepcopy(frame)
        for key in ("public_delta", "private_delta"):
            (frame["payload"].get("context") or {}).pop(key, None)
        frames.append(frame)
    python = _compare(frames, tmp_path)
    joined = {key: value for key, value in python[0].items() if key != "revealed_hands"}
    for step, ours in enumerate(python):
        assert {key: value for key, value in ours.items() if key != "revealed_hands"} == joined, f"frame {step}"


def test_both_clients_agree_on_the_events_the_golden_stream_lacks(tmp_path: Path) -> None:
    """Seats swapped, a person replaced by an agent, the own seat joined again and a game ended
    early (docs/server.md), which the golden game has none of: the clients agree here too."""
    joined = copy.deepcopy(_frames()[0])
    context = joined["payload"]["context"]
    context.update(player_index=1, player_name="Bea")
    context["public_state"]["player_names"] = ["Ann", "Bea", "Bot 3", "Bot 4"]
    context["private_state"]["player_index"] = 1
    rejoined = copy.deepcopy(joined)  # the own client again, after a reconnect during the game
    rejoined["payload"]["context"]["public_state"].update(is_running=True, phase="playing", current_turn_index=2)
    hands = [[[2, 1]], [], [[3, 2], [14, 4]], [[0, 0]]]
    frames = [joined,
              _notification("players_swapped", player_index_1=1, player_index_2=2),  # Bot 3 moves to seat 1
              _notification("player_joined", player_index=3, player_name="Cid"),
              _notification("game_started"),
              _notification("round_started", round_index=0),
              _notification("hands_revealed", hands=hands),
              _notification("player_played", turn=[2, [[3, 2]], ["single", 1, 3]], trick_points=0,
                            trick_owner_index=2, is_bomb=False, out_of_turn=False),
              rejoined,
              _notification("player_left", player_index=3, player_name="Cid", host_index=0, replaced_by_agent=True),
              _notification("game_ended_early", player_index=0, player_name="Ann"),
              _notification("player_left", player_index=0, player_name="Ann", host_index=None,
                            replaced_by_agent=True)]
    python = _compare(frames, tmp_path)
    assert python[1]["seat"] == 2 and python[-1]["phase"] == "game_over" and not python[-1]["is_running"]


def test_the_tracked_hand_is_the_one_each_request_carries() -> None:
    """At every request that carries the hand (the server's truth), the hand the client holds
    from the notifications alone is that hand: the state sent with the events is whole."""
    state = TableState()
    checked = 0
    for step, frame in enumerate(_frames()):
        payload = frame["payload"]
        if frame["type"] == "notification":
            state.apply(payload["event"], payload.get("context") or {})
        elif frame["type"] == "request" and "hand_cards" in payload["context"]:
            assert state.snapshot()["hand_cards"] == sorted(payload["context"]["hand_cards"]), f"frame {step}"
            checked += 1
    assert checked > 100, f"only {checked} requests carried the hand"


def test_the_node_tests_of_the_browser_state_pass() -> None:
    """``node --test tests/js/`` (the browser's State alone on the golden stream) passes."""
    done = subprocess.run([_node(), "--test", str(SCRIPT.parent)], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, f"node --test tests/js/ failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}"
