"""Issue 36, findings 3 and 4: the browser's modules name the protocol through one catalogue
(``web/js/protocol.js``) that lists exactly the server's names, ESLint refuses a notification's
name written as a bare string, and the modules of ``web/js`` import each other without a circle.

No browser: the catalogue and the imports are read as text; the lint runs ESLint (Node, with the
versions of package-lock.json), skipped without it unless ``CI=true``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path, PurePosixPath

import pytest

from tichu.core.views import TablePhase
from tichu.server.wire.incoming import CLIENT_TYPES
from tichu.server.wire.outgoing import NOTIFICATIONS

ROOT = Path(__file__).resolve().parents[2]
WEB_JS = ROOT / "web" / "js"
CATALOGUE = WEB_JS / "protocol.js"
#: ``import ... from './x.js';`` and ``export ... from './x.js';`` (also over several lines).
IMPORT = re.compile(r"^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)';", re.M | re.S)


def catalogue(name: str) -> dict[str, str]:
    """The entries ``KEY: 'value'`` of one frozen object of the catalogue."""
    text = CATALOGUE.read_text(encoding="utf-8")
    body = re.search(r"export const " + name + r" = Object\.freeze\(\{(.*?)\}\);", text, re.S)
    assert body is not None, f"web/js/protocol.js exports no {name}"
    return dict(re.findall(r"^\s*([A-Z_]+): '([a-z_]+)',?$", body.group(1), re.M))


@pytest.mark.parametrize(("name", "server"), [
    ("Notifications", set(NOTIFICATIONS)), ("Commands", set(CLIENT_TYPES)),
    ("Phases", {phase.value for phase in TablePhase})])
def test_the_catalogue_lists_exactly_the_servers_names(name: str, server: set[str]) -> None:
    """Each object of web/js/protocol.js holds the server's names (``NOTIFICATIONS``,
    ``CLIENT_TYPES``, ``TablePhase``), no more and no fewer, each under its own name in capitals."""
    entries = catalogue(name)
    assert set(entries.values()) == server, (
        f"{name}: missing {sorted(server - set(entries.values()))}, unknown {sorted(set(entries.values()) - server)}")
    assert all(key == value.upper() for key, value in entries.items()), entries


def _eslint(source: str, filename: str) -> subprocess.CompletedProcess[str]:
    """ESLint's verdict on a source as if it were ``filename`` in the checkout (skips without Node's ESLint)."""
    npx = shutil.which("npx")
    if npx is None or not (ROOT / "node_modules" / ".bin" / "eslint").exists():
        reason = "ESLint is not installed (npm ci)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {reason}", pytrace=False)
        pytest.skip(reason)
    return subprocess.run([npx, "--no-install", "eslint", "--stdin", "--stdin-filename", filename],
                          input=source, capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_the_lint_refuses_a_bare_notification_name() -> None:
    """A module that compares an event with ``'trick_taken'`` fails the lint, and passes once it
    names it through the catalogue."""
    bare = "export function taken(event) { return event === 'trick_taken'; }\n"
    refused = _eslint(bare, "web/js/probe.js")
    assert refused.returncode == 1 and "Notifications.X (web/js/protocol.js)" in refused.stdout, refused
    named = ("import { Notifications } from './protocol.js';\n"
             "export function taken(event) { return event === Notifications.TRICK_TAKEN; }\n")
    allowed = _eslint(named, "web/js/probe.js")
    assert allowed.returncode == 0, allowed


def imports() -> dict[PurePosixPath, list[PurePosixPath]]:
    """Each module of web/js (relative to it) and the modules it imports."""
    graph: dict[PurePosixPath, list[PurePosixPath]] = {}
    for path in sorted(WEB_JS.rglob("*.js")):
        module = PurePosixPath(path.relative_to(WEB_JS).as_posix())
        targets = IMPORT.findall(path.read_text(encoding="utf-8"))
        graph[module] = [PurePosixPath(os.path.normpath(module.parent / target)) for target in targets]
    return graph


def circles(graph: dict[PurePosixPath, list[PurePosixPath]]) -> list[list[PurePosixPath]]:
    """The import circles of a module graph, each once, as the modules along it (a depth-first search)."""
    found: list[list[PurePosixPath]] = []
    done: set[PurePosixPath] = set()

    def visit(module: PurePosixPath, path: list[PurePosixPath]) -> None:
        if module in path:
            found.append(path[path.index(module):] + [module])
            return
        if module in done:
            return
        for target in graph.get(module, []):
            visit(target, path + [module])
        done.add(module)

    for module in graph:
        visit(module, [])
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    """The check below can fail: two modules that import each other are a circle."""
    a, b, c = PurePosixPath("a.js"), PurePosixPath("b.js"), PurePosixPath("c.js")
    assert circles({a: [b], b: [a], c: [a]}) == [[a, b, a]]
    assert circles({a: [b], b: [c], c: []}) == []


def test_the_browser_modules_import_each_other_without_a_circle() -> None:
    """Issue 36, finding 3: no module of web/js imports, through others, itself (the AnalysisView
    and the ReplayView did: the record's card labels now have their own module)."""
    graph = imports()
    assert PurePosixPath("main.js") in graph and graph[PurePosixPath("main.js")], "no imports read from web/js/main.js"
    missing = {str(target) for targets in graph.values() for target in targets} - {str(module) for module in graph}
    assert not missing, f"imports of modules that do not exist: {sorted(missing)}"
    assert circles(graph) == [], "import circles in web/js: " + "; ".join(
        " -> ".join(str(module) for module in circle) for circle in circles(graph))
