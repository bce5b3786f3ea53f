"""The layers of ``src/tichu`` point one way (docs/architecture.md, "Which layer may import which").

The rules core imports only itself; the engine the core; the agents the engine and the
core; records the core; the Arena, the learning environment, the game analysis and the
server everything below them (the server the analysis too); the protocol client everything
below the server plus the protocol's error codes (``server.codes``).
The wire stays at the edge: nothing below the server and the client imports ``aiohttp``,
and the core, engine and agents import no ``json`` either. Every import counts, also one
made only for type checking or inside a function; a folder that is no layer fails too.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

#: What each layer (a subpackage of ``tichu``, or the ``tichu.rules`` module) may import of ``tichu``.
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset({"core"}),
    "rules": frozenset({"core"}),
    "engine": frozenset({"core", "engine"}),
    "records": frozenset({"core", "records"}),
    "agents": frozenset({"core", "engine", "agents"}),
    "arena": frozenset({"core", "engine", "agents", "records", "arena"}),
    "learn": frozenset({"core", "engine", "agents", "records", "learn"}),
    "analysis": frozenset({"core", "engine", "agents", "records", "analysis"}),
    "server": frozenset({"core", "rules", "engine", "agents", "records", "analysis", "server"}),
    "client": frozenset({"core", "rules", "engine", "agents", "client", "server.codes"}),
    "accelerator": frozenset(),
    "cli": frozenset({"core", "rules", "engine", "agents", "records", "arena", "learn", "analysis", "server",
                      "client", "cli"}),
}
#: Outside libraries a layer must not import: the wire belongs to the server and the client.
FORBIDDEN: dict[str, frozenset[str]] = {
    "core": frozenset({"aiohttp", "json"}),
    "rules": frozenset({"aiohttp", "json"}),
    "engine": frozenset({"aiohttp", "json"}),
    "agents": frozenset({"aiohttp", "json"}),
    "records": frozenset({"aiohttp"}),
    "arena": frozenset({"aiohttp"}),
    "learn": frozenset({"aiohttp"}),
    "analysis": frozenset({"aiohttp"}),
    "accelerator": frozenset({"aiohttp", "json"}),
}


def _layer(module: str) -> str:
    """The layer of a ``tichu`` module name (``tichu.server.ws.protocol`` -> ``server``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _imports(path: Path, package: str) -> list[tuple[int, str]]:
    """Every module a file imports, with its line (relative imports resolved)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found += [(node.lineno, f"{base}.{alias.name}" if base.startswith("tichu") else base)
                      for alias in node.names]
    return found


def layer_violations(src: Path) -> list[str]:
    """Every import in ``src/tichu`` that goes the wrong way, as ``file:line: what``."""
    problems: list[str] = []
    for path in sorted((src / "tichu").rglob("*.py")):
        module = ".".join(path.relative_to(src).with_suffix("").parts)
        layer = _layer(module)
        if module == "tichu.__init__":
            continue
        if layer not in ALLOWED:
            problems.append(f"{path.relative_to(src)}: {layer!r} is no layer of docs/architecture.md")
            continue
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        for line, imported in _imports(path, package):
            where = f"{path.relative_to(src)}:{line}"
            top = imported.split(".")[0]
            if top in FORBIDDEN.get(layer, frozenset()):
                problems.append(f"{where}: the {layer} layer imports {top}")
            if top != "tichu":
                continue
            target = _layer(imported)
            wire = ".".join(imported.split(".")[1:3])
            if target and target not in ALLOWED[layer] and wire not in ALLOWED[layer]:
                problems.append(f"{where}: the {layer} layer imports {imported}")
    return problems


def test_layers_point_one_way() -> None:
    """No module of ``src/tichu`` imports a layer above its own, nor the wire below the server."""
    assert layer_violations(SRC) == []


def test_the_check_finds_a_wrong_way_import(tmp_path: Path) -> None:
    """A deliberately bad tree: the core importing the server, the engine importing aiohttp,
    an agent importing the Arena only for type checking, a relative import up a layer."""
    files = {
        "tichu/__init__.py": "",
        "tichu/core/__init__.py": "",
        "tichu/core/bad.py": "from tichu.server.ws.protocol import ErrorCode\n",
        "tichu/engine/__init__.py": "",
        "tichu/engine/bad.py": "def f():\n    import aiohttp\n",
        "tichu/agents/__init__.py": "",
        "tichu/agents/bad.py": ("from typing import TYPE_CHECKING\n"
                                "if TYPE_CHECKING:\n    from tichu.arena import stats\n"),
        "tichu/records/__init__.py": "",
        "tichu/records/bad.py": "from ..engine import engine\n",
        "tichu/client/__init__.py": "",
        "tichu/client/fine.py": "from tichu.server.codes import ErrorCode\nfrom tichu.server.tables import table\n",
        "tichu/analysis/__init__.py": "",
        "tichu/analysis/bad.py": "from tichu.server.tables import table\n",
        "tichu/extra.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert layer_violations(tmp_path) == [
        "tichu/agents/bad.py:3: the agents layer imports tichu.arena.stats",
        "tichu/analysis/bad.py:1: the analysis layer imports tichu.server.tables.table",
        "tichu/client/fine.py:2: the client layer imports tichu.server.tables.table",
        "tichu/core/bad.py:1: the core layer imports tichu.server.ws.protocol.ErrorCode",
        "tichu/engine/bad.py:2: the engine layer imports aiohttp",
        "tichu/extra.py: 'extra' is no layer of docs/architecture.md",
        "tichu/records/bad.py:1: the records layer imports tichu.engine.engine",
    ]
