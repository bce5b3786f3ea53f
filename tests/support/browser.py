"""Playwright helpers of the browser tests: page sizes, what a page sends and receives, screenshots.

Debian's Chromium (``/usr/bin/chromium``; Playwright cannot download browsers here) is driven
by ``playwright.async_api``. A :class:`Tab` is one page in its own browser context; it collects
console errors and uncaught exceptions and records every WebSocket frame the page sends and
receives (:class:`Wire`), so that a test knows *when* to act; it acts only by clicks and
typing. :class:`Shots` photographs each view at phone and desktop size into
``data/screenshots/``, each checked by :func:`layout_problems` (every visible element of the
active view inside the viewport, no two visible controls overlapping, nothing of the view
under the open side panel). :func:`words_broken_inside`, :func:`too_narrow` and
:func:`rendered_font_sizes` look closer at text: words wrapped inside themselves, cells too
narrow for their text, letters too small on the screen.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.support.extras import unavailable
from tests.support.live_server import POLL, WAIT, Message

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, ConsoleMessage, Page, WebSocket, WebSocketRoute

ROOT = Path(__file__).resolve().parents[2]
#: Debian's Chromium (``$TICHU_CHROMIUM`` overrides it).
CHROMIUM = Path(os.environ.get("TICHU_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
#: Where the screenshots go (``data/`` is git-ignored).
SCREENSHOTS = ROOT / "data" / "screenshots"
#: Milliseconds any single wait for the page may take (:data:`~tests.support.live_server.WAIT`).
WAIT_MS = int(WAIT * 1000)
#: Seconds a whole round played by clicks may take.
ROUND_WAIT = 60.0
#: Seconds a whole game played by clicks may take.
GAME_WAIT = 100.0


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
#: A phone held sideways and a full-HD screen: every screenshot is checked at these too.
PHONE_LANDSCAPE = Size("phone-landscape", 844, 390, mobile=True)
FULL_HD = Size("full-hd", 1920, 1080, mobile=False)
SHOT_SIZES = (PHONE, DESKTOP, PHONE_LANDSCAPE, FULL_HD)


def other_size(size: Size) -> Size:
    """The other of the two sizes."""
    return DESKTOP if size is PHONE else PHONE


# -- availability -------------------------------------------------------------------------------


def find_chromium() -> Path:
    """The Chromium executable, and Playwright importable; else skip (fail with ``CI=true``)."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        unavailable("the Python package playwright is not installed (pip install -e .[dev])")
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        unavailable(f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set $TICHU_CHROMIUM)")
    return CHROMIUM


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

    @classmethod
    async def open(cls, browser: Browser, size: Size, label: str) -> Tab:
        """A new page at ``size`` in its own browser context, collecting its console errors and frames."""
        context = await browser.new_context(**size.context_options())
        page = await context.new_page()
        tab = cls(label, size, context, page)
        page.on("console", tab._console)
        page.on("pageerror", tab._page_error)
        tab.wire.attach(page)
        page.set_default_timeout(WAIT_MS)
        return tab

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


# -- screenshots and layout ---------------------------------------------------------------------

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
    // a non-modal dialog (the side panel: chat, move log, score sheet) is checked with the view
    const side = el => el.getAttribute('aria-modal') === 'false';
    const open = [...document.querySelectorAll('[id^="dialog-"], dialog[open], .modal')].filter(
        el => outer(el) && shown(el));
    const dialogs = open.filter(el => !side(el));
    const panels = open.filter(side);
    const view = document.querySelector('section.active');
    const globals = [...document.body.querySelectorAll('*')].filter(
        el => !el.closest('section') && !el.closest('[id^="dialog-"], dialog, .modal'));
    const roots = dialogs.length ? dialogs : [view, ...panels].filter(Boolean);
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
    // the side panel must leave the view's controls free: none lies under it
    if (!dialogs.length) {
        const viewControls = view ? [...view.querySelectorAll(
            'button, input, select, textarea, a[href], [role="button"], .push-zone, .lobby-seat, .seat, .card, ' +
            '#hand, #round-result')].filter(shown) : [];
        for (const panel of panels) {
            const p = panel.getBoundingClientRect();
            for (const el of viewControls) {
                const q = el.getBoundingClientRect();
                const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
                const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
                if (w > slack && h > slack)
                    problems.push(`covered by the side panel: ${name(el)} ${box(q)} under ` +
                                  `${name(panel).split(' ')[0]} ${box(p)}`);
            }
        }
    }
    const clips = value => value !== 'visible';
    const ownText = el => [...el.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    const texts = within('*').filter(el => ownText(el) && !el.closest('.card, option, select'));
    for (const el of texts) {
        const style = getComputedStyle(el), r = el.getBoundingClientRect();
        if (clips(style.overflowY) && el.scrollHeight > el.clientHeight + 2)
            problems.push(`cut text (height): ${name(el)} ${box(r)} needs ${el.scrollHeight}px, ` +
                          `has ${el.clientHeight}px`);
        if (clips(style.overflowX) && style.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 2)
            problems.push(`cut text (width): ${name(el)} ${box(r)} needs ${el.scrollWidth}px, has ${el.clientWidth}px`);
        for (let box_ = el.parentElement; box_ && box_ !== document.body; box_ = box_.parentElement) {
            const st = getComputedStyle(box_);
            if (!clips(st.overflowX) && !clips(st.overflowY)) continue;
            const q = box_.getBoundingClientRect();
            if (r.left < q.left - slack || r.top < q.top - slack ||
                r.right > q.right + slack || r.bottom > q.bottom + slack)
                problems.push(`cut text (clipped by ${name(box_).split(' ')[0]}): ${name(el)} ${box(r)} in ${box(q)}`);
            break;
        }
    }
    // line boxes, not bounding boxes: two inline spans of one wrapped line do not overlap
    const lines = el => [...el.getClientRects()].filter(r => r.width > 0 && r.height > 0);
    const meets = (p, q) => Math.min(p.right, q.right) - Math.max(p.left, q.left) > 2 &&
        Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 2;
    for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
            const a = texts[i], b = texts[j];
            if (a.contains(b) || b.contains(a)) continue;
            if (lines(a).some(p => lines(b).some(q => meets(p, q))))
                problems.push(`text over text: ${name(a)} ${box(a.getBoundingClientRect())} and ` +
                              `${name(b)} ${box(b.getBoundingClientRect())}`);
        }
    }
    const labelled = el => (el.getAttribute('aria-label') || '').trim() || el.getAttribute('aria-labelledby') ||
        (el.textContent || '').trim() || (el.title || '').trim() || (el.labels && el.labels.length);
    for (const el of within('button, input, select, textarea, [role="button"]'))
        if (!labelled(el)) problems.push(`no accessible name: ${name(el)}`);
    return problems;
}"""


async def layout_problems(page: Page) -> list[str]:
    """Visible elements of the active view (or of the open dialog) that leave the screen (the
    page's viewport size), visible controls (buttons, inputs, push zones, seats, cards) that
    overlap each other, and cut text: an element whose own text needs more room than it has
    (cut off in height, or in width without an ellipsis), that its clipping container cuts,
    or that lies over another element's text (a toast over a seat's name, a "Pass" marker over
    the name); and controls without an accessible name (no text, ``aria-label``, label or title).

    Elements outside every ``section`` (``#lang-switch``, ``#mute``, ``#leave``, ``#toast``)
    count with the active view. Cards may overlap each other (a fanned hand, a trick), but
    not other controls. A non-modal dialog (``aria-modal="false"``: the side panel with the
    chat, the move log and the score sheet) is checked together with the view, and no control
    of the view (nor the hand or the round's result) may lie under it.
    """
    size = page.viewport_size
    assert size is not None
    problems: list[str] = await page.evaluate(_LAYOUT_JS, size)
    return problems


_NAME_JS = """(seat) => {
    const element = document.querySelector(seat), name = element && element.querySelector('.seat-name');
    if (!name) return [`no ${seat} .seat-name`];
    const s = element.getBoundingClientRect(), n = name.getBoundingClientRect(), problems = [];
    const text = name.textContent;
    if (name.scrollWidth > name.clientWidth + 1) problems.push(`"${text}" is shortened: needs ` +
        `${name.scrollWidth}px, has ${name.clientWidth}px`);
    if (name.scrollHeight > name.clientHeight + 1) problems.push(`"${text}" is cut in height`);
    if (n.left < s.left - 1 || n.right > s.right + 1 || n.top < s.top - 1 || n.bottom > s.bottom + 1)
        problems.push(`"${text}" (${Math.round(n.left)},${Math.round(n.top)}..${Math.round(n.right)},` +
            `${Math.round(n.bottom)}) leaves its seat (${Math.round(s.left)},${Math.round(s.top)}..` +
            `${Math.round(s.right)},${Math.round(s.bottom)})`);
    for (const badge of element.querySelectorAll('.seat-call, .seat-count, .seat-place, .seat-pass, .seat-away')) {
        const b = badge.getBoundingClientRect();
        if (!badge.textContent.trim() || !b.width) continue;
        if (Math.min(b.right, n.right) - Math.max(b.left, n.left) > 1 &&
            Math.min(b.bottom, n.bottom) - Math.max(b.top, n.top) > 1)
            problems.push(`"${badge.textContent.trim()}" lies on "${text}"`);
    }
    return problems;
}"""


async def name_problems(tab: Tab, seat: str) -> list[str]:
    """Why the seat's name is not shown whole: shortened, cut, outside the seat, or under a badge."""
    problems: list[str] = await tab.page.evaluate(_NAME_JS, seat)
    return [f"{tab.label} ({tab.size.name}): {problem}" for problem in problems]


_BROKEN_WORDS_JS = r"""(selector) => {
    const found = [];
    const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        [...el.classList].map(c => '.' + c).join('');
    for (const el of document.querySelectorAll(selector)) {
        if (!el.checkVisibility()) continue;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of node.data.matchAll(/\S+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
                // a line box of its own: no vertical overlap with the word's first piece
                const lines = rects.filter(r => r.top >= rects[0].bottom - 1 || r.bottom <= rects[0].top + 1);
                if (lines.length)
                    found.push(`"${match[0]}" in ${name(el)} "${el.textContent.trim().slice(0, 40)}" ` +
                               `is split over ${lines.length + 1} lines`);
            }
        }
    }
    return [...new Set(found)];
}"""


async def words_broken_inside(page: Page, selector: str) -> list[str]:
    """The words and numbers (runs of characters without white space) in the visible elements
    matching ``selector`` whose characters do not lie on one line: the text was wrapped inside
    the word ("R o u n d", "(10 0)"), not between words. Each word's line boxes are those of a
    DOM ``Range`` over its characters (``getClientRects``)."""
    found: list[str] = await page.evaluate(_BROKEN_WORDS_JS, selector)
    return found


_TOO_NARROW_JS = """(selector) => [...document.querySelectorAll(selector)]
    .filter(el => el.checkVisibility() && el.scrollWidth > el.clientWidth + 1)
    .map(el => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${el.textContent.trim().slice(0, 40)}" ` +
               `needs ${el.scrollWidth}px, has ${el.clientWidth}px` +
               (getComputedStyle(el).textOverflow === 'ellipsis' ? ' (shortened with "…")' : ''))"""


async def too_narrow(page: Page, selector: str) -> list[str]:
    """The visible elements matching ``selector`` (e.g. a table's cells) whose content is wider
    than they are: text that runs into the next cell, or is shortened with an ellipsis."""
    found: list[str] = await page.evaluate(_TOO_NARROW_JS, selector)
    return found


_FONT_PX_JS = """(selector) => {
    const sizes = [];
    for (const el of document.querySelectorAll(selector)) {
        if (!el.checkVisibility() || !el.offsetWidth) continue;
        const scale = el.getBoundingClientRect().width / el.offsetWidth;  // the stage's transform
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.data.trim() || !node.parentElement.checkVisibility()) continue;
            const px = parseFloat(getComputedStyle(node.parentElement).fontSize) * scale;
            sizes.push([node.data.trim().slice(0, 40), Math.round(px * 10) / 10]);
        }
    }
    return sizes;
}"""


async def rendered_font_sizes(page: Page, selector: str) -> list[tuple[str, float]]:
    """Each visible text in the elements matching ``selector`` with the size its letters have
    on the screen, in CSS pixels of the window: the font size times the stage's scale (the
    views are drawn in stage pixels and scaled into the window)."""
    sizes: list[list[Any]] = await page.evaluate(_FONT_PX_JS, selector)
    return [(str(text), float(px)) for text, px in sizes]


@dataclass
class Shots:
    """Screenshots of the views at both sizes, and the layout problems found in them."""

    folder: Path
    problems: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    async def take(self, tab: Tab, view: str, *, both: bool = True) -> None:
        """Write ``<view>-<size>.png`` for the page's size and (``both``) every other size of
        :data:`SHOT_SIZES` (phone, laptop, phone held sideways, full HD), checking the layout at
        each; the page gets its own size back."""
        sizes = [tab.size, *(size for size in SHOT_SIZES if size is not tab.size)] if both else [tab.size]
        for size in sizes:
            if size is not tab.size:
                await tab.page.set_viewport_size({"width": size.width, "height": size.height})
            await tab.next_frame()
            path = self.folder / f"{view}-{size.name}.png"
            write_whole(path, await tab.page.screenshot(animations="disabled"))
            self.files.append(path)
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


def write_whole(path: Path, data: bytes) -> None:
    """Write a file in one step (a temporary file, then a rename): test runs in parallel may
    photograph the same view at once, and no one must see a half-written file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def screenshots_since(start: float) -> list[str]:
    """The names of the screenshots written since ``start`` (``time.time()``), by any process."""
    if not SCREENSHOTS.is_dir():
        return []
    return sorted(path.name for path in SCREENSHOTS.glob("*.png") if path.stat().st_mtime >= start)


def notification(event: str, context: Message, public: Message | None = None, private: Message | None = None) -> str:
    """A protocol.md ``notification`` frame, as a scripted socket sends it to the page; ``public``
    and ``private`` are the fields of the state the event changed, which a server sends with it
    (``public_delta``, ``private_delta``: docs/server.md, "The state with every event", Issue 36)."""
    state = {**({"public_delta": public} if public else {}), **({"private_delta": private} if private else {})}
    return json.dumps({"type": "notification", "payload": {"event": event, "context": {**context, **state}}})


async def join_scripted_table(tab: Tab, url: str, name: str, joined: Message,
                              on_message: Callable[[str], None] | None = None) -> list[WebSocketRoute]:
    """Log in against a scripted socket instead of the server's: each connection the page opens
    is answered by ``player_joined`` with ``joined`` (protocol.md), and the test sends the rest
    through the last of the returned sockets; ``on_message`` sees what the page sends.

    :returns: The page's sockets so far (a reconnect adds one).
    """
    sockets: list[WebSocketRoute] = []

    def connect(socket: WebSocketRoute) -> None:
        sockets.append(socket)
        if on_message is not None:
            socket.on_message(lambda text: on_message(text if isinstance(text, str) else text.decode()))
        socket.send(notification("player_joined", joined))

    await tab.page.route_web_socket("**/ws*", connect)
    await tab.login(url, name, "mock")
    await tab.wait_view("view-table")
    return sockets
