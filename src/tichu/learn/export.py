"""Training data from game records: every decision as (observation, mask, action, outcome).

Records of the Arena, of the server and of Brettspielwelt (imported by
:mod:`tichu.records.bsw`) are checked by replaying them through the rules
(:func:`tichu.records.record.replay`), then walked through the game's flow
(:class:`~tichu.core.flow.GameState`, every seat offered its calls and bombs as an agent is):
at each decision the deciding seat's :class:`~tichu.core.views.SeatView` is taken (R8: the
observation holds only what that seat knew) and encoded like the environment's
(:mod:`tichu.agents.learning.observation`), with the mask of what the rules allowed and the
catalogue index of what was done (:mod:`tichu.agents.learning.actions`). docs/learning.md
describes the arrays.

Decisions: Grand Tichu for every seat (R2.1), the push as three cards (R2.3), every play and
pass (R4.1), the wish (R5.1) and the Dragon gift (R4.5), and every offer the flow makes of a
Tichu call (R6.1) and of a bomb out of turn (R4.3): the call or the bomb where the record
shows one, a decline for every other. A call or bomb the flow did not offer at that moment
(a person acts at any time) is taken as made where it stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt

from tichu.agents.learning import actions
from tichu.agents.learning.actions import Choice
from tichu.agents.learning.observation import SIZE as OBSERVATION_SIZE
from tichu.agents.learning.observation import observe
from tichu.core.cards import parse_mask
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Action, ActionKind, Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.core.seats import team_of
from tichu.core.views import SeatView, TableInfo, TablePhase, view_of
from tichu.records.record import event_action, replay

#: The decision at which each kind of a round's events is made (records.md).
_ASKED = {ActionKind.TICHU: Decision.TICHU, ActionKind.BOMB: Decision.BOMB, ActionKind.PLAY: Decision.PLAY,
          ActionKind.PASS: Decision.PLAY, ActionKind.WISH: Decision.WISH, ActionKind.DRAGON: Decision.DRAGON}


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


class _RoundWalk:
    """One record round walked through the game's flow, taking every decision as a sample."""

    def __init__(self, rules: RuleSet, index: int, data: dict[str, Any], names: list[str],
                 total: tuple[int, int]) -> None:
        deal = [(parse_mask(first), parse_mask(rest)) for first, rest in zip(data["deal"], data["deal_rest"])]
        self.state = GameState.within(Round(rules, deal=deal), offered=False)
        self.info = TableInfo(player_names=list(names), phase=TablePhase.GRAND_TICHU, is_running=True,
                              round_index=index, total=total)
        self.index = index
        self.data = data
        self.samples: list[_Sample] = []

    def _view(self, seat: int) -> SeatView:
        return view_of(self.info, self.state.round, seat)

    def _add(self, view: SeatView, choice: Choice, action: int, pushed: int = 0) -> None:
        if action not in choice.answers:
            raise RecordFault(f"round {self.index}: seat {view.seat} did what the rules did not allow "
                              f"(action {action})")
        self.samples.append(_Sample(observe(view, choice.question, pushed), choice.mask(), action, view.seat,
                                    self.index))

    def walk(self) -> list[_Sample]:
        """Every decision of the round, in the order of the flow."""
        state, data = self.state, self.data
        views = [self._view(seat) for seat in range(4)]  # at once: nobody sees another's answer (R2.1)
        for seat, called in enumerate(data["grand_tichu"]):
            self._add(views[seat], actions.grand_tichu_choice(), actions.CALL if called else actions.NO)
            state.decide_grand_tichu(seat, bool(called))
        self.info.phase = TablePhase.SCHUPF
        views = [self._view(seat) for seat in range(4)]  # R2.3
        for seat, labels in enumerate(data["push"]):
            given = [parse_mask(label) for label in labels]
            chosen = 0
            for card in given:
                self._add(views[seat], actions.push_choice(views[seat].hand, chosen),
                          actions.push_action(card.bit_length() - 1), chosen)
                chosen |= card
            state.push(seat, given)
        self.info.phase = TablePhase.PLAYING
        for event in data["events"]:
            self._event(event_action(event))
        return self.samples

    def _event(self, action: Action) -> None:
        """Take the offers let pass before an event as declines, then the event itself."""
        state = self.state
        kind, seat, value = action
        wanted = (_ASKED[kind], seat)
        while (state.decision, state.decision_seat) != wanted and state.decision in (Decision.TICHU, Decision.BOMB):
            offered = state.decision_seat
            assert offered is not None
            view = self._view(offered)
            choice = actions.tichu_choice() if state.decision == Decision.TICHU \
                else actions.bomb_choice(state.offered_bombs(), view.hand)
            self._add(view, choice, actions.NO)  # R6.1, R4.3: an offer let pass
            state.decline(offered)
        round_ = state.round
        assert round_ is not None
        view = self._view(seat)
        if kind == ActionKind.TICHU:
            self._add(view, actions.tichu_choice(), actions.CALL)
        elif kind in (ActionKind.PLAY, ActionKind.PASS):
            legal = state.legal_plays()
            taken = actions.NO if kind == ActionKind.PASS else _play_action(action.number(), legal)
            self._add(view, actions.play_choice(legal, view.hand), taken)
        elif kind == ActionKind.BOMB:
            bombs = state.bombs_now(seat)
            self._add(view, actions.bomb_choice(bombs, view.hand), _play_action(action.number(), bombs))
        elif kind == ActionKind.WISH:
            self._add(view, actions.wish_choice(round_.wish_choices()), actions.wish_action(action.number()))
        elif kind == ActionKind.DRAGON:
            self._add(view, actions.dragon_choice(seat, round_.dragon_recipients()),
                      actions.dragon_action(seat, action.number()))
        state.apply(action)


def _play_action(cards: int, options: Iterable[Play]) -> int:
    """The action of the option with these cards (-1 if none has them: a fault)."""
    return next((actions.play_action(play) for play in options if play.cards == cards), -1)


def record_samples(record: dict[str, Any]) -> list[_Sample]:
    """Every decision of a record, in order (see the module docstring).

    :raises RecordFault: For a record that does not replay through the rules.
    """
    fault = replay(record)
    if fault is not None:
        raise RecordFault(f"record {record.get('id')!r}: {fault}")
    rules = RuleSet.from_json(record.get("rules") or {})
    names = [player.get("name", "") for player in record.get("players", [{}] * 4)]
    samples: list[_Sample] = []
    total = (0, 0)
    for index, data in enumerate(record["rounds"]):
        samples += _RoundWalk(rules, index, data, names, total).walk()
        total = (total[0] + data["score"][0], total[1] + data["score"][1])
    return samples


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
        samples = record_samples(record)
        scores = [round_data["score"] for round_data in record["rounds"]]
        for sample in samples:
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
