"""Another line's start (:func:`~tichu.records.positions.position_after`; issue 35, "another
line"): the game of a record as it stood after a replay step, its round a copy that an engine
plays on."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any

import pytest

from tichu.agents.agent import AgentPlayer
from tichu.agents.random_agent import RandomAgent
from tichu.arena.arena import Arena
from tichu.engine.engine import GameEngine
from tichu.records.positions import NoPosition, position_after
from tichu.records.steps import labels, record_steps

Record = dict[str, Any]


@pytest.fixture(scope="module")
def records() -> list[Record]:
    """Three games of random and rule agents to 300 points."""
    found: list[Record] = []
    Arena(["random", "rule", "random", "rule"], games=3, seed=41, workers=1, target_score=300,
          records=True).run(on_record=found.append)
    return found


def test_every_step_in_play_is_a_position_as_the_replay_shows_it(records: list[Record]) -> None:
    """After each step whose round is not over (the round's last play, R7.1, and its end are
    no positions), the position's round holds the hands, the calls,
    the trick and the turn the step shows, after the rounds finished before it (R7.3)."""
    for record in records:
        steps, fault = record_steps(record)
        assert fault is None
        ended = 0
        for index, step in enumerate(steps):
            ended += step["kind"] == "round_end"
            if index % 5 and step["kind"] not in ("deal", "grand_tichu", "push", "trick", "round_end"):
                continue  # every fifth play, pass or call (each position replays the record once)
            if step["kind"] == "round_end" or steps[index + 1]["kind"] == "round_end":
                with pytest.raises(NoPosition, match="over"):  # the round ended at this step
                    position_after(record, index)
                continue
            position = position_after(record, index)
            finished, round_ = position.rounds()
            assert [labels(hand) for hand in round_.hands] == step["hands"], index
            assert list(round_.announcements) == step["calls"] and round_.decision_seat == step["turn"], index
            assert len(finished) == ended and all(done.is_over for done in finished)
            assert list(position.names) == step["names"] and position.step == index


def test_a_position_is_plain_data_its_rounds_new_each_time(records: list[Record]) -> None:
    """A position pickles (it crosses from a replay process to the server); playing on from its
    rounds changes the position not."""
    steps, _ = record_steps(records[0])
    middle = next(index for index, step in enumerate(steps) if step["kind"] == "play" and step["trick"] > 3)
    position = pickle.loads(pickle.dumps(position_after(records[0], middle)))
    _, round_ = position.rounds()
    round_.apply(round_.legal_actions()[0])
    _, again = position.rounds()
    assert [labels(hand) for hand in again.hands] == steps[middle]["hands"]


def test_no_position_where_the_record_does_not_go(records: list[Record]) -> None:
    steps, _ = record_steps(records[0])
    for step in (len(steps), -1, 10**9):
        with pytest.raises(NoPosition, match="no step"):
            position_after(records[0], step)


@pytest.mark.parametrize("kind", ["deal", "grand_tichu", "push", "play", "trick"])
def test_an_engine_plays_the_round_on_from_a_position(records: list[Record], kind: str) -> None:
    """From the deal (Grand Tichu open), the Grand Tichu step (the push open), the push, a play
    or a trick taken, an engine plays the round to its end and stops there (R7): the game keeps
    the rounds before it and this one, and no next round is dealt."""
    steps, _ = record_steps(records[1])
    index = [number for number, step in enumerate(steps) if step["kind"] == kind and step["round"] == 1][0]
    position = position_after(records[1], index)
    engine = GameEngine([AgentPlayer(RandomAgent(f"R{seat}", seed=seat)) for seat in range(4)], position.rules,
                        keep_rounds=True)
    finished, round_ = position.rounds()
    engine.resume(finished, round_)
    played = asyncio.run(engine.play_round())
    assert played.is_over and len(engine.rounds) == 2
    assert engine.rounds[0].result() == finished[0].result() and engine.round is played
