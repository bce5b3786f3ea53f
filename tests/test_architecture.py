"""docs/architecture.md's "How a played card travels" matches the code (Issue 36).

The section follows one card from the click in the browser to the rules core and back to every
browser; each step names where it happens as ``path:name`` (a module's class, function or
method, or a browser module's class or method). This test resolves every such name, so a
rename or a move that the drawing does not follow fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
HEADING = "## How a played card travels"
REFERENCE = re.compile(r"`((?:src|web)/[\w/.-]+\.(?:py|js)):([\w.]+)`")


def _section() -> str:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert HEADING in text, f"docs/architecture.md has no section {HEADING!r}"
    return text.split(f"{HEADING}\n", 1)[1].split("\n## ", 1)[0]


def _python_names(path: Path) -> set[str]:
    """Every class, function and method of a module, methods as ``Class.method``."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            names |= {f"{node.name}.{item.name}" for item in node.body
                      if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return names


def _js_defines(path: Path, name: str) -> bool:
    """Whether a browser module defines ``name`` at its top level (a function, class or constant)."""
    text = path.read_text(encoding="utf-8")
    return re.search(rf"^(?:export\s+)?(?:async\s+)?(?:function|class|const|let)\s+{re.escape(name)}\b", text,
                     re.M) is not None


def references() -> list[tuple[str, str]]:
    """The ``(path, name)`` pairs the section names, in order."""
    return REFERENCE.findall(_section())


def unresolved(root: Path, found: list[tuple[str, str]]) -> list[str]:
    """The references that name no definition of the code under ``root``."""
    missing = []
    for relative, name in found:
        path = root / relative
        if not path.is_file():
            missing.append(f"{relative}: no such file")
        elif not (name in _python_names(path) if path.suffix == ".py" else _js_defines(path, name)):
            missing.append(f"{relative}:{name}: not defined there")
    return missing


def test_the_card_path_names_the_code_as_it_is() -> None:
    """Every step of the drawing names a definition that exists, and the path runs through
    the browser, the socket, the table, the engine, the core and back."""
    found = references()
    assert unresolved(ROOT, found) == []
    places = {relative.split("/")[1] if relative.startswith("web") else relative.split("/")[2]
              for relative, _ in found}
    assert {"js", "server", "engine", "core"} <= places


def test_a_stale_name_is_found(tmp_path: Path) -> None:
    """A drawing naming a method that was renamed, and a file that moved, fails."""
    module = tmp_path / "src" / "tichu" / "engine" / "engine.py"
    module.parent.mkdir(parents=True)
    module.write_text("class GameEngine:\n    async def _turn(self): ...\n", encoding="utf-8")
    script = tmp_path / "web" / "js" / "network.js"
    script.parent.mkdir(parents=True)
    script.write_text("function send(type, payload) {}\nexport const Network = Object.freeze({ send });\n",
                      encoding="utf-8")
    assert unresolved(tmp_path, [("src/tichu/engine/engine.py", "GameEngine._turn"),
                                 ("src/tichu/engine/engine.py", "GameEngine._tell_play"),
                                 ("web/js/network.js", "send"),
                                 ("web/js/network.js", "receive"),
                                 ("src/tichu/server/ws/peer.py", "Peer")]) == [
        "src/tichu/engine/engine.py:GameEngine._tell_play: not defined there",
        "web/js/network.js:receive: not defined there",
        "src/tichu/server/ws/peer.py: no such file",
    ]
