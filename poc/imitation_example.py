#!/usr/bin/env python3
"""Learn a policy from records, then seat it against our agents: the learning stack end to end.

Run: ``.venv/bin/python poc/imitation_example.py`` (a few minutes on one CPU core;
``--games``, ``--epochs`` and ``--eval-games`` make it shorter or longer).

1. The Arena plays ``--games`` games of the heuristic against itself, with records.
2. :func:`tichu.learn.export.training_data` turns them into (observation, mask, action,
   outcome) rows (docs/learning.md).
3. A linear softmax policy over the 737 actions, restricted to each row's mask, is fitted
   to the heuristic's choices (imitation learning, plain numpy, mini-batch Adam).
4. The policy, seated by :class:`~tichu.agents.learning.policy_agent.PolicyAgent`, plays
   ``--eval-games`` games against ``random`` and against ``rule`` (its team on seats 0 and 2);
   the mean score difference per round is printed with its 95% interval.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from tichu.agents.agent import AgentPlayer
from tichu.agents.learning.policy_agent import PolicyAgent
from tichu.agents.registry import make_agent
from tichu.arena.arena import Arena
from tichu.arena.stats import mean_interval
from tichu.core.ruleset import RuleSet
from tichu.engine.engine import GameEngine
from tichu.learn.export import TrainingData, training_data


class LinearPolicy:
    """Logits ``observation @ weights + bias`` over the actions; the masked-out actions get
    none of the probability. Fitted by cross-entropy to the actions taken in the data.

    :ivar weights: ``float32[620, 737]``.
    :ivar bias: ``float32[737]``.
    """

    def __init__(self, observations: int, actions: int) -> None:
        self.weights = np.zeros((observations, actions), dtype=np.float32)
        self.bias = np.zeros(actions, dtype=np.float32)

    def _logits(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
        logits: npt.NDArray[np.float32] = observation @ self.weights + self.bias
        return np.where(mask > 0, logits, np.float32(-1e9))

    def __call__(self, observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
        """The most likely allowed action (a policy for the environment and the policy agent)."""
        return int(np.argmax(self._logits(observation, action_mask)))

    def fit(self, data: TrainingData, epochs: int, seed: int, batch: int = 256, rate: float = 0.01) -> list[float]:
        """Fit to ``data``'s actions with Adam; return the mean loss of each epoch."""
        rng = np.random.default_rng(seed)
        moments = [np.zeros_like(self.weights), np.zeros_like(self.weights),
                   np.zeros_like(self.bias), np.zeros_like(self.bias)]
        losses, step = [], 0
        for _ in range(epochs):
            order = rng.permutation(len(data))
            total = 0.0
            for start in range(0, len(order), batch):
                rows = order[start:start + batch]
                observation, mask, action = data.observation[rows], data.mask[rows], data.action[rows]
                logits = self._logits(observation, mask)
                logits -= logits.max(axis=1, keepdims=True)
                probability = np.exp(logits)
                probability /= probability.sum(axis=1, keepdims=True)
                picked = probability[np.arange(len(rows)), action]
                total += float(-np.log(np.maximum(picked, 1e-12)).sum())
                gradient = probability
                gradient[np.arange(len(rows)), action] -= 1.0
                gradient /= len(rows)
                step += 1
                for index, (parameter, grad) in enumerate(((self.weights, observation.T @ gradient),
                                                           (self.bias, gradient.sum(axis=0)))):
                    first, second = moments[2 * index], moments[2 * index + 1]
                    first *= 0.9
                    first += 0.1 * grad
                    second *= 0.999
                    second += 0.001 * grad * grad
                    parameter -= rate * (first / (1 - 0.9 ** step)) / (np.sqrt(second / (1 - 0.999 ** step)) + 1e-8)
            losses.append(total / len(data))
        return losses

    def accuracy(self, data: TrainingData) -> float:
        """The share of rows where the policy takes the data's action."""
        hits = sum(self(data.observation[row], data.mask[row]) == int(data.action[row]) for row in range(len(data)))
        return hits / max(len(data), 1)


def evaluate(policy: LinearPolicy, opponent: str, games: int, seed: int, target: int) -> tuple[float, float, float]:
    """The policy's team (seats 0 and 2) against ``opponent``: mean score difference per round, 95% CI."""
    diffs: list[float] = []
    rng = random.Random(seed)
    for game in range(games):
        players = [AgentPlayer(PolicyAgent(f"policy-{seat}", policy) if seat % 2 == 0
                               else make_agent(opponent, name=f"{opponent}-{seat}", seed=rng.getrandbits(63)))
                   for seat in range(4)]
        engine = GameEngine(players, RuleSet(target_score=target), seed=rng.getrandbits(63) + game)
        result = asyncio.run(engine.run())
        diffs += [float(points[0] - points[1]) for points in (round_.points for round_ in result.results)]
    return mean_interval(diffs)


def main(argv: list[str] | None = None) -> int:
    """Generate, export, fit, evaluate; print each stage."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="heuristic games to learn from (default 40)")
    parser.add_argument("--epochs", type=int, default=8, help="passes over the data (default 8)")
    parser.add_argument("--eval-games", type=int, default=20, help="games against each opponent (default 20)")
    parser.add_argument("--target", type=int, default=1000, help="the games' target score (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of everything (default 1)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    records: list[dict[str, Any]] = []
    Arena(["heuristic"] * 4, games=args.games, seed=args.seed, workers=1, target_score=args.target,
          records=True).run(on_record=records.append)
    data = training_data(records)
    print(f"{len(records)} heuristic games -> {len(data)} decisions ({time.perf_counter() - started:.0f} s)")
    policy = LinearPolicy(data.observation.shape[1], data.mask.shape[1])
    losses = policy.fit(data, args.epochs, args.seed)
    print(f"fitted: loss {losses[0]:.3f} -> {losses[-1]:.3f}, agrees with the heuristic on "
          f"{policy.accuracy(data):.1%} of its decisions ({time.perf_counter() - started:.0f} s)")
    for opponent in ("random", "rule"):
        mean, low, high = evaluate(policy, opponent, args.eval_games, args.seed, args.target)
        print(f"the policy against {opponent}: {mean:+.1f} points per round (95% CI {low:+.1f} .. {high:+.1f}), "
              f"{args.eval_games} games ({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
