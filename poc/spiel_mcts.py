#!/usr/bin/env python3
"""OpenSpiel's own ``MCTSBot``, Python and C++, on ``python_tichu`` against uniform random bots:
whole games, duplicate deals, the points per round with a 95% interval and the time per game.

Run: ``.venv/bin/python -m poc.spiel_mcts --pairs 20 --simulations 20`` (the extra ``spiel``).

The game is loaded with its default terminal rewards, which OpenSpiel's MCTS needs, and one
round per game (``max_rounds=1``), so that a random rollout ends with the round. The MCTS bot
plays one team, OpenSpiel's uniform random bot the other; pair ``k`` deals the same cards twice
(:func:`tichu.learn.spiel_match.deck_order`), the bot on seats 0 and 2 first, on 1 and 3 then.
Each bot is OpenSpiel's, with its random rollout evaluator (one rollout) and UCT constant
``--uct-c`` in points. OpenSpiel's MCTS searches the state it is given, every hand included: it
plays with the hidden cards open (a perfect-information search, not a fair player; ISMCTS is the
fair one, docs/agents.md). The figure shows that the algorithm runs on the game and what it
makes of it, not a strength of a seat. Nothing here is a test; the figures go into
docs/learning.md with the command.

The script deals each game itself, then lets OpenSpiel's ``evaluate_bots`` play it: the Python one
for the Python bot, pyspiel's for the C++ bot. The C++ bot's own ``step`` cannot be called from
Python on a Python game: pyspiel 2.0.2 binds it with ``gil_scoped_release``, and the search's
first clone of the state calls back into Python without the interpreter lock (a segmentation
fault); pyspiel's ``evaluate_bots`` keeps the lock, and runs it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.bots.uniform_random import UniformRandomBot

import tichu.learn.spiel  # noqa: F401  (registers python_tichu)
from tichu.arena.stats import mean_interval
from tichu.learn.spiel_match import deck_order


def python_game(game: Any, state: Any, bot_seats: tuple[int, int], simulations: int, uct_c: float, seed: int
                ) -> list[float]:
    """Play ``state`` to the end with OpenSpiel's Python ``MCTSBot`` on ``bot_seats``, its
    random rollout evaluator, and uniform random bots (Python ``evaluate_bots``)."""
    rng = np.random.RandomState(seed)
    bots = [mcts.MCTSBot(game, uct_c, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            if seat in bot_seats else UniformRandomBot(seat, rng) for seat in range(4)]
    return list(evaluate_bots.evaluate_bots(state, bots, rng))


def cpp_game(game: Any, state: Any, bot_seats: tuple[int, int], simulations: int, uct_c: float, seed: int
             ) -> list[float]:
    """Play ``state`` to the end with OpenSpiel's C++ ``MCTSBot`` on ``bot_seats``, its random
    rollout evaluator, and uniform random bots (pyspiel's ``evaluate_bots``)."""
    bots = [pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed + seat), uct_c, simulations, 1000, False,
                            seed + seat, False)
            if seat in bot_seats else pyspiel.make_uniform_random_bot(seat, seed + seat) for seat in range(4)]
    return list(pyspiel.evaluate_bots(state, bots, seed))


#: Plays a dealt game to its end: (game, state, bot seats, simulations, uct_c, seed) -> returns.
Player = Callable[[Any, Any, tuple[int, int], int, float, int], list[float]]


def play(game: Any, player: Player, seed: int, pair: int, swapped: bool, simulations: int, uct_c: float) -> float:
    """One game of the pair, dealt from the pair's deck order: the MCTS team's points minus the
    other's."""
    bot_seats = (1, 3) if swapped else (0, 2)
    cards = deck_order(seed, pair, 0)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(cards[len(state.position.dealt)])
    return player(game, state, bot_seats, simulations, uct_c, seed * 1000 + pair * 10 + swapped)[bot_seats[0]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=20, help="duplicate pairs of one-round games")
    parser.add_argument("--simulations", type=int, default=20, help="MCTS simulations per decision")
    parser.add_argument("--uct-c", type=float, default=300.0, help="UCT's exploration constant, in points")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", choices=("python", "cpp", "both"), default="both")
    args = parser.parse_args()
    if args.pairs < 1 or args.simulations < 1:
        parser.error("--pairs and --simulations are at least 1")
    game = pyspiel.load_game("python_tichu", {"target_score": 1000, "max_rounds": 1})
    players: dict[str, Player] = {"python": python_game, "cpp": cpp_game}
    for name in (("python", "cpp") if args.bot == "both" else (args.bot,)):
        points: list[float] = []
        times: list[float] = []
        for pair in range(args.pairs):
            for swapped in (False, True):
                started = time.perf_counter()
                points.append(play(game, players[name], args.seed, pair, swapped, args.simulations, args.uct_c))
                times.append(time.perf_counter() - started)
        mean, low, high = mean_interval(points)
        print(f"{name} MCTSBot n{args.simulations} vs uniform random, {len(points)} one-round games: "
              f"{mean:+.1f} points per round (95% CI {low:+.1f} .. {high:+.1f}); a game "
              f"{statistics.median(times):.1f} s (median), {sum(times):.0f} s in all")


if __name__ == "__main__":
    main()
