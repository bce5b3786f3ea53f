"""One game, one flow: who is offered a Tichu call or a bomb, in which order, when the bomb
window waits and when a trick closes is decided in the rules core only (tichu.core.flow, R4.3,
R6.1). The engine, the agents, the learning code, the clients and the browser ask the core;
none of them tests the rules of calls and bombs out of turn itself.

The check is on the sources: the round's own tests of those rules appear nowhere outside the
core but where a seat's view is built from the core's answers.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The round's tests of calls and bombs out of turn (R6.1, R4.3), and the engine's old offers.
RULE_NAMES = re.compile(r"\b(can_announce|bombs_for|holds_bomb|has_played|bomb_window_open|playable_bombs|"
                        r"_offer_tichu|_offer_bombs|_window_wanted|rollout_full|bombs_against|_may_call_tichu|"
                        r"findBombs|bombsAgainst|_bombStrength)\b")
#: Where the name stands for the core's answer, with why.
ALLOWED = {
    "src/tichu/core/views.py": "a seat's private state carries the core's answers (may call, its bombs)",
    "src/tichu/agents/mc_branches.py": "fills the resumed round's cache of bombs once for its clones",
}
OUTSIDE_THE_CORE = ["src/tichu/engine", "src/tichu/agents", "src/tichu/learn", "src/tichu/client",
                    "src/tichu/arena", "src/tichu/server", "web/js"]


def test_no_rule_of_calls_bombs_or_the_window_outside_the_core_R4_3_R6_1() -> None:
    found = []
    for folder in OUTSIDE_THE_CORE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".js"):
                continue
            name = path.relative_to(ROOT).as_posix()
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if RULE_NAMES.search(line) and name not in ALLOWED:
                    found.append(f"{name}:{number}: {line.strip()}")
    assert not found, "rules of the flow outside tichu.core:\n" + "\n".join(found)


def test_the_check_finds_a_rule_where_it_does_not_belong() -> None:
    """The pattern catches the names it looks for (a check that cannot fail proves nothing)."""
    assert RULE_NAMES.search("if round_.can_announce(seat):")
    assert RULE_NAMES.search("const bombs = Lib.bombsAgainst(hand, turns);")
    assert not RULE_NAMES.search("state.can_call(seat)")
