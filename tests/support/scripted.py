"""A player for tests: answers from a script, records every event it is sent."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from tests.support.players import Notice, notice_of
from tichu.core.cards import indices_of, parse_mask
from tichu.core.combos import PASS_PLAY, Play
from tichu.core.views import SeatView
from tichu.engine.events import Event
from tichu.engine.player import Player

#: A scripted answer: a value, or a function of the view and the options.
Answer = Any | Callable[..., Any]


class ScriptedPlayer(Player):
    """Plays a script of answers; where the script runs dry it passes or takes the first option.

    Plays are card labels (``"S5 B5"``, ``""`` to pass) or functions of the view and the
    legal plays; the push is three labels (to right, partner, left). Answers to Tichu and
    bomb offers are queues too: each offer takes the next answer (``None``: no bomb).
    A scripted play that is not legal is handed to the engine as it is, so tests can
    check that the engine refuses it.

    :ivar events: Every event the engine sent, in order, as the protocol names them.
    :ivar offers: Count of Tichu and bomb offers received (to check that agents are asked).
    """

    kind = "agent:scripted"
    listens = True

    def __init__(self, name: str = "Script", *, grand_tichu: bool = False, schupf: str | None = None,
                 plays: Sequence[Answer] = (), wishes: Sequence[int] = (), dragon: Sequence[int] = (),
                 tichu: Sequence[bool] = (), bombs: Sequence[str | None] = ()) -> None:
        super().__init__(name)
        self.grand = grand_tichu
        self.schupf_labels = schupf
        self.plays: deque[Answer] = deque(plays)
        self.wishes = deque(wishes)
        self.dragon = deque(dragon)
        self.tichu = deque(tichu)
        self.bombs = deque(bombs)
        self.events: list[Notice] = []
        self.offers = {"tichu": 0, "bomb": 0}

    def notify(self, event: Event) -> None:
        self.events.append(notice_of(event))

    def grand_tichu(self, view: SeatView) -> bool:
        return self.grand

    def schupf(self, view: SeatView) -> tuple[int, int, int]:
        if self.schupf_labels:
            right, partner, left = (parse_mask(label) for label in self.schupf_labels.split())
            return right, partner, left
        low = [1 << index for index in indices_of(view.hand)[:3]]
        return low[0], low[1], low[2]

    def play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        if not self.plays:
            return PASS_PLAY if PASS_PLAY in legal else legal[0]
        answer = self.plays.popleft()
        if callable(answer):
            return answer(view, legal)  # type: ignore[no-any-return]
        mask = parse_mask(answer)
        for play in legal:
            if play.cards == mask:
                return play
        return Play(mask, 0, 0, 0)  # not legal: the engine must refuse it

    def wish(self, view: SeatView, choices: Sequence[int]) -> int:
        return self.wishes.popleft() if self.wishes else choices[0]

    def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        return self.dragon.popleft() if self.dragon else recipients[0]

    def offer_tichu(self, view: SeatView) -> bool:
        self.offers["tichu"] += 1
        return self.tichu.popleft() if self.tichu else False

    def offer_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        self.offers["bomb"] += 1
        if not self.bombs:
            return None
        labels = self.bombs.popleft()
        if labels is None:
            return None
        mask = parse_mask(labels)
        return next((bomb for bomb in bombs if bomb.cards == mask), None)
