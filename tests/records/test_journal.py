"""The journal of a running game (:mod:`tichu.records.journal`) and the game rebuilt from it.

The journal is what a server keeps of a game while it is played so that a crash loses
nothing: at every moment of a game, the entries written so far must replay through the rules
(R1..R7) into exactly the rounds the engine holds, and a game resumed from them must go on
to a record that replays (R7.4).
"""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tichu.agents.agent import AgentPlayer
from tichu.agents.random_agent import RandomAgent
from tichu.core.round import Phase, Round
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView
from tichu.engine.engine import GameEngine
from tichu.engine.events import Event
from tichu.engine.player import Player
from tichu.records.journal import Entry, JournalCursor, JournalFault, rebuild
from tichu.records.parts import RoundRecord
from tichu.records.record import game_record, replay, round_json


class Snapshots:
    """An engine observer that writes the journal and, at every event, notes how many entries
    there were and what the rounds looked like then."""

    def __init__(self, engine: GameEngine) -> None:
        self.engine = engine
        self.cursor = JournalCursor()
        self.entries: list[Entry] = []
        self.moments: list[tuple[int, list[RoundRecord], RoundRecord | None]] = []

    def notify(self, event: Event) -> None:
        self.entries += self.cursor.new_entries(self.engine.round)
        current = self.engine.round
        unfinished = None if current is None or current.is_over else round_json(current)
        finished = [round_json(round_) for round_ in self.engine.rounds]
        if current is not None and current.is_over and current not in self.engine.rounds:
            finished.append(round_json(current))
        self.moments.append((len(self.entries), finished, unfinished))


def _agents(seed: int) -> list[Player]:
    return [AgentPlayer(RandomAgent(f"R{seat}", seed * 4 + seat)) for seat in range(4)]


def _play(seed: int, target: int = 200) -> tuple[GameEngine, Snapshots]:
    rules = RuleSet(target_score=target)
    engine = GameEngine(_agents(seed), rules, seed=seed, keep_rounds=True)
    snapshots = Snapshots(engine)
    engine.observe(snapshots)
    asyncio.run(engine.run())
    return engine, snapshots


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_at_every_moment_the_journal_rebuilds_the_rounds_the_engine_holds(seed: int, cut: float) -> None:
    """Cut a game's journal at a moment of the game: replaying it (R1..R7) gives the finished
    rounds and the unfinished one exactly as they were then (same deal, calls, pushes, events)."""
    engine, snapshots = _play(seed)
    count, finished, unfinished = snapshots.moments[int(cut * (len(snapshots.moments) - 1))]
    rounds, current = rebuild(engine.rules, snapshots.entries[:count])
    assert [round_json(round_) for round_ in rounds] == finished
    assert (None if current is None else round_json(current)) == unfinished


def test_a_game_resumed_from_its_journal_goes_on_to_a_record_that_replays() -> None:
    """Stop a game in the middle of a round's play, rebuild it, resume it with other agents:
    the resumed game keeps the finished rounds' scores (R7.3) and ends in a valid record (R7.4)."""
    engine, snapshots = _play(11)
    middle = next(moment for moment in snapshots.moments[len(snapshots.moments) // 2:] if moment[2] is not None
                  and moment[2]["events"])
    rounds, current = rebuild(engine.rules, snapshots.entries[:middle[0]])
    assert current is not None and current.phase == Phase.PLAYING
    resumed = GameEngine(_agents(99), engine.rules, keep_rounds=True)
    resumed.resume(rounds, current)
    assert resumed.info.round_scores == [round_.result().points for round_ in rounds]
    game = asyncio.run(resumed.run())
    assert game.is_over and resumed.rounds[:len(rounds)] == rounds and resumed.rounds[len(rounds)] is current
    record = game_record(resumed.rounds, resumed.rules, [(p.name, p.kind) for p in resumed.players],
                         record_id="resumed")
    assert replay(record) is None


class Counting(AgentPlayer):
    """A random agent that counts the questions it is asked."""

    def __init__(self, seat: int) -> None:
        super().__init__(RandomAgent(f"C{seat}", seat))
        self.grand = 0
        self.pushes = 0

    def grand_tichu(self, view: SeatView) -> bool:
        self.grand += 1
        return super().grand_tichu(view)

    def schupf(self, view: SeatView) -> tuple[int, int, int]:
        self.pushes += 1
        return super().schupf(view)


@pytest.mark.parametrize("decided", [0, 2, 4])
def test_a_resumed_round_asks_only_the_decisions_still_open(decided: int) -> None:
    """Resumed during Grand Tichu (R2.1) or the push (R2.3), the engine asks only the seats
    that have not decided yet, then plays the round on."""
    round_ = Round(RuleSet(), random.Random(decided))
    for seat in range(decided):
        round_.decide_grand_tichu(seat, False)
    pushed = 0
    if decided == 4:
        for seat in (0, 1):
            round_.schupf(seat, [1 << index for index in _lowest(round_.hands[seat])])
        pushed = 2
    players = [Counting(seat) for seat in range(4)]
    engine = GameEngine(players, RuleSet(target_score=1), keep_rounds=True)
    engine.resume([], round_)
    asyncio.run(engine.run())
    assert engine.rounds[0] is round_ and round_.is_over
    later = len(engine.rounds) - 1  # target 1: one round, another after a tie (R7.4)
    assert [player.grand for player in players] == [later] * decided + [1 + later] * (4 - decided)
    assert [player.pushes for player in players] == [later] * pushed + [1 + later] * (4 - pushed)


def _lowest(hand: int) -> list[int]:
    return [index for index in range(56) if hand >> index & 1][:3]


def test_resume_refuses_a_finished_round_as_unfinished() -> None:
    """Only a round that is not over can be played on."""
    engine, snapshots = _play(3, target=1)
    fresh = GameEngine(_agents(3), engine.rules)
    with pytest.raises(ValueError):
        fresh.resume([], engine.rounds[0])
    with pytest.raises(ValueError):
        fresh.resume([Round(RuleSet())], None)


@pytest.mark.parametrize(("entries", "message"), [
    ([{"seat": 0, "pass": True}], "before a deal"),
    ([{"deal": ["x"], "deal_rest": []}], "R1.1"),
    ([{"deal": ["x"]}], "malformed"),
])
def test_a_journal_the_rules_refuse_is_a_fault(entries: list[Entry], message: str) -> None:
    """A journal that does not replay raises :class:`JournalFault` naming the entry."""
    with pytest.raises(JournalFault, match=message):
        rebuild(RuleSet(), entries)


def test_an_illegal_entry_is_a_fault_with_its_rule() -> None:
    """An action the rules refuse (R4.1: a seat that is not at turn) names its rule; a deal
    while a round is open is refused."""
    engine, snapshots = _play(5, target=1)
    entries = snapshots.entries
    first_event = next(index for index, entry in enumerate(entries) if "play" in entry)
    wrong = dict(entries[first_event], seat=(int(str(entries[first_event]["seat"])) + 1) % 4)
    with pytest.raises(JournalFault, match=f"entry {first_event}: R4.1"):
        rebuild(engine.rules, [*entries[:first_event], wrong])
    with pytest.raises(JournalFault, match="a deal before the round 0 ended"):
        rebuild(engine.rules, [entries[0], entries[0]])


def test_the_cursor_follows_a_rebuilt_game_without_writing_it_again() -> None:
    """After a restart the journal goes on where it stopped: nothing already written comes again."""
    engine, snapshots = _play(8, target=1)
    count = snapshots.moments[len(snapshots.moments) // 2][0]
    rounds, current = rebuild(engine.rules, snapshots.entries[:count])
    cursor = JournalCursor()
    cursor.follow(rounds, current)
    assert cursor.new_entries(current or rounds[-1]) == []
