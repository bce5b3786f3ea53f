"""Fixtures of the browser tests of ``web/``: the real server, headless Chromium, pages, screenshots.

The server runs in the test's event loop (:mod:`tests.support.live_server`) and serves
``web/``. Debian's Chromium is driven by ``playwright.async_api`` and launched once per
session (per xdist worker); every test runs in the session's event loop
(``pytestmark = pytest.mark.asyncio(loop_scope="session")``). The helpers live in
:mod:`tests.support.browser` and :mod:`tests.support.clicks`.

Without Chromium (or Playwright) the browser tests are skipped with the reason; with
``CI=true`` their absence fails them (like ``shared_dir`` in ``tests/conftest.py``).

What the fixtures give a test:

- :func:`start_server` / :func:`server`: a live server (zero bomb window, a small agent
  delay so that the page can follow, short grace period, a tmp data folder, a small target
  score, a seed), with the agents seeded;
- :func:`open_page`: a page at phone (390x844, touch) or desktop (1366x768) size
  (:class:`~tests.support.browser.Tab`); the test fails at teardown when any page logged a
  console error or threw an uncaught exception;
- :func:`shots`: screenshots of each view at both sizes into ``data/screenshots/``, each
  checked for layout problems.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from tests.support.browser import LAUNCH_ARGS, SCREENSHOTS, OpenPage, Shots, Size, Tab, find_chromium
from tests.support.live_server import BROWSER_TEST_SETTINGS, LiveServer, Servers, StartServer

if TYPE_CHECKING:
    from playwright.async_api import Browser


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    """The Chromium executable, and Playwright importable; else skip (fail with ``CI=true``)."""
    return find_chromium()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser(chromium_path: Path) -> AsyncIterator[Browser]:
    """Headless Chromium, launched once for the session."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(chromium_path), args=LAUNCH_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def start_server(tmp_path: Path) -> AsyncIterator[StartServer]:
    """Start live servers: ``await start_server(**settings)``; all stopped at the end.

    Defaults (:data:`~tests.support.live_server.BROWSER_TEST_SETTINGS`): random agents, seeded
    (fast; the server's default is Monte Carlo), no bomb window, agents pause 0.05 s (so that
    the page can follow), grace period 3 s (longer than a page reload), target score 200, seed
    7, hints on, data in ``tmp_path``.
    """
    servers = Servers(LiveServer, tmp_path, BROWSER_TEST_SETTINGS)
    yield servers.start
    await servers.close()


@pytest_asyncio.fixture(loop_scope="session")
async def server(start_server: StartServer) -> LiveServer:
    """A live server with the default test settings."""
    return await start_server()


@pytest_asyncio.fixture(loop_scope="session")
async def open_page(browser: Browser) -> AsyncIterator[OpenPage]:
    """Open pages: ``await open_page(PHONE or DESKTOP, label)``, each in its own browser context.

    At teardown the test fails if any page logged a console error or threw an uncaught
    exception (the list names each).
    """
    tabs: list[Tab] = []

    async def open_(size: Size, label: str) -> Tab:
        tab = await Tab.open(browser, size, label)
        tabs.append(tab)
        return tab

    yield open_
    for tab in tabs:
        await tab.context.close()
    errors = [f"{tab.label} ({tab.size.name}): {error}" for tab in tabs for error in tab.console_errors]
    assert not errors, "console errors or uncaught exceptions in the page:\n" + "\n".join(errors)


@pytest.fixture(scope="session")
def screenshot_folder() -> Path:
    """``data/screenshots/`` (each run overwrites the files of the views it reaches)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def shots(screenshot_folder: Path) -> Shots:
    """Screenshots into ``data/screenshots/`` with layout checks (call :meth:`Shots.assert_layout`)."""
    return Shots(screenshot_folder)
