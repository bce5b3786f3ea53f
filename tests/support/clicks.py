"""Playing a seat through the page by clicks, as a person would (the browser tests).

:class:`Player` answers every open request of a :class:`~tests.support.browser.Tab` by
clicking the page (the Grand Tichu step, the push zones, selecting cards and play, the wish
and Dragon dialogs); the page's :class:`~tests.support.browser.Wire` only tells it *when* to
act.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from tests.support.browser import Shots, Tab, Wire
from tests.support.live_server import POLL, LiveServer, Message

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
        (``grand-tichu``, ``push``, ``received``, ``play``, ``wish``, ``dragon``).
    """

    tab: Tab
    shots: Shots | None = None
    snaps: set[str] = field(default_factory=set)
    #: In the first push step, take the first pushed card back by clicking its zone (and push again).
    take_back: bool = False
    #: The rounds whose received cards the page showed in the hand (:meth:`see_received`).
    received_rounds: set[int] = field(default_factory=set)
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
        """Act on the open request, if any (and first see the received cards in the hand); whether
        something was done."""
        wire = self.tab.wire
        rounds = wire.count("start_playing")
        if rounds and rounds not in self.received_rounds and wire.count("round_started") == rounds:
            await self.see_received(rounds)
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

    async def see_received(self, rounds: int) -> None:
        """After the exchange: the three received cards are in the hand at once, without a click,
        outlined (``.card.received``), and the hand holds 14 cards."""
        tab = self.tab
        await tab.until(lambda: self._hand_is(14), "#hand shows 14 cards right after the exchange")
        await tab.until(lambda: self._count_is("#hand .card.received", 3),
                        "the three received cards are outlined in the hand (.received)")
        assert not await tab.visible("#push-zones"), "the push zones stay after the exchange"
        await self.snap("received")
        self.received_rounds.add(rounds)

    async def play(self, request: Message) -> None:
        """A turn: click the cards of a play (:func:`chosen_play`) in the hand, then ``#btn-play``;
        ``#btn-pass`` when the request offers nothing but passing. With nothing selected
        ``#btn-play`` is disabled (no proposal). A request the server cancels meanwhile (an
        agent's bomb) ends the turn without a click."""
        tab = self.tab
        context = request["context"]
        if not await self._wait(request, lambda: self._hand_is(len(context["hand_cards"])),
                                f"#hand shows the {len(context['hand_cards'])} cards of the play request"):
            return
        play = chosen_play(context)
        if play is None:
            if await self._wait(request, lambda: tab.enabled("#btn-pass"),
                                "#btn-pass enabled when only passing is legal"):
                assert not await tab.enabled("#btn-play"), \
                    f"#btn-play must be disabled ('no move') when only passing is legal; {await tab.describe()}"
                await tab.click("#btn-pass")
            return
        wanted = {card_label(card) for card in play}
        for stale in await tab.page.eval_on_selector_all("#hand .card.selected", "els => els.map(e => e.dataset.card)"):
            if stale not in wanted:
                await tab.click(f'#hand .card.selected[data-card="{stale}"]')
        await self.snap("play")
        if not await tab.count("#hand .card.selected"):
            assert not await tab.enabled("#btn-play"), f"#btn-play must wait for a selection; {await tab.describe()}"
        for card in play:
            if not self._is_open(request):
                return
            await tab.click(f'#hand .card[data-card="{card_label(card)}"]:not(.selected)')
        if not await self._wait(request, lambda: tab.enabled("#btn-play"),
                                f"#btn-play enabled once the cards of {play} are selected"):
            return
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


def round_over(wire: Wire) -> bool:
    """Stop condition: a ``round_over`` arrived."""
    return wire.count("round_over") > 0


async def start_alone(tab: Tab, server: LiveServer, name: str, table: str) -> None:
    """Log in as the only person at a new table (the host) and click ``#lobby-start``."""
    await tab.login(server.url, name, table)
    await tab.wait_view("view-lobby")
    await tab.until(lambda: tab.enabled("#lobby-start"), "#lobby-start enabled for the host")
    await tab.click("#lobby-start")
    await tab.wait_view("view-table")


def chosen_play(context: Message) -> list[list[int]] | None:
    """The play a test player makes on a ``play`` request: the server's best hinted play that is
    not a pass, else the longest, then lowest legal play; None when only passing is legal."""
    plays: list[list[list[int]]] = [play for play in context["legal_plays"] if play]
    if not plays:
        return None
    legal = {_cards_key(play): play for play in plays}
    for hinted in context.get("hint") or []:
        if hinted and _cards_key(hinted) in legal:
            return list(legal[_cards_key(hinted)])
    return min(plays, key=lambda play: (-len(play), sum(card[0] for card in play)))


def _cards_key(cards: list[list[int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((card[0], card[1]) for card in cards))


def game_over(wire: Wire) -> bool:
    """Stop condition: ``game_over`` arrived."""
    return wire.count("game_over") > 0

