"""The layers of ``src/tichu`` point one way (docs/architecture.md, "Which layer may import which").

The rules core imports only itself; the engine the core; the agents the engine and the
core; records the core; the Arena, the learning environment, the game analysis and the
server everything below them (the server the analysis too); the protocol client everything
below the server plus the protocol's error codes (``server.codes``) and its message types
(``server.wire.incoming``, ``server.wire.outgoing``: one set of wire types for both sides).
A layer may be allowed a module of another by its dotted name below ``tichu``.
The wire stays at the edge: nothing below the server and the client imports ``aiohttp``,
and the core, engine and agents import no ``json`` either. Every import counts, also one
made only for type checking or inside a function; a folder that is no layer fails too.

Inside the server the parts point one way too (docs/architecture.md, "Which part of the
server may import which"): the guards and the workers know no table, socket or route; the
wire (the protocol's types and JSON, a client's connection and seat) knows none either; the
tables know the workers, the guards and the wire; the socket's handler and the HTTP routes use the tables;
``keys``, ``app`` and ``run`` put it all together. And the two tables in docs/architecture.md
are read and compared with :data:`ALLOWED`, :data:`FORBIDDEN` and :data:`SERVER_ALLOWED`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

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
    "client": frozenset({"core", "rules", "engine", "agents", "client", "server.codes", "server.wire.incoming",
                         "server.wire.outgoing"}),
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

_BELOW_TABLES = frozenset({"codes", "config", "guard", "workers"})
#: What each part of the server (a subpackage of ``tichu.server``, or a module beside them) may
#: import of ``tichu.server``: whole parts only, so no part reaches into one above it by a module's name.
SERVER_ALLOWED: dict[str, frozenset[str]] = {
    "codes": frozenset({"codes"}),
    "guard": frozenset({"guard"}),
    "config": frozenset({"config", "guard"}),
    "logs": frozenset({"logs", "config", "guard"}),
    "workers": frozenset({"workers", "codes", "config", "guard"}),
    "wire": _BELOW_TABLES | {"wire"},
    "tables": _BELOW_TABLES | {"tables", "wire"},
    "keys": _BELOW_TABLES | {"keys", "wire", "tables"},
    "ws": _BELOW_TABLES | {"ws", "wire", "tables", "keys"},
    "http": _BELOW_TABLES | {"http", "wire", "tables", "keys"},
    "app": _BELOW_TABLES | {"app", "wire", "tables", "keys", "ws", "http", "logs"},
    "run": _BELOW_TABLES | {"run", "wire", "tables", "keys", "ws", "http", "logs", "app"},
}


def _layer(module: str) -> str:
    """The layer of a ``tichu`` module name (``tichu.server.wire.protocol`` -> ``server``)."""
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


def _allowed(layer: str, imported: str) -> bool:
    """Whether a layer may import a ``tichu`` module: its layer, or a module above it by name
    (``tichu.server.wire.outgoing.PublicState`` is allowed by ``server.wire.outgoing``)."""
    parts = imported.split(".")[1:]
    return any(".".join(parts[:length]) in ALLOWED[layer] for length in range(1, len(parts) + 1))


def _server_part(module: str) -> str:
    """The part of a ``tichu.server`` module (``tichu.server.wire.protocol.ErrorCode`` -> ``ws``)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else ""


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
            if target and not _allowed(layer, imported):
                problems.append(f"{where}: the {layer} layer imports {imported}")
            elif layer == "server" and target == "server":
                problems += _server_violation(where, _server_part(module), imported)
    return problems


def _server_violation(where: str, part: str, imported: str) -> list[str]:
    """The import of a ``tichu.server`` module by a module of the server's ``part``, if it goes
    the wrong way (``[]`` if it does not)."""
    if part not in SERVER_ALLOWED:
        return [f"{where}: {part!r} is no part of the server in docs/architecture.md"]
    target = _server_part(imported)
    if target and target not in SERVER_ALLOWED[part]:
        return [f"{where}: the server's {part} imports {imported}"]
    return []


def _doc_table(heading: str) -> dict[str, list[set[str]]]:
    """A table of docs/architecture.md under ``heading``: per name in its first column (several
    names may share a row), the backticked names of each further column (``nothing`` is none)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[set[str]]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or cells[0] in {"layer", "part"} or set(cells[0]) <= {"-", " "}:
            continue
        columns = [set(re.findall(r"`([^`]+)`", cell)) for cell in cells[1:]]
        for name in re.findall(r"`([^`]+)`", cells[0]):
            rows[name] = columns
    return rows


def test_layers_point_one_way() -> None:
    """No module of ``src/tichu`` imports a layer above its own, nor the wire below the server."""
    assert layer_violations(SRC) == []


def test_the_check_finds_a_wrong_way_import(tmp_path: Path) -> None:
    """A deliberately bad tree: the core importing the server, the engine importing aiohttp,
    an agent importing the Arena only for type checking, a relative import up a layer."""
    files = {
        "tichu/__init__.py": "",
        "tichu/core/__init__.py": "",
        "tichu/core/bad.py": "from tichu.server.wire.protocol import ErrorCode\n",
        "tichu/engine/__init__.py": "",
        "tichu/engine/bad.py": "def f():\n    import aiohttp\n",
        "tichu/agents/__init__.py": "",
        "tichu/agents/bad.py": ("from typing import TYPE_CHECKING\n"
                                "if TYPE_CHECKING:\n    from tichu.arena import stats\n"),
        "tichu/records/__init__.py": "",
        "tichu/records/bad.py": "from ..engine import engine\n",
        "tichu/client/__init__.py": "",
        "tichu/client/fine.py": ("from tichu.server.codes import ErrorCode\nfrom tichu.server.tables import table\n"
                                 "from tichu.server.wire.outgoing import PublicState\n"
                                 "from tichu.server.wire import connection\n"),
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
        "tichu/client/fine.py:4: the client layer imports tichu.server.wire.connection",
        "tichu/core/bad.py:1: the core layer imports tichu.server.wire.protocol.ErrorCode",
        "tichu/engine/bad.py:2: the engine layer imports aiohttp",
        "tichu/extra.py: 'extra' is no layer of docs/architecture.md",
        "tichu/records/bad.py:1: the records layer imports tichu.engine.engine",
    ]


def test_the_server_parts_point_one_way() -> None:
    """Inside ``src/tichu/server`` every import goes the way :data:`SERVER_ALLOWED` says (the
    whole tree's check above includes it); no module of the server lies outside its parts."""
    server = [problem for problem in layer_violations(SRC) if "server" in problem]
    assert server == []
    parts = {_server_part(".".join(path.relative_to(SRC).with_suffix("").parts))
             for path in (SRC / "tichu" / "server").rglob("*.py") if path.name != "__init__.py" or
             path.parent.name != "server"}
    assert parts <= set(SERVER_ALLOWED)


def test_the_check_finds_a_wrong_way_import_in_the_server(tmp_path: Path) -> None:
    """A deliberately bad server: a worker importing a table, a table importing the socket's
    handler (a seat's wire is fine), the HTTP routes importing the WebSocket, a guard importing
    the keys, and a folder that is no part."""
    files = {
        "tichu/__init__.py": "",
        "tichu/server/__init__.py": "",
        "tichu/server/workers/bad.py": "from tichu.server.tables.table import Table\n",
        "tichu/server/tables/bad.py": ("from tichu.server.wire.client_link import ClientLink\n"
                                       "from tichu.server.ws.handler import websocket_handler\n"),
        "tichu/server/http/bad.py": "from ..ws import dispatch\n",
        "tichu/server/guard/bad.py": "def f():\n    from tichu.server.keys import STORE\n",
        "tichu/server/ws/fine.py": "from tichu.server.tables.table import Table\nfrom tichu.server.keys import STORE\n",
        "tichu/server/extra/odd.py": "from tichu.server.codes import ErrorCode\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert layer_violations(tmp_path) == [
        "tichu/server/extra/odd.py:1: 'extra' is no part of the server in docs/architecture.md",
        "tichu/server/guard/bad.py:2: the server's guard imports tichu.server.keys.STORE",
        "tichu/server/http/bad.py:1: the server's http imports tichu.server.ws.dispatch",
        "tichu/server/tables/bad.py:2: the server's tables imports tichu.server.ws.handler.websocket_handler",
        "tichu/server/workers/bad.py:1: the server's workers imports tichu.server.tables.table.Table",
    ]


def test_the_architecture_tables_match_the_check() -> None:
    """docs/architecture.md's two tables say what :data:`ALLOWED`, :data:`FORBIDDEN` and
    :data:`SERVER_ALLOWED` say (a layer or part imports itself without saying so)."""
    layers = _doc_table("Which layer may import which")
    assert set(layers) == set(ALLOWED)
    for layer, (may, must_not) in layers.items():
        assert (layer, may | {layer}) == (layer, set(ALLOWED[layer] | {layer}))
        assert (layer, must_not) == (layer, set(FORBIDDEN.get(layer, frozenset())))
    parts = _doc_table("Which part of the server may import which")
    assert set(parts) == set(SERVER_ALLOWED)
    for part, (may, *_) in parts.items():
        assert (part, may | {part}) == (part, set(SERVER_ALLOWED[part] | {part}))


def _module_graph(src: Path) -> dict[str, set[str]]:
    """Per module of ``src/tichu`` (a package by its own name), the modules of ``tichu`` it
    imports; every import counts, also one for type checking or inside a function."""
    paths = {}
    for path in sorted((src / "tichu").rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        paths[".".join(parts[:-1] if path.name == "__init__.py" else parts)] = path
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        found = set()
        for _, imported in _imports(path, package):
            target = imported
            while target and target not in paths:
                target = target.rpartition(".")[0]
            if target.startswith("tichu") and target != module:
                found.add(target)
        graph[module] = found
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of a graph: each set of two or more nodes that reach one another, sorted
    (Tarjan's strongly connected components, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None and target in graph:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if target is not None:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    circles.append(sorted(members))
    return sorted(circles)


def test_no_module_imports_one_that_imports_it_back() -> None:
    """No circle of imports between the modules of ``src/tichu`` (Issue 36: one was hidden under
    ``TYPE_CHECKING``, which counts here too)."""
    assert _circles(_module_graph(SRC)) == []


def test_the_circle_check_finds_a_circle(tmp_path: Path) -> None:
    """A deliberately bad tree: two modules of the client tied by an import for type checking,
    and three of the core in a ring of relative imports; a package's face closes no circle."""
    files = {
        "tichu/__init__.py": "",
        "tichu/client/__init__.py": "from tichu.client.bots import Brain\n",
        "tichu/client/bots.py": ("from typing import TYPE_CHECKING\n"
                                 "if TYPE_CHECKING:\n    from .connection import Client\n"),
        "tichu/client/connection.py": "from tichu.client.bots import Brain\n",
        "tichu/core/__init__.py": "",
        "tichu/core/a.py": "from . import b\n",
        "tichu/core/b.py": "from .c import f\n",
        "tichu/core/c.py": "def f():\n    from tichu.core.a import g\n",
        "tichu/core/d.py": "from tichu.core import a\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert _circles(_module_graph(tmp_path)) == [
        ["tichu.client.bots", "tichu.client.connection"],
        ["tichu.core.a", "tichu.core.b", "tichu.core.c"],
    ]


def test_the_tables_allow_no_circle() -> None:
    """What :data:`ALLOWED` and :data:`SERVER_ALLOWED` allow has no circle: no two layers or
    parts may import each other, by name or through others (Issue 36)."""
    layers = {layer: {allowed.split(".")[0] for allowed in names} - {layer} for layer, names in ALLOWED.items()}
    parts = {part: set(names) - {part} for part, names in SERVER_ALLOWED.items()}
    assert _circles(layers) == []
    assert _circles(parts) == []
