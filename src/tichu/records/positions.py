"""A stored game's position after one of its replay steps: where another line can start.

The replay viewer shows a record step by step (:mod:`tichu.records.steps`); from any step at
which the round is still being played, a person may play the round on differently (another
line, as chess sites offer). :func:`position_after` walks the record through the rules to that
step and returns the game as it stood, as the journal a server would have written up to there
(:mod:`tichu.records.journal`): plain data, which crosses processes (the record is replayed in
one of the server's replay processes) and which :meth:`Position.rounds` rebuilds into the
finished rounds and the round being played, for an engine to resume (``GameEngine.resume``)
exactly as it resumes a game after a restart. The rules decide what is open at that point (the
Grand Tichu decisions, the push, a play, a wish, a Dragon gift); nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tichu.core.round import Round
from tichu.core.ruleset import RuleSet
from tichu.records.journal import JournalCursor, rebuild
from tichu.records.parts import JournalEntry, Step
from tichu.records.record import rules_of
from tichu.records.steps import record_steps


class NoPosition(ValueError):
    """The step is not one from which a round can be played on (no such step, a record that does
    not replay that far, or a round that is over there)."""


@dataclass(frozen=True)
class Position:
    """A game as it stood after one step of its record.

    :ivar rules: The game's rules.
    :ivar entries: The game up to the step as journal entries (its deals and every decision).
    :ivar names: Who held each seat at that step (the record's players and seat changes).
    :ivar step: The step's index (``record_steps``).
    """

    rules: RuleSet
    entries: tuple[JournalEntry, ...]
    names: tuple[str, ...]
    step: int

    def rounds(self) -> tuple[list[Round], Round]:
        """The game rebuilt through the rules: its finished rounds and the round being played
        (new objects on each call, for an engine to play on)."""
        finished, unfinished = rebuild(self.rules, self.entries)
        assert unfinished is not None, "a position is in a round being played"
        return finished, unfinished


def position_after(record: Mapping[str, object], step: int) -> Position:
    """The game of a record as it stood after step ``step`` of its replay.

    :param record: A ``tichu-record/1`` object (a finished or an aborted game).
    :param step: The step's index in ``record_steps(record)[0]``.
    :returns: The position.
    :raises NoPosition: For a step the record does not reach, or after which its round is over.
    """
    entries: list[JournalEntry] = []
    found: list[tuple[Step, bool]] = []

    def look(index: int, made: Step, round_: Round) -> None:
        if found:
            return
        if made["kind"] == "round_end" or index == step:  # a finished round, or the one up to the step
            entries.extend(JournalCursor().new_entries(round_))
        if index == step:
            found.append((made, round_.is_over))

    record_steps(record, on_step=look)
    if not found:
        raise NoPosition(f"the record has no step {step}")
    made, over = found[0]
    if over:
        raise NoPosition(f"the round is over after step {step}")
    return Position(rules_of(record), tuple(entries), tuple(made["names"]), step)
