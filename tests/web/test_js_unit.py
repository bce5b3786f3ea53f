"""The client's JavaScript unit tests (``web/tests.html`` and its small runner) pass in headless Chromium."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.browser import DESKTOP, WAIT_MS, OpenPage
from tests.support.live_server import StartServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: What the unit tests must cover (the issue), and how the runner's report names it.
AREAS = {"state updates": r"\bState\b", "the select hint": r"(?i)\bhint\b",
         "rendering helpers": r"CardBuilder|TableControls|render"}


async def test_javascript_unit_tests_pass(start_server: StartServer, open_page: OpenPage) -> None:
    """``/tests.html``, served by the real server in development mode, runs the unit tests and
    publishes ``window.TEST_RESULTS``: at least one test passed and none failed (the failures are
    printed), with no console error (a CSP violation is one); the report names tests of the state
    updates, the "select" hint and the rendering helpers."""
    server = await start_server(dev_mode=True)
    tab = await open_page(DESKTOP, "tests.html")
    response = await tab.page.goto(server.url + "tests.html")
    assert response is not None and response.ok, f"GET /tests.html: {response and response.status}"
    await tab.page.wait_for_function(
        "() => window.TEST_RESULTS != null", timeout=WAIT_MS)
    results = await tab.page.evaluate("() => JSON.parse(JSON.stringify(window.TEST_RESULTS))")
    assert isinstance(results, dict), f"window.TEST_RESULTS is not an object: {results!r}"
    passed, failed = results.get("passed"), results.get("failed")
    print(f"\nweb/tests.html: {passed} passed, {failed} failed")
    failures = results.get("failures") or []
    for failure in failures:
        print("  FAILED", json.dumps(failure))
    assert isinstance(passed, int) and isinstance(failed, int), f"TEST_RESULTS needs passed and failed: {results}"
    assert failed == 0, f"{failed} JavaScript unit test(s) failed: {json.dumps(failures, indent=1)}"
    assert passed > 0, "no JavaScript unit test ran"
    report = await tab.page.locator("body").inner_text()
    for area, pattern in AREAS.items():
        assert re.search(pattern, report), f"no unit test of {area} in the report of /tests.html (/{pattern}/)"
