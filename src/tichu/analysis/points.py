"""The decisions of a game record that the analysis judges, each as the seat saw it (R8).

:func:`decision_points` replays a record through the game's flow
(:class:`~tichu.core.flow.GameState`, every seat offered its calls and bombs as an agent is,
as :mod:`tichu.learn.export` walks it) and takes, at each judged decision, the deciding
seat's frozen :class:`~tichu.core.views.SeatView`, the options the expert would weigh
there (its candidates, :class:`~tichu.agents.mc_agent.MonteCarloAgent`) and what was done.

Judged: Grand Tichu for every seat (R2.1), the push (R2.3), every play or pass with more
than one legal option (R4.1), every bomb thrown out of turn (R4.3), the wish (R5.1), the
Dragon gift (R4.5), and the Tichu call (R6.1): each call made, and the seat's first offer of
a round where it did not call (not every later declined offer: a seat is offered the call
before each play until it plays its first card, and those offers are one question asked
again). A decision with one option is left out, and so is one that is not a decision of the
flow at that moment (a call or bomb made unprompted, which no search world stands at; a Tichu
call before the push).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tichu.agents.mc_agent import MonteCarloAgent
from tichu.agents.support.endgame import two_seat
from tichu.agents.support.exact import known_hands
from tichu.core.cards import parse_mask
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Action, ActionKind, Decision, Phase, Round
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView, TableInfo, TablePhase, view_of
from tichu.records.parts import Step
from tichu.records.record import ReplayFault, event_action, json_list, json_object, json_text
from tichu.records.steps import record_steps

#: One option of a decision: a call or not (``bool``), a push (to right, partner, left), a
#: play or pass, a bomb or none (``None``), a wish value (0: none) or a Dragon recipient.
Option = bool | int | Play | None | tuple[int, int, int]

#: The decision kinds, as the analysis document names them.
KINDS = ("grand_tichu", "push", "tichu", "play", "bomb", "wish", "dragon")

#: Most of the expert's candidate plays judged beside the choice made (the expert searches 8
#: at a table; the analysis trades a few rare ones for time).
PLAY_CANDIDATES = 6

#: Player kinds of people in records: ``human`` (the server, Brettspielwelt) and ``person``.
PERSON_KINDS = frozenset({"human", "person"})

#: The seed of the expert whose candidates a point offers (its heuristic samples): a
#: constant for a fresh expert per point, so a point's options follow from its view alone.
CANDIDATE_SEED = 0

_STEP_KINDS = frozenset({"tichu", "play", "pass", "bomb", "wish", "dragon"})


class RecordFault(ValueError):
    """A record that does not replay through the rules (the fault is in the message)."""


@dataclass(frozen=True)
class DecisionPoint:
    """One judged decision: what the seat knew, what it could do, and what it did (R8).

    :ivar step: Index of the step showing the position right after the decision in
        :func:`~tichu.records.steps.record_steps` (for a Tichu not called: the position in
        which it was offered).
    :ivar round: The round, from 0.
    :ivar seat: The deciding seat.
    :ivar kind: One of :data:`KINDS`.
    :ivar view: The seat's frozen view at that moment (no card hidden from it).
    :ivar options: The options judged: the expert's candidates and the choice made.
    :ivar chosen: Index of the choice made in :attr:`options`.
    :ivar score_before: The game's score (team 20, team 31) before this round.
    :ivar state: At a two-seat endgame (:func:`~tichu.agents.support.endgame.two_seat`) whose
        hands the seat knows (:func:`~tichu.agents.support.exact.known_hands`: it is one of the
        two, or out while only one other holds cards) the round's state right before the
        decision, else ``None``. It holds nothing the seat did not know (R8), so the position
        is solved exactly instead of sampled (:func:`~tichu.analysis.judge.judge`). A seat that
        went out with the Dragon while two others hold cards does not know how the unseen
        cards lie between them: its gift is sampled.
    """

    step: int
    round: int
    seat: int
    kind: str
    view: SeatView
    options: tuple[Option, ...]
    chosen: int
    score_before: tuple[int, int]
    state: GameState | None = field(default=None, compare=False)


def decision_points(record: Mapping[str, object], seats: Sequence[int] | None = None) -> list[DecisionPoint]:
    """Every judged decision of ``seats`` in a record, in the game's order.

    :param record: A ``tichu-record/1`` object (the Arena's, the server's, an imported
        Brettspielwelt log).
    :param seats: (Optional) The seats to judge, always; by default the seats while people
        held them (:data:`PERSON_KINDS`, the record's ``players`` and ``seat_changes``), or
        all four in a record without people (the Arena's).
    :raises RecordFault: For a record that does not replay through the rules (an aborted
        game's record may end early: its unfinished round is judged as far as it went).
    """
    steps, fault = record_steps(record)
    if fault is not None and not _ended_early(record, fault):
        raise RecordFault(f"record {record.get('id')!r}: {fault}")
    holders = _Holders(record, seats)
    rules = RuleSet.from_json(dict(json_object(record.get("rules") or {})))
    names = [str(json_object(player).get("name", "")) for player in json_list(record.get("players", [{}] * 4))]
    points: list[DecisionPoint] = []
    total = (0, 0)
    scores: list[tuple[int, int]] = []
    rounds = [json_object(data) for data in json_list(record["rounds"])]
    unfinished = record.get("unfinished_round")
    if fault is not None and isinstance(unfinished, dict):
        rounds.append(json_object(unfinished))
    for index, data in enumerate(rounds):
        walk = _RoundWalk(rules, index, data, names, total, scores, _StepIndex(steps, index), holders)
        points += walk.walk()
        if "score" in data:
            round_score = json_list(data["score"])
            score = (_int(round_score[0]), _int(round_score[1]))
            scores.append(score)
            total = (total[0] + score[0], total[1] + score[1])
    return points


def _ended_early(record: Mapping[str, object], fault: ReplayFault) -> bool:
    """Whether the fault only says that the game was ended early (an aborted game's record,
    docs/server.md): its rounds, and its unfinished round as far as it went, replay."""
    return bool(record.get("aborted")) and fault.rule == "R7.4" and fault.event_index is None \
        and fault.round_index in (None, len(json_list(record["rounds"])))


def _seat_changes(value: object) -> list[tuple[int, int, int, str]]:
    """A record's seat changes as ``(round, event, seat, kind)``, without those it cannot read."""
    found = []
    for item in value if isinstance(value, list) else []:
        change = json_object(item) if isinstance(item, dict) else {}
        round_, event, seat = change.get("round"), change.get("event"), change.get("seat")
        if isinstance(round_, int) and isinstance(event, int) and isinstance(seat, int):
            found.append((round_, event, seat, str(change.get("kind", ""))))
    return found


def _int(value: object) -> int:
    """A record's number (a round's score), checked.

    :raises TypeError: For a value that is no number.
    """
    if not isinstance(value, int | float):
        raise TypeError(f"not a number: {value!r:.80}")
    return int(value)


class _Holders:
    """Whether a seat is judged at a moment of the game (who held it then)."""

    def __init__(self, record: Mapping[str, object], seats: Sequence[int] | None) -> None:
        self.seats = None if seats is None else frozenset(seats)
        players = record.get("players") or []
        self.kinds = [str(json_object(player).get("kind", "")) if isinstance(player, dict) else ""
                      for player in (json_list(players) if isinstance(players, list) else [])][:4]
        self.kinds += [""] * (4 - len(self.kinds))
        self.changes = sorted(_seat_changes(record.get("seat_changes")))
        kinds = set(self.kinds) | {kind for _, _, _, kind in self.changes}
        self.anyone = not kinds & PERSON_KINDS  # no person anywhere: every seat (the Arena)

    def judged(self, seat: int, round_index: int, event: int) -> bool:
        """Whether ``seat``'s decision before event ``event`` of round ``round_index`` is judged."""
        if self.seats is not None:
            return seat in self.seats
        if self.anyone:
            return True
        kind = self.kinds[seat]
        for change_round, change_event, changed, changed_kind in self.changes:
            if changed == seat and (change_round, change_event) <= (round_index, event):
                kind = changed_kind
        return kind in PERSON_KINDS


class _StepIndex:
    """Where a round's decisions stand in the replay's steps."""

    def __init__(self, steps: list[Step], index: int) -> None:
        mine = [(number, step["kind"]) for number, step in enumerate(steps) if step["round"] == index]
        self.grand = next((number for number, kind in mine if kind == "grand_tichu"), -1)
        self.push = next((number for number, kind in mine if kind == "push"), -1)
        self.events = [number for number, kind in mine if kind in _STEP_KINDS]


class _RoundWalk:
    """One record round walked through the game's flow, taking the judged decisions."""

    def __init__(self, rules: RuleSet, index: int, data: Mapping[str, object], names: list[str], total: tuple[int, int],
                 scores: list[tuple[int, int]], steps: _StepIndex, holders: _Holders) -> None:
        deal = [(parse_mask(json_text(first)), parse_mask(json_text(rest)))
                for first, rest in zip(json_list(data["deal"]), json_list(data["deal_rest"]))]
        self.state = GameState.within(Round(rules, deal=deal), offered=False)
        self.info = TableInfo(player_names=list(names), phase=TablePhase.GRAND_TICHU, is_running=True,
                              round_index=index, round_scores=list(scores), total=total)
        self.index = index
        self.data = data
        self.steps = steps
        self.holders = holders
        self.offered = [False] * 4  # whether the seat's first Tichu offer of the round was taken
        self.points: list[DecisionPoint] = []

    def _view(self, seat: int) -> SeatView:
        return view_of(self.info, self.state.round, seat)

    def _add(self, step: int, seat: int, kind: str, view: SeatView, options: Sequence[Option], chosen: Option) -> None:
        known = two_seat(self.state) and known_hands(view) is not None
        state = self.state.clone() if known else None
        if state is not None:
            options = _every_option(state, seat, kind, options)
            round_ = state.round
            assert round_ is not None
            assert known_hands(view) == round_.hands  # R8: nothing in it is hidden from the seat
        found = list(options)
        if chosen not in found:
            found.append(chosen)
        if len(found) > 1:
            self.points.append(DecisionPoint(step, self.index, seat, kind, view, tuple(found), found.index(chosen),
                                             self.info.total, state))

    def walk(self) -> list[DecisionPoint]:
        """The judged decisions of the round, in the order of the flow."""
        state, data = self.state, self.data
        if self.steps.grand < 0:
            return self.points  # an unfinished round that ended before the Grand Tichu calls
        views = [self._view(seat) for seat in range(4)]  # at once: nobody sees another's answer (R2.1)
        for seat, called in enumerate(json_list(data["grand_tichu"])):
            if self.holders.judged(seat, self.index, 0):
                self._add(self.steps.grand, seat, "grand_tichu", views[seat], (False, True), bool(called))
            state.decide_grand_tichu(seat, bool(called))
        self.info.phase = TablePhase.SCHUPF
        views = [self._view(seat) for seat in range(4)]  # R2.3
        if any(labels is None for labels in json_list(data["push"])):
            return self.points  # an unfinished round that ended before every seat pushed
        for seat, labels in enumerate(json_list(data["push"])):
            given = tuple(parse_mask(json_text(label)) for label in json_list(labels))
            assert len(given) == 3
            push = (given[0], given[1], given[2])
            if self.holders.judged(seat, self.index, 0):
                self._add(self.steps.push, seat, "push", views[seat], _expert().push_candidates(views[seat]), push)
            state.push(seat, push)
        self.info.phase = TablePhase.PLAYING
        for number, event in enumerate(json_list(data["events"])):
            self._event(number, event_action(json_object(event)))
        return self.points

    def _event(self, number: int, action: Action) -> None:
        """Take the offers let pass before an event (a first Tichu offer is judged), then the event."""
        state = self.state
        kind, seat, value = action
        step = self.steps.events[number]
        wanted = (_ASKED[kind], seat)
        while (state.decision, state.decision_seat) != wanted and state.decision in (Decision.TICHU, Decision.BOMB):
            offered = state.decision_seat
            assert offered is not None
            if state.decision == Decision.TICHU:
                self._tichu(offered, number, step - 1, False)
            state.decline(offered)
        if self.holders.judged(seat, self.index, number):
            self._judged_event(number, step, action)
        elif kind == ActionKind.TICHU:
            self.offered[seat] = True
        state.apply(action)

    def _tichu(self, seat: int, number: int, step: int, call: bool) -> None:
        """A Tichu call made, or the seat's first offer of the round declined (R6.1)."""
        if self.offered[seat] and not call:
            return
        self.offered[seat] = True
        if not self.holders.judged(seat, self.index, number):
            return
        if self._asked(seat, Decision.TICHU):
            self._add(step, seat, "tichu", self._view(seat), (False, True), call)

    def _asked(self, seat: int, decision: Decision) -> bool:
        """Whether the flow asks ``seat`` for ``decision`` now, in play (where a search's world
        stands, :func:`~tichu.core.worlds.world_of`)."""
        state = self.state
        round_ = state.round
        return round_ is not None and round_.phase == Phase.PLAYING and state.decision == decision \
            and state.decision_seat == seat

    def _judged_event(self, number: int, step: int, action: Action) -> None:
        """Take the judged seat's event as a decision point (where the search can resume)."""
        state = self.state
        round_ = state.round
        assert round_ is not None
        kind, seat, value = action
        if kind == ActionKind.TICHU:
            self._tichu(seat, number, step, True)
            return
        if not self._asked(seat, _ASKED[kind]):
            return
        view = self._view(seat)
        if kind in (ActionKind.PLAY, ActionKind.PASS):
            legal = state.legal_plays()
            chosen = _play_of(action.number(), legal) if kind == ActionKind.PLAY else legal[-1]
            if len(legal) > 1 and chosen is not None:
                self._add(step, seat, "play", view, _expert().play_candidates(view, legal)[:PLAY_CANDIDATES], chosen)
        elif kind == ActionKind.BOMB:
            bombs = state.bombs_now(seat)
            bomb = _play_of(action.number(), bombs)
            if bomb is not None:
                self._add(step, seat, "bomb", view, _expert().bomb_candidates(view, bombs), bomb)
        elif kind == ActionKind.WISH:
            self._add(step, seat, "wish", view, _expert().wish_candidates(view, round_.wish_choices()),
                      action.number())
        elif kind == ActionKind.DRAGON:
            recipients = round_.dragon_recipients()
            if len(view.public_state().out_order) < 3:
                self._add(step, seat, "dragon", view, _expert().dragon_candidates(view, recipients),
                          action.number())


#: The decision at which each kind of a round's events is made.
_ASKED = {ActionKind.TICHU: Decision.TICHU, ActionKind.BOMB: Decision.BOMB, ActionKind.PLAY: Decision.PLAY,
          ActionKind.PASS: Decision.PLAY, ActionKind.WISH: Decision.WISH, ActionKind.DRAGON: Decision.DRAGON}


def _every_option(state: GameState, seat: int, kind: str, candidates: Sequence[Option]) -> Sequence[Option]:
    """Every option of a decision at a two-seat endgame (an exact solve weighs them all, not
    only the expert's candidates): every legal play, every bomb or none, every wish, every
    recipient; the candidates of the other kinds."""
    round_ = state.round
    assert round_ is not None
    if kind == "play":
        return state.legal_plays()
    if kind == "bomb":
        return [None, *state.bombs_now(seat)]
    if kind == "wish":
        return round_.wish_choices()
    if kind == "dragon":
        return round_.dragon_recipients()
    return candidates


def _expert() -> MonteCarloAgent:
    """A fresh expert for one point's candidates: its heuristic samples with a random source of
    its own, so the options follow from the point's view alone (nothing of another seat's
    decisions, R8)."""
    return MonteCarloAgent(seed=CANDIDATE_SEED)


def _play_of(cards: int, options: Sequence[Play]) -> Play | None:
    """The option with these cards (``None`` if none has them)."""
    return next((play for play in options if play.cards == cards), None)


__all__ = ["KINDS", "PERSON_KINDS", "PLAY_CANDIDATES", "DecisionPoint", "Option", "RecordFault",
           "decision_points"]
