"""Training data from game records: every decision as (observation, mask, action, outcome).

Records of the Arena, of the server and of Brettspielwelt (imported by
:mod:`tichu.records.bsw`) are replayed through the rules (:func:`tichu.records.record.replay`);
at each decision the deciding seat's :class:`~tichu.engine.views.SeatView` is taken (R8: the
observation holds only what that seat knew) and encoded like the environment's
(:mod:`tichu.agents.learning.observation`), with the mask of what the rules allowed and the
catalogue index of what was done (:mod:`tichu.agents.learning.actions`). docs/learning.md
describes the arrays.

Decisions a record shows: Grand Tichu for every seat (R2.1), the push as three cards (R2.3),
every play and pass (R4.1), each Tichu call where it was made, and the decline at a seat's
first play if it never called before it (R6.1), each bomb out of turn (R4.3; a bomb not
thrown leaves no trace), the wish (R5.1) and the Dragon gift (R4.5).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
import numpy.typing as npt

from tichu.agents.learning import actions
from tichu.agents.learning.actions import Choice
from tichu.agents.learning.observation import SIZE as OBSERVATION_SIZE
from tichu.agents.learning.observation import observe
from tichu.core.combos import Play
from tichu.core.round import ANNOUNCE_GRAND, Action, ActionKind, Round
from tichu.core.seats import team_of
from tichu.engine.views import SeatView, TableInfo, TablePhase
from tichu.records.record import ReplayObserver, replay


@dataclass
class _Table:
    """A replayed round as a table a seat's view is made from."""

    info: TableInfo
    round: Round


@dataclass
class _Sample:
    observation: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    action: int
    seat: int
    round_index: int


@dataclass
class TrainingData:
    """The decisions of some records, as arrays with one row per decision.

    :ivar observation: ``float32[N, 620]``, the deciding seat's observation.
    :ivar mask: ``int8[N, 737]``, the actions the rules allowed.
    :ivar action: ``int16[N]``, the action taken.
    :ivar outcome: ``float32[N]``, the round's points of the deciding seat's team minus the
        other team's (R7.3).
    :ivar game: ``int32[N]``, the record's position in the input.
    :ivar seat: ``int8[N]``, the deciding seat.
    """

    observation: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    action: npt.NDArray[np.int16]
    outcome: npt.NDArray[np.float32]
    game: npt.NDArray[np.int32]
    seat: npt.NDArray[np.int8]

    def save(self, path: str) -> None:
        """Write the arrays to a compressed ``.npz`` file (``numpy.load`` reads them back)."""
        np.savez_compressed(path, observation=self.observation, mask=self.mask, action=self.action,
                            outcome=self.outcome, game=self.game, seat=self.seat)

    def __len__(self) -> int:
        return len(self.action)


class RecordFault(ValueError):
    """A record does not replay through the rules (its fault is in the message)."""


@dataclass
class _Collector(ReplayObserver):
    """Takes the decisions of one record as the replay walks it."""

    names: list[str]
    samples: list[_Sample] = field(default_factory=list)
    total: list[int] = field(default_factory=lambda: [0, 0])
    _grand_views: list[SeatView] = field(default_factory=list)
    _push_views: list[SeatView] = field(default_factory=list)

    def _view(self, round_: Round, seat: int, phase: TablePhase, index: int) -> SeatView:
        info = TableInfo(player_names=list(self.names), phase=phase, is_running=True, round_index=index,
                         total=(self.total[0], self.total[1]))
        return SeatView.of(_Table(info, round_), seat)

    def _add(self, view: SeatView, choice: Choice, action: int, index: int, pushed: int = 0) -> None:
        if action not in choice.answers:
            raise RecordFault(f"round {index}: seat {view.seat} did what the rules did not allow "
                              f"(action {action})")
        self.samples.append(_Sample(observe(view, choice.question, pushed), choice.mask(), action, view.seat, index))

    def dealt(self, index: int, round_: Round) -> None:
        self._grand_views = [self._view(round_, seat, TablePhase.GRAND_TICHU, index) for seat in range(4)]

    def decided(self, index: int, round_: Round) -> None:
        for seat, view in enumerate(self._grand_views):
            called = round_.announcements[seat] == ANNOUNCE_GRAND
            self._add(view, actions.grand_tichu_choice(), actions.CALL if called else actions.NO, index)
        self._push_views = [self._view(round_, seat, TablePhase.SCHUPF, index) for seat in range(4)]

    def pushed(self, index: int, round_: Round) -> None:
        for seat, view in enumerate(self._push_views):
            given = round_.given[seat]
            assert given is not None
            chosen = 0
            for card in given:
                self._add(view, actions.push_choice(view.hand, chosen), actions.push_action(card.bit_length() - 1),
                          index, chosen)
                chosen |= card

    def before_event(self, index: int, event_index: int, round_: Round, action: Action) -> None:
        kind, seat, value = action
        view = self._view(round_, seat, TablePhase.PLAYING, index)
        if kind == ActionKind.TICHU:
            self._add(view, actions.tichu_choice(), actions.CALL, index)
        elif kind in (ActionKind.PLAY, ActionKind.PASS):
            if kind == ActionKind.PLAY and not round_.has_played[seat] and round_.can_announce(seat):
                self._add(view, actions.tichu_choice(), actions.NO, index)  # R6.1: it played without calling
            legal = round_.legal_plays()
            taken = actions.NO if kind == ActionKind.PASS else self._play_action(round_, value, legal)
            self._add(view, actions.play_choice(legal, view.hand), taken, index)
        elif kind == ActionKind.BOMB:
            bombs = round_.bombs_for(seat)
            self._add(view, actions.bomb_choice(bombs, view.hand), self._play_action(round_, value, bombs), index)
        elif kind == ActionKind.WISH:
            self._add(view, actions.wish_choice(round_.wish_choices()), actions.wish_action(value), index)
        elif kind == ActionKind.DRAGON:
            self._add(view, actions.dragon_choice(seat, round_.dragon_recipients()),
                      actions.dragon_action(seat, value), index)

    @staticmethod
    def _play_action(round_: Round, cards: int, options: Iterable[Play]) -> int:
        """The action of the option with these cards (-1 if none has them: a fault)."""
        return next((actions.play_action(play) for play in options if play.cards == cards), -1)

    def round_over(self, index: int, round_: Round, total: list[int]) -> None:
        self.total = list(total)


#: Rows of one batch of :func:`training_batches` (about 130 MB of arrays).
BATCH_ROWS = 100_000


def training_batches(records: Iterable[dict[str, Any]], rows: int = BATCH_ROWS) -> Iterator[TrainingData]:
    """Every decision of the records, in order, in batches of ``rows`` rows (the last may be
    shorter): memory stays bounded however many records come.

    :raises RecordFault: For a record that does not replay through the rules (the batches
        before it were yielded).
    """
    if rows < 1:
        raise ValueError("a batch has at least one row")
    pending: list[tuple[_Sample, int, float]] = []
    for game, record in enumerate(records):
        collector = _Collector([player.get("name", "") for player in record.get("players", [{}] * 4)])
        fault = replay(record, collector)
        if fault is not None:
            raise RecordFault(f"record {record.get('id')!r}: {fault}")
        scores = [round_data["score"] for round_data in record["rounds"]]
        for sample in collector.samples:
            team = team_of(sample.seat)
            points = scores[sample.round_index]
            pending.append((sample, game, float(points[team] - points[1 - team])))
            if len(pending) == rows:
                yield _arrays(pending)
                pending = []
    if pending:
        yield _arrays(pending)


def training_data(records: Iterable[dict[str, Any]]) -> TrainingData:
    """Every decision of the records, in order, in one batch (for inputs that fit in memory;
    :func:`training_batches` for any size).

    :raises RecordFault: For a record that does not replay through the rules.
    """
    batches = list(training_batches(records))
    if len(batches) <= 1:
        return batches[0] if batches else _arrays([])
    return TrainingData(**{field.name: np.concatenate([getattr(batch, field.name) for batch in batches])
                           for field in fields(TrainingData)})


def _arrays(rows: list[tuple[_Sample, int, float]]) -> TrainingData:
    count = len(rows)
    return TrainingData(
        observation=np.stack([sample.observation for sample, _, _ in rows]) if count
        else np.zeros((0, OBSERVATION_SIZE), dtype=np.float32),
        mask=np.stack([sample.mask for sample, _, _ in rows]) if count else np.zeros((0, actions.SIZE), dtype=np.int8),
        action=np.array([sample.action for sample, _, _ in rows], dtype=np.int16),
        outcome=np.array([outcome for _, _, outcome in rows], dtype=np.float32),
        game=np.array([game for _, game, _ in rows], dtype=np.int32),
        seat=np.array([sample.seat for sample, _, _ in rows], dtype=np.int8))
