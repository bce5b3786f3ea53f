"""OpenSpiel's ISMCTS against our agents, whole games on ``python_tichu`` (``pip install
tichu[spiel]``; ``tichu-spiel-arena`` turns the games into the Arena's statistics).

The bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with
:class:`~tichu.learn.spiel_evaluator.RoundRolloutEvaluator`) plays one team, our agent (a registry
name) the other. The bot sees its OpenSpiel state, as OpenSpiel's bots do: what it learns of
the hidden cards comes through the information state and ``resample_from_infostate``, both R8-clean
(:mod:`tichu.learn.spiel_info`, :mod:`tichu.learn.spiel_worlds`). Our agents see the game only
through their seat's frozen :class:`~tichu.core.views.SeatView` (R8), made with
:func:`~tichu.core.views.view_of` as :class:`~tichu.agents.driver.AgentDriver` makes it; their
answers become catalogue actions, as in the PettingZoo environment (a play's cards are those the
catalogue lays for its shape, :func:`~tichu.agents.learning.actions.choose_cards`; an answer the
rules refuse is logged and replaced by no call, no bomb, the pass, or else the first allowed action).

Games come in duplicate pairs as in the Arena's ``--duplicate``: games ``2k`` and ``2k + 1`` play
the same deals round by round, the bot on seats 0 and 2 in the first and on 1 and 3 in the second.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyspiel
from open_spiel.python.algorithms.ismcts import ISMCTSBot, ISMCTSFinalPolicyType

from tichu.agents.agent import Agent
from tichu.agents.learning.actions import CALL, NO, dragon_action, play_action, push_action, wish_action
from tichu.agents.registry import make_agent
from tichu.core.cards import indices_of
from tichu.core.outcomes import RoundResult
from tichu.core.round import Decision
from tichu.core.seats import TEAM_NAMES
from tichu.core.views import TableInfo, follow, view_of
from tichu.learn.spiel import SHORT_NAME, TichuState
from tichu.learn.spiel_evaluator import RoundRolloutEvaluator
from tichu.learn.spiel_position import DECK_SIZE, Position

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BotSettings:
    """The ISMCTS bot's settings.

    :ivar simulations: Simulations per decision (one sampled world and one rollout each).
    :ivar uct_c: UCT's exploration constant, in points (returns are score differences: a round's
        swing is some hundreds of points).
    :ivar rollouts: Rollouts per evaluation of a new node.
    """

    simulations: int = 50
    uct_c: float = 150.0
    rollouts: int = 1

    def label(self) -> str:
        """The bot's name in reports."""
        return f"ismcts:n{self.simulations}"


@dataclass(frozen=True)
class MatchGame:
    """One finished game of the bot against our agent.

    :ivar index: The game's number (games ``2k`` and ``2k + 1`` share their deals).
    :ivar swapped: The bot sat on seats 1 and 3.
    :ivar results: The rounds' results (``points`` per team of seats 0+2, 1+3).
    :ivar winner_team: 0 if the team of seats 0 and 2 won, 1 if the other, ``None`` when the
        game stopped after ``max_rounds`` rounds without a winner.
    :ivar bot_times: Seconds of each bot decision with more than one legal action.
    :ivar agent_times: Seconds of each of our agent's decisions with more than one option (a push
        counts once).
    """

    index: int
    swapped: bool
    results: tuple[RoundResult, ...]
    winner_team: int | None
    bot_times: tuple[float, ...]
    agent_times: tuple[float, ...]


def deck_order(seed: int, pair: int, round_index: int) -> list[int]:
    """The order a round's cards are dealt in: the same for both games of a duplicate pair."""
    cards = list(range(DECK_SIZE))
    random.Random(f"tichu-spiel:{seed}:{pair}:{round_index}").shuffle(cards)
    return cards


def agent_actions(agent: Agent, position: Position, info: TableInfo) -> list[int]:
    """Our agent's answer to the current decision, as catalogue actions (three for the push),
    asked with its seat's view only (R8): Grand Tichu (R2.1), the push (R2.3), an offered Tichu
    call (R6.1) or bomb (R4.3), a play (R4.1), the wish (R5.1), the Dragon gift (R4.5).

    :param info: The table's facts the views show (brought up to date here).
    """
    core = position.core
    round_ = core.round
    seat = core.decision_seat
    assert round_ is not None and seat is not None
    follow(info, core)
    view = view_of(info, round_, seat, agent.reads_table)
    allowed = position.choice().answers
    decision = core.decision
    wanted: list[int] = []
    if decision == Decision.PLAY:
        legal = core.legal_plays()
        play = agent.decide_play(view, legal)
        wanted = [play_action(play)] if play in legal else []
    elif decision == Decision.TICHU:
        wanted = [CALL if agent.decide_tichu(view) is True else NO]
    elif decision == Decision.BOMB:
        bombs = core.offered_bombs()
        bomb = agent.decide_bomb(view, bombs)
        if bomb is None:
            wanted = [NO]
        elif bomb in bombs:
            wanted = [play_action(bomb)]
    elif decision == Decision.GRAND_TICHU:
        wanted = [CALL if agent.decide_grand_tichu(view) is True else NO]
    elif decision == Decision.SCHUPF:
        return _push_actions(agent.decide_schupf(view), round_.hands[seat])
    elif decision == Decision.WISH:
        value = agent.decide_wish(view, round_.wish_choices())
        wanted = [wish_action(value)] if value in round_.wish_choices() else []
    else:
        recipient = agent.decide_dragon(view, round_.dragon_recipients())
        wanted = [dragon_action(seat, recipient)] if recipient in round_.dragon_recipients() else []
    if not wanted or wanted[0] not in allowed:
        log.warning("agent %s answered against the rules at %s", agent.name, decision.name)
        return [NO if NO in allowed else min(allowed)]
    return wanted


def _push_actions(cards: tuple[int, ...], hand: int) -> list[int]:
    """A push (to right, partner, left) as three actions; the three lowest cards for one the rules
    refuse (R2.3)."""
    given = 0
    for card in cards:
        given |= card
    if len(cards) != 3 or given.bit_count() != 3 or any(card.bit_count() != 1 for card in cards) or given & ~hand:
        log.warning("a push against the rules (R2.3): the three lowest cards instead")
        return [push_action(index) for index in indices_of(hand)[:3]]
    return [push_action(card.bit_length() - 1) for card in cards]


def make_bot(game: object, settings: BotSettings, seed: int) -> ISMCTSBot:
    """OpenSpiel's ISMCTS with round-end rollouts, every choice seeded (its worlds too)."""
    rng = random.Random(seed)
    evaluator = RoundRolloutEvaluator(settings.rollouts, seed=rng.getrandbits(63))
    bot = ISMCTSBot(game, evaluator, settings.uct_c, settings.simulations,
                    random_state=np.random.RandomState(rng.getrandbits(32)),
                    final_policy_type=ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    worlds = random.Random(rng.getrandbits(63))
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.random))
    return bot


def play_match_game(opponent: str, index: int, *, seed: int, target_score: int, max_rounds: int,
                    settings: BotSettings) -> MatchGame:
    """Play game ``index`` of a match: the bot against ``opponent`` (a registry name)."""
    game = pyspiel.load_game(SHORT_NAME, {"target_score": target_score, "max_rounds": max_rounds})
    pair, swapped = index // 2, index % 2 == 1
    bot_seats = (1, 3) if swapped else (0, 2)
    seeds = random.Random(f"tichu-spiel:{seed}:{index}")
    bot = make_bot(game, settings, seeds.getrandbits(63))
    agents = {seat: make_agent(opponent, name=f"{opponent}-{seat}", seed=seeds.getrandbits(63))
              for seat in range(4) if seat not in bot_seats}
    info = TableInfo(player_names=[settings.label() if seat in bot_seats else agents[seat].name for seat in range(4)])
    info.is_running = True
    state: TichuState = game.new_initial_state()
    position = state.position
    bot_times: list[float] = []
    agent_times: list[float] = []
    while not state.is_terminal():
        if state.is_chance_node():
            for card in deck_order(seed, pair, position.rounds_played):
                state.apply_action(card)
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        started = time.perf_counter()
        if seat in bot_seats:
            actions = [int(bot.step(state))] if len(legal) > 1 else legal
            times = bot_times
        else:
            actions = agent_actions(agents[seat], position, info)
            times = agent_times
        if len(legal) > 1:
            times.append(time.perf_counter() - started)
        for action in actions:
            state.apply_action(action)
    core_game = position.core.game
    assert core_game is not None
    winner = core_game.winner
    return MatchGame(index, swapped, tuple(core_game.results), None if winner is None else TEAM_NAMES.index(winner),
                     tuple(bot_times), tuple(agent_times))


def play_match(opponent: str, *, pairs: int, seed: int = 1, target_score: int = 1000, max_rounds: int = 50,
               settings: BotSettings | None = None,
               on_game: Callable[[MatchGame], None] | None = None) -> list[MatchGame]:
    """Play ``pairs`` duplicate pairs of games of the bot against ``opponent``, in this process.

    :param on_game: Called with each game as it ends (progress).
    """
    make_agent(opponent)  # fail early on an unknown name
    games = []
    for index in range(2 * pairs):
        played = play_match_game(opponent, index, seed=seed, target_score=target_score, max_rounds=max_rounds,
                                 settings=settings or BotSettings())
        if on_game is not None:
            on_game(played)
        games.append(played)
    return games


__all__ = ["BotSettings", "MatchGame", "agent_actions", "deck_order", "make_bot", "play_match", "play_match_game"]
