"""Browser tests of ``web/``: the real server, headless Chromium, and what the page sends and receives.

The server runs in the test's event loop (``create_app`` on ``web.AppRunner`` and
``web.TCPSite(runner, "127.0.0.1", 0)``, as in ``tests/server/conftest.py``) and serves
``web/``. Debian's Chromium (``/usr/bin/chromium``; Playwright cannot download browsers
here) is driven by ``playwright.async_api`` and launched once per session; every test runs
in the session's event loop (``pytestmark = pytest.mark.asyncio(loop_scope="session")``).

Without Chromium (or Playwright) the browser tests are skipped with the reason; with
``CI=true`` their absence fails them (like ``shared_dir`` in ``tests/conftest.py``).

What the fixtures give a test:

- :func:`start_server` / :func:`server`: a live server (zero bomb window, a small agent
  delay so that the page can follow, short grace period, a tmp data folder, a small target
  score, a seed), with the agents seeded;
- :func:`open_page`: a page at phone (390x844, touch) or desktop (1366x768) size that
  collects console errors and uncaught exceptions (the test fails at teardown when there
  are any) and records every WebSocket frame the page sends and receives (:class:`Wire`),
  so that a test knows *when* to act; it acts only by clicks and typing;
- :func:`shots`: screenshots of each view at both sizes into ``data/screenshots/``, each
  checked by :func:`layout_problems` (every visible element of the active view inside the
  viewport, no two visible controls overlapping).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import itertools
import json
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import pytest_asyncio
from aiohttp import web

from tichu.agents.agent import Agent
from tichu.agents.registry import make_agent
from tichu.records.record import read_records
from tichu.server import table as table_module
from tichu.server.app import create_app
from tichu.server.config import Settings

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, ConsoleMessage, Page, WebSocket

Message = dict[str, Any]

ROOT = Path(__file__).resolve().parents[2]
#: Debian's Chromium (``$TICHU_CHROMIUM`` overrides it).
CHROMIUM = Path(os.environ.get("TICHU_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
#: Where the screenshots go (``data/`` is git-ignored).
SCREENSHOTS = ROOT / "data" / "screenshots"
#: Milliseconds any single wait for the page may take.
WAIT_MS = 10_000
#: Seconds any single wait for the page or the server may take.
WAIT = WAIT_MS / 1000
#: Seconds a whole round played by clicks may take.
ROUND_WAIT = 60.0
#: Seconds a whole game played by clicks may take.
GAME_WAIT = 100.0
#: Seconds between two looks at the page or the wire while waiting.
POLL = 0.02


@dataclass(frozen=True)
class Size:
    """A browser size: the viewport and whether it emulates a phone."""

    name: str
    width: int
    height: int
    mobile: bool

    def context_options(self) -> dict[str, Any]:
        """Options for ``browser.new_context``."""
        options: dict[str, Any] = {"viewport": {"width": self.width, "height": self.height},
                                   "locale": "en-US", "device_scale_factor": 1}
        if self.mobile:
            options.update(is_mobile=True, has_touch=True)
        return options


PHONE = Size("phone", 390, 844, mobile=True)
DESKTOP = Size("desktop", 1366, 768, mobile=False)


def other_size(size: Size) -> Size:
    """The other of the two sizes."""
    return DESKTOP if size is PHONE else PHONE


# -- availability -------------------------------------------------------------------------------


def _unavailable(reason: str) -> None:
    """Skip, or fail under ``CI=true`` (the browser tests must run in CI)."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    """The Chromium executable, and Playwright importable; else skip (fail with ``CI=true``)."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        _unavailable("the Python package playwright is not installed (pip install -e .[dev])")
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        _unavailable(f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set $TICHU_CHROMIUM)")
    return CHROMIUM


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


# -- the server ---------------------------------------------------------------------------------


@dataclass
class LiveServer:
    """A running server that serves ``web/``.

    :ivar settings: Its settings.
    :ivar port: The port it listens on.
    """

    settings: Settings
    runner: web.AppRunner
    port: int

    @property
    def url(self) -> str:
        """The page's address."""
        return f"http://127.0.0.1:{self.port}/"

    def records(self, table: str, file: str = "games.jsonl") -> list[Message]:
        """The game records written for a table (``data_dir/records/<file>``)."""
        path = self.settings.data_dir / "records" / file
        if not path.is_file():
            return []
        return [record for record in read_records(path) if record.get("table") == table]


StartServer = Callable[..., Awaitable[LiveServer]]


@pytest.fixture(autouse=True)
def seeded_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Agents get seeds 1, 2, 3, ... in creation order, so that a test's games repeat."""
    counter = itertools.count(1)

    def make_seeded_agent(kind: str, *, name: str | None = None, seed: int | None = None) -> Agent:
        return make_agent(kind, name=name, seed=next(counter) if seed is None else seed)

    monkeypatch.setattr(table_module, "make_agent", make_seeded_agent)


@pytest_asyncio.fixture(loop_scope="session")
async def start_server(tmp_path: Path) -> AsyncIterator[StartServer]:
    """Start live servers: ``await start_server(**settings)``; all stopped at the end.

    Defaults: random agents (fast; the server's default is Monte Carlo), no bomb window, agents
    pause 0.05 s (so that the page can follow), grace period 3 s (longer than a page reload),
    target score 200, seed 7, hints on, data in ``tmp_path``.
    """
    servers: list[LiveServer] = []

    async def start(**overrides: Any) -> LiveServer:
        values: dict[str, Any] = {"port": 0, "bomb_window": 0.0, "agent_delay": 0.05, "grace_period": 3.0,
                                  "data_dir": tmp_path / f"data{len(servers)}", "target_score": 200, "seed": 7,
                                  "agent": "random"}
        values.update(overrides)
        settings = Settings(**values)
        runner = web.AppRunner(create_app(settings), shutdown_timeout=2.0)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        server = LiveServer(settings, runner, runner.addresses[0][1])
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.runner.cleanup()


@pytest_asyncio.fixture(loop_scope="session")
async def server(start_server: StartServer) -> LiveServer:
    """A live server with the default test settings."""
    return await start_server()


# -- what the page sends and receives -----------------------------------------------------------


@dataclass
class Frame:
    """One WebSocket text frame: ``"in"`` (from the server) or ``"out"`` (from the page)."""

    direction: str
    message: Message
    socket: int


class Wire:
    """Every WebSocket frame a page sent or received, in order, across reloads.

    The tests read it only to know when to act (a request is open, the round is over); they
    never send anything themselves.
    """

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self.urls: list[str] = []

    def attach(self, page: Page) -> None:
        """Record the frames of every WebSocket the page opens."""
        page.on("websocket", self._socket)

    def _socket(self, socket: WebSocket) -> None:
        index = len(self.urls)
        self.urls.append(socket.url)
        socket.on("framereceived", lambda payload: self._frame("in", payload, index))
        socket.on("framesent", lambda payload: self._frame("out", payload, index))

    def _frame(self, direction: str, payload: str | bytes, index: int) -> None:
        try:
            message = json.loads(payload)
        except (ValueError, TypeError):
            message = {"type": "<not JSON>", "payload": repr(payload)[:200]}
        if not isinstance(message, dict):
            message = {"type": "<not an object>", "payload": message}
        self.frames.append(Frame(direction, message, index))

    # -- reading --------------------------------------------------------------------------------

    def received(self) -> Iterator[Message]:
        """Every message from the server."""
        return (frame.message for frame in self.frames if frame.direction == "in")

    def sent(self) -> Iterator[Message]:
        """Every message the page sent."""
        return (frame.message for frame in self.frames if frame.direction == "out")

    def events(self, event: str) -> list[Message]:
        """The contexts of every notification ``event`` received."""
        return [m["payload"]["context"] for m in self.received()
                if m.get("type") == "notification" and m.get("payload", {}).get("event") == event]

    def count(self, event: str) -> int:
        """How many notifications ``event`` arrived."""
        return len(self.events(event))

    def joined(self) -> list[Message]:
        """The own ``player_joined`` contexts (with ``session_id``), one per (re)connection."""
        return [context for context in self.events("player_joined") if "session_id" in context]

    @property
    def seat(self) -> int | None:
        """The own seat, from the last own ``player_joined`` and later ``players_swapped``."""
        seat: int | None = None
        for message in self.received():
            if message.get("type") != "notification":
                continue
            event, context = message["payload"]["event"], message["payload"]["context"]
            if event == "player_joined" and "session_id" in context:
                seat = context["player_index"]
            elif event == "players_swapped" and seat is not None:
                pair = (context["player_index_1"], context["player_index_2"])
                if seat in pair:
                    seat = pair[1] if seat == pair[0] else pair[0]
        return seat

    def open_request(self) -> Message | None:
        """The payload of the request the page must answer now, or ``None``.

        A request is closed by the page's ``response`` with its id (unless the server refused
        it), by ``request_cancelled``, by ``ACTION_TIMEOUT``, or by a newer request.
        """
        open_: Message | None = None
        answered: str | None = None
        for frame in self.frames:
            message, kind = frame.message, frame.message.get("type")
            payload = message.get("payload") or {}
            if frame.direction == "out":
                if kind == "response" and open_ is not None and payload.get("request_id") == open_["request_id"]:
                    answered = open_["request_id"]
                continue
            if kind == "request":
                open_, answered = payload, None
            elif kind == "notification":
                event, context = payload["event"], payload["context"]
                if event == "player_joined" and "session_id" in context:
                    open_, answered = context.get("pending_request"), None
                elif event == "request_cancelled" and open_ is not None and \
                        context.get("request_id") == open_["request_id"]:
                    open_ = None
            elif kind == "error":
                if payload.get("code") == 309:
                    open_ = None
                elif answered is not None and payload.get("code") != 310:
                    answered = None  # refused: the request stays open (protocol.md)
        if open_ is None or open_["request_id"] == answered:
            return None
        return open_

    def answered(self, request_id: str) -> bool:
        """Whether the page sent a ``response`` to this request."""
        return any(m.get("type") == "response" and (m.get("payload") or {}).get("request_id") == request_id
                   for m in self.sent())

    def errors(self) -> list[Message]:
        """The payloads of every ``error`` the server sent the page."""
        return [m.get("payload") or {} for m in self.received() if m.get("type") == "error"]

    def unexplained_errors(self) -> list[Message]:
        """Errors other than ``REQUEST_OBSOLETE`` for a request the server had cancelled meanwhile
        (a bomb can cancel a request while the answer is on its way: a race, not a client bug)."""
        cancelled = {context["request_id"] for context in self.events("request_cancelled")}
        return [error for error in self.errors()
                if not (error.get("code") == 310 and error.get("context", {}).get("request_id") in cancelled)]

    def tail(self, count: int = 8) -> str:
        """The last frames, for failure messages."""
        return "\n".join(f"  {frame.direction} {json.dumps(frame.message)[:300]}" for frame in self.frames[-count:])


# -- pages --------------------------------------------------------------------------------------


@dataclass
class Tab:
    """One browser page (own context, so own ``localStorage``) with what it logged and sent.

    :ivar console_errors: Console messages of type ``error`` and uncaught exceptions.
    """

    label: str
    size: Size
    context: BrowserContext
    page: Page
    wire: Wire = field(default_factory=Wire)
    console_errors: list[str] = field(default_factory=list)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            where = message.location
            self.console_errors.append(f"console.error: {message.text} "
                                       f"({where.get('url', '')}:{where.get('lineNumber', '')})")

    def _page_error(self, error: Exception) -> None:
        self.console_errors.append(f"uncaught: {error}")

    # -- small helpers ----------------------------------------------------------------------------

    async def visible(self, selector: str) -> bool:
        """Whether the first element matching ``selector`` is visible now."""
        return await self.page.locator(selector).first.is_visible()

    async def enabled(self, selector: str) -> bool:
        """Whether the first element matching ``selector`` is visible and has no ``disabled``."""
        element = self.page.locator(selector).first
        return await element.is_visible() and await element.is_enabled()

    async def count(self, selector: str) -> int:
        """How many elements match ``selector``."""
        return await self.page.locator(selector).count()

    async def texts(self, selector: str) -> list[str]:
        """The text of every element matching ``selector``."""
        return [text.strip() for text in await self.page.locator(selector).all_text_contents()]

    async def hand(self) -> list[str]:
        """The ``data-card`` of every card in the own hand (``#hand .card``), sorted."""
        cards = await self.page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
        return sorted(str(card) for card in cards)

    async def active_view(self) -> str | None:
        """The id of the visible view (``section.active``)."""
        found = await self.page.evaluate("() => [...document.querySelectorAll('section.active')].map(s => s.id)")
        return ",".join(found) or None

    async def wait_view(self, view: str, timeout: float = WAIT) -> None:
        """Wait until ``#view`` is the active view (and not hidden)."""
        try:
            await self.page.wait_for_selector(f"section#{view}.active:not([hidden])", timeout=timeout * 1000)
        except Exception:
            raise AssertionError(f"{self.label}: #{view} did not become the active view within {timeout} s "
                                 f"(active: {await self.active_view()}); {await self.describe()}") from None

    async def describe(self) -> str:
        """The page as the tests see it, for failure messages: view, buttons, dialogs, hand, toast."""
        try:
            info = await self.page.evaluate("""() => {
                const shown = el => !!el && el.checkVisibility({opacityProperty: true, visibilityProperty: true});
                const button = id => { const b = document.getElementById(id);
                    return b ? `${id}:${shown(b) ? 'shown' : 'hidden'}${b.disabled ? ',disabled' : ''}`
                               + `"${(b.textContent || '').trim()}"` : `${id}:missing`; };
                return {
                    view: [...document.querySelectorAll('section.active')].map(s => s.id).join(','),
                    buttons: ['btn-pass', 'btn-tichu', 'btn-play', 'btn-bomb', 'btn-hint', 'lobby-start'].map(button),
                    dialogs: [...document.querySelectorAll('[id^="dialog-"]')].filter(
                        d => shown(d) && !d.parentElement.closest('[id^="dialog-"]')).map(d => d.id),
                    hand: [...document.querySelectorAll('#hand .card')].map(
                        c => c.dataset.card + (c.classList.contains('selected') ? '*' : '')).join(' '),
                    zones: [...document.querySelectorAll('.push-zone')].map(
                        z => `${z.dataset.target}:${z.querySelectorAll('.card').length}`).join(' '),
                    toast: shown(document.getElementById('toast')) ?
                        document.getElementById('toast').textContent.trim() : '',
                    result: shown(document.getElementById('round-result')),
                    state: (() => { const S = window.Tichu && window.Tichu.State;  // looking only
                        return S ? {phase: (S.public || {}).phase, seat: S.playerIndex,
                                    request: S.request ? S.request.action : null} : null; })(),
                };
            }""")
        except Exception as error:  # the page may be gone
            return f"[page not readable: {error}]"
        return (f"page {self.label}: {json.dumps(info)}\n wire seat {self.wire.seat}, "
                f"open request {(self.wire.open_request() or {}).get('action')}; last frames:\n{self.wire.tail()}")

    async def click(self, selector: str, timeout: float = WAIT) -> None:
        """Click the first element matching ``selector`` once it is visible, enabled and not covered."""
        try:
            await self.page.locator(selector).first.click(timeout=timeout * 1000)
        except Exception as error:
            raise AssertionError(f"{self.label}: could not click {selector} within {timeout} s "
                                 f"({_why(error)}); {await self.describe()}") from None

    async def until(self, predicate: Callable[[], Awaitable[bool] | bool], what: str, timeout: float = WAIT) -> None:
        """Poll ``predicate`` (plain or async) until it holds; fail with ``what`` and the page's description."""
        deadline = time.monotonic() + timeout
        while not await _holds(predicate):
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.label}: {what} (not within {timeout} s); {await self.describe()}")
            await asyncio.sleep(POLL)

    async def login(self, url: str, name: str, table: str) -> None:
        """Open the page, type the name and the table, click ``#login-submit``."""
        await self.page.goto(url)
        await self.wait_view("view-login")
        await self.page.locator("#login-name").fill(name)
        await self.page.locator("#login-table").fill(table)
        await self.click("#login-submit")

    async def next_frame(self) -> None:
        """Wait two animation frames (the views render in ``requestAnimationFrame``)."""
        await self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _why(error: Exception) -> str:
    """The gist of a Playwright error: its first line and the last distinct lines of its call log."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    log = list(dict.fromkeys(line for line in lines[1:] if "intercepts pointer events" in line or
                             "not enabled" in line or "not visible" in line))
    return "; ".join([lines[0], *log[-3:]])


async def _holds(predicate: Callable[[], Awaitable[bool] | bool]) -> bool:
    value = predicate()
    return bool(await value) if inspect.isawaitable(value) else bool(value)


OpenPage = Callable[[Size, str], Awaitable[Tab]]


@pytest_asyncio.fixture(loop_scope="session")
async def open_page(browser: Browser) -> AsyncIterator[OpenPage]:
    """Open pages: ``await open_page(PHONE or DESKTOP, label)``, each in its own browser context.

    At teardown the test fails if any page logged a console error or threw an uncaught
    exception (the list names each).
    """
    tabs: list[Tab] = []

    async def open_(size: Size, label: str) -> Tab:
        context = await browser.new_context(**size.context_options())
        page = await context.new_page()
        tab = Tab(label, size, context, page)
        page.on("console", tab._console)
        page.on("pageerror", tab._page_error)
        tab.wire.attach(page)
        page.set_default_timeout(WAIT_MS)
        tabs.append(tab)
        return tab

    yield open_
    for tab in tabs:
        await tab.context.close()
    errors = [f"{tab.label} ({tab.size.name}): {error}" for tab in tabs for error in tab.console_errors]
    assert not errors, "console errors or uncaught exceptions in the page:\n" + "\n".join(errors)


# -- screenshots and layout ---------------------------------------------------------------------

#: Every file the session wrote into :data:`SCREENSHOTS`.
WRITTEN: list[Path] = []

_LAYOUT_JS = """(screen) => {
    const vw = screen.width, vh = screen.height, slack = 1;
    const shown = el => el.checkVisibility({opacityProperty: true, visibilityProperty: true}) &&
        !el.closest('[hidden]') && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().height > 0;
    const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        [...el.classList].map(c => '.' + c).join('') +
        Object.entries(el.dataset).map(([k, v]) => `[data-${k}="${v}"]`).join('') +
        ((el.textContent || '').trim() ? ` "${el.textContent.trim().slice(0, 20)}"` : '');
    const box = r => `(${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)})`;
    const outer = el => !el.parentElement || !el.parentElement.closest('[id^="dialog-"], dialog, .modal');
    const dialogs = [...document.querySelectorAll('[id^="dialog-"], dialog[open], .modal')].filter(
        el => outer(el) && shown(el));
    const view = document.querySelector('section.active');
    const globals = [...document.body.querySelectorAll('*')].filter(
        el => !el.closest('section') && !el.closest('[id^="dialog-"], dialog, .modal'));
    const roots = dialogs.length ? dialogs : [view].filter(Boolean);
    const within = selector => {
        const found = new Set();
        for (const root of roots) {
            if (root.matches(selector)) found.add(root);
            root.querySelectorAll(selector).forEach(el => found.add(el));
        }
        if (!dialogs.length) globals.filter(el => el.matches(selector)).forEach(el => found.add(el));
        return [...found].filter(shown);
    };
    const problems = [];
    if (!view) problems.push('no active view (section.active)');
    if (Math.abs(window.innerWidth - vw) > slack || Math.abs(window.innerHeight - vh) > slack)
        problems.push(`the page's layout viewport is ${window.innerWidth}x${window.innerHeight}, not the ` +
                      `${vw}x${vh} screen (content wider or taller than the screen; window.innerWidth is wrong)`);
    const items = within('button, input, select, textarea, a[href], [role="button"], .card, .seat, ' +
                         '.lobby-seat, .push-zone, [id^="dialog-"], dialog, #toast, #round-result, ' +
                         '#trick, #hand, #wish, table');
    for (const el of items) {
        const r = el.getBoundingClientRect();
        if (r.left < -slack || r.top < -slack || r.right > vw + slack || r.bottom > vh + slack)
            problems.push(`off-screen: ${name(el)} ${box(r)} in a ${vw}x${vh} viewport`);
    }
    const controls = within('button, input, select, textarea, a[href], [role="button"], .push-zone, ' +
                            '.lobby-seat, .seat, .card');
    const isCard = el => el.matches('.card');
    for (let i = 0; i < controls.length; i++) {
        for (let j = i + 1; j < controls.length; j++) {
            const a = controls[i], b = controls[j];
            if (a.contains(b) || b.contains(a) || (isCard(a) && isCard(b))) continue;
            const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
            const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
            const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
            if (w > slack && h > slack)
                problems.push(`overlap: ${name(a)} ${box(p)} and ${name(b)} ${box(q)}`);
        }
    }
    return problems;
}"""


async def layout_problems(page: Page) -> list[str]:
    """Visible elements of the active view (or of the open dialog) that leave the screen (the
    page's viewport size), and visible controls (buttons, inputs, push zones, seats, cards)
    that overlap each other.

    Elements outside every ``section`` (``#lang-switch``, ``#mute``, ``#leave``, ``#toast``)
    count with the active view. Cards may overlap each other (a fanned hand, a trick), but
    not other controls.
    """
    size = page.viewport_size
    assert size is not None
    problems: list[str] = await page.evaluate(_LAYOUT_JS, size)
    return problems


@dataclass
class Shots:
    """Screenshots of the views at both sizes, and the layout problems found in them."""

    folder: Path
    problems: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    async def take(self, tab: Tab, view: str, *, both: bool = True) -> None:
        """Write ``<view>-<size>.png`` for the page's size and (``both``) the other size, checking the
        layout at each; the page gets its own size back."""
        sizes = [tab.size, other_size(tab.size)] if both else [tab.size]
        for size in sizes:
            if size is not tab.size:
                await tab.page.set_viewport_size({"width": size.width, "height": size.height})
            await tab.next_frame()
            path = self.folder / f"{view}-{size.name}.png"
            await tab.page.screenshot(path=str(path), animations="disabled")
            self.files.append(path)
            WRITTEN.append(path)
            self.problems.extend(f"{view} at {size.name} {size.width}x{size.height}: {problem}"
                                 for problem in await layout_problems(tab.page))
        if len(sizes) > 1:
            await tab.page.set_viewport_size({"width": tab.size.width, "height": tab.size.height})
            await tab.next_frame()

    def assert_layout(self) -> None:
        """Fail with every layout problem found (off-screen elements, overlapping controls)."""
        problems = list(dict.fromkeys(self.problems))
        shown = problems[:40] + ([f"... and {len(problems) - 40} more"] if len(problems) > 40 else [])
        assert not problems, f"{len(problems)} layout problems (screenshots in {self.folder}):\n" + "\n".join(shown)


@pytest.fixture(scope="session")
def screenshot_folder() -> Path:
    """``data/screenshots/`` (each run overwrites the files of the views it reaches)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def shots(screenshot_folder: Path) -> Shots:
    """Screenshots into ``data/screenshots/`` with layout checks (call :meth:`Shots.assert_layout`)."""
    return Shots(screenshot_folder)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Name the screenshot folder and its files in the test output."""
    if WRITTEN:
        names = sorted({path.name for path in WRITTEN})
        terminalreporter.write_sep("-", f"web screenshots: {len(names)} files in {SCREENSHOTS}")
        terminalreporter.write_line(" ".join(names))


# -- playing by clicks --------------------------------------------------------------------------

#: Where the three pushed cards go, in the order of ``given_schupf_cards``.
PUSH_TARGETS = ("right", "partner", "left")
#: The hand cards the player pushes: the first plain card (it keeps the Dog, the Mah Jong, the
#: Dragon and the Phoenix, so that a seed can bring the wish and Dragon dialogs).
PUSHABLE = ('#hand .card:not(.selected):not([data-card^="0-"]):not([data-card^="1-"])'
            ':not([data-card^="15-"]):not([data-card^="16-"])')


def card_label(card: list[int]) -> str:
    """A protocol card ``[value, suit]`` as the page's ``data-card`` (``"14-4"``)."""
    return f"{card[0]}-{card[1]}"


@dataclass
class Player:
    """Plays one seat of a page by clicks, step by step, as the wire says when to act.

    :ivar snaps: View names to photograph once, when the game first reaches them
        (``grand-tichu``, ``push``, ``pick-up``, ``play``, ``wish``, ``dragon``).
    """

    tab: Tab
    shots: Shots | None = None
    snaps: set[str] = field(default_factory=set)
    #: In the first push step, take the first pushed card back by clicking its zone (and push again).
    take_back: bool = False
    picked_up_rounds: set[int] = field(default_factory=set)
    actions: list[str] = field(default_factory=list)

    async def snap(self, name: str) -> None:
        """Screenshot ``table-<name>`` once per test (both sizes)."""
        if self.shots is not None and name in self.snaps:
            self.snaps.discard(name)
            await self.shots.take(self.tab, f"table-{name}")

    async def play_until(self, stop: Callable[[Wire], bool], timeout: float) -> None:
        """Answer every request by clicks until ``stop(wire)`` holds."""
        deadline = time.monotonic() + timeout
        while not stop(self.tab.wire):
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.tab.label}: the game did not get there within {timeout} s; "
                                     f"{await self.tab.describe()}")
            errors = self.tab.wire.unexplained_errors()
            assert not errors, f"{self.tab.label}: the server refused what the page sent: {errors}; " \
                               f"{await self.tab.describe()}"
            if not await self.step():
                await asyncio.sleep(POLL)

    async def step(self) -> bool:
        """Act on the open request, if any (and pick up pushed cards); whether something was done."""
        wire = self.tab.wire
        rounds = wire.count("start_playing")
        if rounds and rounds not in self.picked_up_rounds and wire.count("round_started") == rounds:
            await self.pick_up(rounds)
            return True
        request = wire.open_request()
        if request is None:
            return False
        action = request["action"]
        self.actions.append(action)
        if action == "announce_grand_tichu":
            await self.tab.until(lambda: self.tab.enabled("#btn-pass"), "#btn-pass (continue) enabled "
                                 "in the Grand Tichu step")
            await self.snap("grand-tichu")
            await self.tab.click("#btn-pass")
        elif action == "schupf":
            await self.push(request)
        elif action == "play":
            await self.play(request)
        elif action == "wish":
            await self.tab.until(lambda: self.tab.visible("#dialog-wish"), "#dialog-wish shown for a wish request")
            await self.snap("wish")
            await self.tab.click("#dialog-wish button[data-wish]:not([disabled])")
        elif action == "give_dragon_away":
            await self.tab.until(lambda: self.tab.visible("#dialog-dragon"),
                                 "#dialog-dragon shown for a give_dragon_away request")
            await self.snap("dragon")
            await self.tab.click("#dialog-dragon button[data-recipient]:not([disabled])")
        else:
            raise AssertionError(f"unknown request {request}")
        await self.answered(request)
        return True

    async def answered(self, request: Message) -> None:
        """Wait until the page sent the response (or the server closed the request otherwise)."""
        def done() -> bool:
            return self.tab.wire.answered(request["request_id"]) or not self._is_open(request)

        await self.tab.until(done, f"the page sent no response to the {request['action']} request after the clicks")

    async def push(self, request: Message) -> None:
        """Push three cards: click a hand card, then a push zone, three times; then ``#btn-play``."""
        tab = self.tab
        await tab.until(lambda: self._hand_is(len(request["context"]["hand_cards"])),
                        f"#hand shows the {len(request['context']['hand_cards'])} cards of the push step")
        await self.snap("push")
        for number, target in enumerate(PUSH_TARGETS, start=1):
            zone = f'.push-zone[data-target="{target}"]'
            await self._push_one(zone, number)
            if self.take_back:
                self.take_back = False
                await tab.click(zone)
                await tab.until(functools.partial(self._zones_hold, number - 1), f"the card in {zone} goes back to "
                                "the hand on a click")
                await tab.until(lambda: self._hand_is(len(request["context"]["hand_cards"])),
                                "the hand shows the card taken back from the push zone")
                await self._push_one(zone, number)
        await tab.until(lambda: tab.enabled("#btn-play"), "#btn-play (push) enabled with three cards in the zones")
        await tab.click("#btn-play")

    async def _push_one(self, zone: str, number: int) -> None:
        """Click a plain hand card, then ``zone``; the zones then hold ``number`` cards."""
        tab = self.tab
        await tab.click(PUSHABLE)
        await tab.until(lambda: self._count_is("#hand .card.selected", 1), "one selected hand card (.selected) "
                        "after clicking a hand card in the push step")
        await tab.click(zone)
        await tab.until(functools.partial(self._zones_hold, number), f"{number} card(s) in the push zones after "
                        f"clicking {zone}")

    async def pick_up(self, rounds: int) -> None:
        """After the exchange: ``#btn-play`` (pick up) until the hand shows all 14 cards."""
        tab = self.tab
        await tab.until(lambda: tab.enabled("#btn-play"), "#btn-play (pick up) enabled after the exchange")
        await self.snap("pick-up")
        await tab.click("#btn-play")
        self.picked_up_rounds.add(rounds)
        await tab.until(lambda: self._hand_is(14), "#hand shows 14 cards after the pick-up")

    async def play(self, request: Message) -> None:
        """A turn: ``#btn-play`` (select: the hint) then ``#btn-play`` (play); ``#btn-pass`` when the
        request offers nothing but passing. A request the server cancels meanwhile (an agent's
        bomb) ends the turn without a click."""
        tab = self.tab
        context = request["context"]
        if not await self._wait(request, lambda: self._hand_is(len(context["hand_cards"])),
                                f"#hand shows the {len(context['hand_cards'])} cards of the play request"):
            return
        plays = [play for play in context["legal_plays"] if play]
        if not plays:
            if await self._wait(request, lambda: tab.enabled("#btn-pass"),
                                "#btn-pass enabled when only passing is legal"):
                assert not await tab.enabled("#btn-play"), \
                    f"#btn-play must be disabled ('no move') when only passing is legal; {await tab.describe()}"
                await tab.click("#btn-pass")
            return
        if not await self._wait(request, lambda: tab.enabled("#btn-play"),
                                "#btn-play (select) enabled at the own turn"):
            return
        if await tab.count("#hand .card.selected") == 0:
            await self.snap("play")
            await tab.click("#btn-play")
            if not await self._wait(request, self._selected_some, "#btn-play (select) selected hand cards"):
                return
        if not await self._wait(request, lambda: tab.enabled("#btn-play"),
                                "#btn-play (play) enabled after the select"):
            return
        selected = sorted(card for card in await tab.page.eval_on_selector_all(
            "#hand .card.selected", "els => els.map(e => e.dataset.card)"))
        legal = [sorted(card_label(card) for card in play) for play in plays]
        assert selected in legal, f"{tab.label}: the select hint chose {selected}, not a legal play {legal[:6]}..."
        await tab.click("#btn-play")

    def _is_open(self, request: Message) -> bool:
        current = self.tab.wire.open_request()
        return current is not None and current["request_id"] == request["request_id"]

    async def _wait(self, request: Message, predicate: Callable[[], Awaitable[bool]], what: str) -> bool:
        """Wait for ``predicate`` while ``request`` is open; whether it still is."""
        async def ready_or_closed() -> bool:
            return not self._is_open(request) or await predicate()

        await self.tab.until(ready_or_closed, what)
        return self._is_open(request)

    async def _hand_is(self, count: int) -> bool:
        return await self.tab.count("#hand .card") == count

    async def _count_is(self, selector: str, count: int) -> bool:
        return await self.tab.count(selector) == count

    async def _zones_hold(self, count: int) -> bool:
        return await self.tab.count(".push-zone .card") == count

    async def _selected_some(self) -> bool:
        return await self.tab.count("#hand .card.selected") > 0


def round_over(wire: Wire) -> bool:
    """Stop condition: a ``round_over`` arrived."""
    return wire.count("round_over") > 0


def game_over(wire: Wire) -> bool:
    """Stop condition: ``game_over`` arrived."""
    return wire.count("game_over") > 0


async def wait_for_records(server: LiveServer, table: str, count: int = 1) -> list[Message]:
    """Poll until ``count`` game records of ``table`` are written; return them."""
    deadline = time.monotonic() + WAIT
    while len(records := server.records(table)) < count:
        assert time.monotonic() < deadline, f"no game record for table {table!r} within {WAIT} s"
        await asyncio.sleep(POLL)
    return records
