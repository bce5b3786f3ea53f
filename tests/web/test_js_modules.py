"""Issue 36, finding 4: the browser's modules name the protocol through one catalogue
(``web/js/protocol.js``) that lists exactly the server's names, and ESLint refuses a notification's
name written as a bare string.

No browser: the catalogue is read as text; the lint runs ESLint (Node, with the
versions of package-lock.json), skipped without it unless ``CI=true``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tichu.core.views import TablePhase
from tichu.server.wire.incoming import CLIENT_TYPES
from tichu.server.wire.outgoing import NOTIFICATIONS

ROOT = Path(__file__).resolve().parents[2]
WEB_JS = ROOT / "web" / "js"
CATALOGUE = WEB_JS / "protocol.js"


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
