"""Exact values of two-seat endgames: alpha-beta over the rules core's flow (R7, R8).

When exactly two seats still hold cards, each knows the other's hand: the cards it has not
seen are the other's hand (R8). The rest of the round is then a game of perfect information
with an exact value, and :class:`EndgameSolver` finds it by playing the core's own flow
(:class:`~tichu.core.flow.GameState`, every seat prompted): the play or pass (R4.1), every
offer of a bomb out of turn (R4.3) and of a Tichu call (R6.1), the wish (R5.1), the Dog
(R3.10), the Dragon gift (R4.5) and the round's end with its Tichu bonuses and the double
victory (R6, R7). Nothing of the rules is written here: the moves are the state's legal
actions, applied by the state.

The value is the round's points of one team minus the other's (as
:func:`~tichu.agents.support.rollout.round_value` measures a rollout). Both seats left are
opponents (two partners out end the round, R7.1), so one maximises team 0's value and the
other minimises it; a seat that is out still decides its Dragon gift (R4.5), for its team.

The search is alpha-beta with a transposition table keyed at play decisions by
:meth:`~tichu.core.round.Round.play_key` (the offers of a moment are made afresh after each
play, so at a play decision the round alone decides the rest), the table's best move and
the plays that go out tried first, and a node budget: a position that is not solved within
it is reported as not exact, and the caller falls back to sampling and says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Action, ActionKind, Decision, Phase, Round
from tichu.core.ruleset import RuleSet
from tichu.core.seats import team_of

#: Nodes (states searched) one solve may visit by default: every two-seat endgame of up to
#: 12 cards in the Brettspielwelt games fits, and most up to 18 (docs/benchmarks.md, "Exact
#: endgames").
DEFAULT_NODES = 200_000
#: Entries kept in a solver's transposition table before it is emptied: some 60 MB at most
#: (about 600 bytes an entry, measured with ``tracemalloc`` on Brettspielwelt endgames).
TABLE_LIMIT = 100_000

_INFINITY = 10_000  # beyond any round's points (R7: at most 400 plus 2 × 200 of calls)
_CLOCK_EVERY = 0x3FF  # nodes between two looks at the clock of a solve with a deadline, less one
_EXACT, _LOWER, _UPPER = 0, 1, 2


class OutOfNodes(Exception):
    """The node budget (or the deadline) ran out before the position was solved."""


@dataclass(frozen=True)
class Solution:
    """The solved values of a position's actions.

    :ivar exact: Whether the position was solved within the budget (else the other fields
        are empty and zero).
    :ivar seat: The seat whose team the values are for.
    :ivar value: The position's exact value for that team: its round points minus the other
        team's, with best play by both seats (R7).
    :ivar actions: The actions of the decision at the position (none at the round's end).
    :ivar values: Per action the exact value after it, for the same team.
    :ivar nodes: The nodes visited.
    """

    exact: bool
    seat: int
    value: int
    actions: tuple[Action, ...]
    values: tuple[int, ...]
    nodes: int

    @property
    def best(self) -> tuple[Action, ...]:
        """The actions that reach :attr:`value` (for the deciding seat's team: best for it)."""
        return tuple(action for action, value in zip(self.actions, self.values) if value == self.value)


def two_seat(state: GameState) -> bool:
    """Whether a state is a two-seat endgame: its round is played and two seats hold cards
    (each then knows the other's hand, R8), or one: the last Dragon trick's gift is open (R7.2)."""
    round_ = state.round
    return round_ is not None and round_.phase == Phase.PLAYING and sum(1 for hand in round_.hands if hand) <= 2


def team_value(round_: Round, seat: int) -> int:
    """A finished round's points of ``seat``'s team minus the other team's (R7)."""
    points = round_.result().points
    team = team_of(seat)
    return points[team] - points[1 - team]


def moves(state: GameState) -> list[Action]:
    """The actions of the state's decision, as the solver tries them: the plays that go out
    first, then the longest and highest; a declined offer before a call or a bomb."""
    return [action for action, _ in _moves(state)]


def child(state: GameState, action: Action) -> GameState:
    """The state after an action of its decision (a copy; the state itself is left as it was).

    :raises RuleViolation: If the action is not allowed now.
    """
    after = state.clone()
    after.apply(action)
    return after


def _moves(state: GameState) -> list[tuple[Action, Play | None]]:
    """:func:`moves`, each with its play at a play decision (applied without a second check)."""
    seat = state.decision_seat
    round_ = state.round
    assert seat is not None and round_ is not None
    if state.decision == Decision.PLAY:
        hand = round_.hands[seat]
        plays = sorted(state.legal_plays(), key=lambda play: (play.cards != hand, -play.length, -play.rank))
        return [(_play_action(seat, play), play) for play in plays]
    return [(action, None) for action in state.legal_actions()]


def _after(state: GameState, action: Action, play: Play | None) -> GameState:
    """The state after a move of :func:`_moves` (a copy)."""
    after = state.clone()
    if play is None:
        after.apply(action)
    else:
        after.apply_play(play)
    return after


class EndgameSolver:
    """Solves two-seat endgames exactly, within a node budget (see the module docstring).

    One solver keeps its transposition table between solves of the same rules (the
    positions of one round share most of it); a solve with other rules starts it afresh.
    """

    def __init__(self, nodes: int = DEFAULT_NODES, table_limit: int = TABLE_LIMIT) -> None:
        """A solver.

        :param nodes: The nodes one :meth:`solve` may visit (at least 1).
        :param table_limit: The transposition table's entries before it is emptied (at least 1).
        :raises ValueError: For a budget or a limit below 1.
        """
        if nodes < 1 or table_limit < 1:
            raise ValueError("a node budget and a table limit are at least 1")
        self.nodes = nodes
        self.table_limit = table_limit
        self._table: dict[tuple[object, ...], tuple[int, int, Action | None]] = {}
        self._rules: RuleSet | None = None
        self._visited = 0
        self._limit = 0
        self._deadline: float | None = None

    def __reduce__(self) -> tuple[type[EndgameSolver], tuple[int, int]]:
        """Pickle as a fresh solver of the same budget and limit: the table is a cache, and an
        agent's solver travels with it to a server's worker and back at every decision."""
        return EndgameSolver, (self.nodes, self.table_limit)

    @property
    def table_size(self) -> int:
        """The entries of the transposition table now."""
        return len(self._table)

    def solve(self, state: GameState, seat: int, deadline: float | None = None) -> Solution:
        """The exact value of a two-seat endgame and of each action of its decision, for
        ``seat``'s team; the state is not changed.

        :param state: A two-seat endgame (:func:`two_seat`), or a state whose round is over.
        :param seat: The seat whose team the values are for.
        :param deadline: (Optional) A ``time.monotonic()`` after which the solve gives up as
            when its nodes run out (an agent's time budget; looked at every 1,024 nodes).
        :raises ValueError: For a state that is neither.
        """
        round_ = self._start(state, deadline)
        if round_.is_over:
            return Solution(True, seat, team_value(round_, seat), (), (), 0)
        found = _moves(state)
        actions = tuple(action for action, _ in found)
        sign = 1 if team_of(seat) == 0 else -1
        try:
            values = tuple(sign * self._search(_after(state, action, play), -_INFINITY, _INFINITY)
                           for action, play in found)
        except OutOfNodes:
            return Solution(False, seat, 0, (), (), self._visited)
        deciding = state.decision_seat
        assert deciding is not None
        mine = team_of(deciding) == team_of(seat)
        value = max(values) if mine else min(values)
        return Solution(True, seat, value, actions, values, self._visited)

    def value(self, state: GameState, seat: int) -> int | None:
        """The exact value of a two-seat endgame for ``seat``'s team (cheaper than
        :meth:`solve`: the actions' own values are not asked for); ``None`` if the budget
        runs out.

        :raises ValueError: For a state that is no two-seat endgame and not over.
        """
        round_ = self._start(state)
        if round_.is_over:
            return team_value(round_, seat)
        try:
            value = self._search(state, -_INFINITY, _INFINITY)
        except OutOfNodes:
            return None
        return value if team_of(seat) == 0 else -value

    def line(self, state: GameState, length: int) -> list[Action]:
        """The best line from a two-seat endgame: up to ``length`` actions, each the first in
        the solver's order that keeps the position's value; shorter if the round ends or the
        budget runs out."""
        found: list[Action] = []
        current = state
        target = self.value(current, 0)
        while target is not None and len(found) < length and current.round is not None \
                and not current.round.is_over:
            for action, play in _moves(current):
                after = _after(current, action, play)
                if self.value(after, 0) == target:
                    found.append(action)
                    current = after
                    break
            else:
                break  # a search ran out of nodes
        return found

    def _start(self, state: GameState, deadline: float | None = None) -> Round:
        """Check a state to solve and ready the table and the budget for it."""
        round_ = state.round
        if round_ is None or not (round_.is_over or two_seat(state)):
            raise ValueError("an exact solve needs a round in which at most two seats hold cards")
        if self._rules is not round_.rules:
            self._table.clear()
            self._rules = round_.rules
        self._visited = 0
        self._limit = self.nodes
        self._deadline = deadline
        return round_

    def _search(self, state: GameState, alpha: int, beta: int) -> int:
        """The value for team 0 of a state, fail-soft within ``(alpha, beta)``."""
        round_ = state.round
        assert round_ is not None
        if round_.is_over:
            return team_value(round_, 0)
        self._visited += 1
        if self._visited > self._limit:
            raise OutOfNodes
        if self._deadline is not None and not self._visited & _CLOCK_EVERY and time.monotonic() > self._deadline:
            raise OutOfNodes
        key = round_.play_key() if state.decision == Decision.PLAY else None
        first: Action | None = None
        if key is not None:
            entry = self._table.get(key)
            if entry is not None:
                lower, upper, first = entry
                if lower >= beta or lower == upper:
                    return lower
                if upper <= alpha:
                    return upper
                alpha, beta = max(alpha, lower), min(beta, upper)
        seat = state.decision_seat
        assert seat is not None
        maximise = team_of(seat) == 0
        found = _moves(state)
        if first is not None:
            found.sort(key=lambda move: move[0] != first)  # stable: the rest keep their order
        best = -_INFINITY if maximise else _INFINITY
        best_action: Action | None = None
        low, high = alpha, beta
        for action, play in found:
            value = self._search(_after(state, action, play), low, high)
            if (value > best) if maximise else (value < best):
                best, best_action = value, action
            if maximise:
                low = max(low, value)
            else:
                high = min(high, value)
            if low >= high:
                break
        if key is not None:
            self._store(key, best, alpha, beta, best_action)
        return best

    def _store(self, key: tuple[object, ...], value: int, alpha: int, beta: int, action: Action | None) -> None:
        """Keep a searched value as what it proves: exact inside the window, else a bound."""
        table = self._table
        lower, upper = -_INFINITY, _INFINITY
        entry = table.get(key)
        if entry is not None:
            lower, upper = entry[0], entry[1]
        if value <= alpha:
            upper = min(upper, value)
        elif value >= beta:
            lower = max(lower, value)
        else:
            lower = upper = value
        if len(table) >= self.table_limit and entry is None:
            table.clear()
        table[key] = (lower, upper, action)


def _play_action(seat: int, play: Play) -> Action:
    return Action(ActionKind.PLAY, seat, play.cards) if play.cards else Action(ActionKind.PASS, seat)


def solve(state: GameState, seat: int, nodes: int = DEFAULT_NODES) -> Solution:
    """Solve one position with a fresh solver (see :meth:`EndgameSolver.solve`)."""
    return EndgameSolver(nodes).solve(state, seat)


__all__ = ["DEFAULT_NODES", "TABLE_LIMIT", "EndgameSolver", "OutOfNodes", "Solution", "child", "moves", "solve",
           "team_value", "two_seat"]
