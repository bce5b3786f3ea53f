"""Agents making a game's decisions in a plain loop over the rules core (no event loop).

Agents answer at once, so a game of agents only needs no engine: :class:`AgentDriver` asks
whichever seat the :class:`~tichu.core.flow.GameState` names, checks the answer against what
the state allows (an agent is trusted no more than a client: an invalid answer is logged and
replaced by the state's :meth:`~tichu.core.flow.GameState.fallback`), and applies it. Each
question comes with the seat's frozen :class:`~tichu.core.views.SeatView` (R8), made
exactly as the engine makes it, so an agent decides here as it would at the engine. The
Arena plays its games so (:func:`play_game`); the learning environment lets it play the
seats of its opponents and stops where a learner decides.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from tichu.agents.agent import Agent
from tichu.core.errors import RuleViolation
from tichu.core.flow import GameState
from tichu.core.round import Action, ActionKind, Decision
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView, TableInfo, follow, view_of

log = logging.getLogger(__name__)


class AgentDriver:
    """Agents deciding for the seats of a game state, seat by seat as the state asks.

    :ivar state: The game.
    :ivar agents: Per seat its agent, or ``None`` for a seat decided elsewhere (a learner).
    :ivar info: The table's facts the agents' views show (names, scores, phase).
    """

    def __init__(self, state: GameState, agents: Sequence[Agent | None], info: TableInfo | None = None) -> None:
        if len(agents) != 4:
            raise ValueError("a table has four seats")
        self.state = state
        self.agents = list(agents)
        names = [agent.name if agent is not None else "" for agent in agents]
        self.info = info or TableInfo(player_names=names)
        self.info.is_running = True
        follow(self.info, state)

    def view(self, seat: int, reads_table: bool = True) -> SeatView:
        """The seat's view now (R8)."""
        return view_of(self.info, self.state.round, seat, reads_table)

    def advance(self) -> None:
        """Make decisions until one falls to a seat without an agent, or the game is over.

        Seats that decide at once (Grand Tichu, the push) are asked in seat order; the state
        lets none of them see another's answer first (R2.1, R2.3).
        """
        state = self.state
        agents = self.agents
        info = self.info
        play_decision = Decision.PLAY
        legal_plays, apply_play = state.legal_plays, state.apply_play  # the Arena's hot path
        while True:
            decision = state.decision
            seat = state.decision_seat
            if decision == play_decision:
                assert seat is not None
                agent = agents[seat]
                if agent is None:
                    return
                legal = legal_plays()
                choice = agent.decide_play(view_of(info, state.round, seat, agent.reads_table), legal)
                try:
                    play = legal[legal.index(choice)]  # the state's own play, not the answer
                except ValueError:
                    log.warning("agent %s answered an illegal play %r", agent.name, choice)
                    state.apply(state.fallback(seat))
                    continue
                apply_play(play)
            elif decision == Decision.DEAL:
                state.deal()
                follow(info, state)
            elif decision == Decision.NONE:
                follow(info, state)
                info.is_running = False
                return
            else:
                assert seat is not None
                agent = agents[seat]
                if agent is None:
                    return
                self._decide(agent, seat, decision)

    def _decide(self, agent: Agent, seat: int, decision: Decision) -> None:
        """Ask an agent any decision but a play, and apply its answer (or the fallback)."""
        state = self.state
        view = view_of(self.info, state.round, seat, agent.reads_table)
        if decision == Decision.TICHU:
            if agent.decide_tichu(view) is True:
                state.call(seat)
            else:
                state.decline(seat)
            return
        if decision == Decision.BOMB:
            bombs = state.offered_bombs()
            choice = agent.decide_bomb(view, bombs)
            if choice is not None and choice in bombs:
                state.bomb(seat, choice.cards)
            else:
                state.decline(seat)
            return
        if decision == Decision.GRAND_TICHU:
            state.decide_grand_tichu(seat, agent.decide_grand_tichu(view) is True)
        elif decision == Decision.SCHUPF:
            self._apply_checked(Action(ActionKind.SCHUPF, seat, agent.decide_schupf(view)))
        elif decision == Decision.WISH:
            choices = state.round.wish_choices() if state.round is not None else []
            self._apply_checked(Action(ActionKind.WISH, seat, agent.decide_wish(view, choices)))
        elif decision == Decision.DRAGON:
            recipients = state.round.dragon_recipients() if state.round is not None else []
            self._apply_checked(Action(ActionKind.DRAGON, seat, agent.decide_dragon(view, recipients)))
        follow(self.info, state)

    def _apply_checked(self, action: Action) -> None:
        """Apply an agent's answer; one the rules refuse is logged and replaced by the fallback."""
        try:
            self.state.apply(action)
        except (RuleViolation, TypeError, ValueError) as error:
            log.warning("seat %d answered against the rules (%s)", action.seat, error)
            self.state.apply(self.state.fallback(action.seat))


def play_game(agents: Sequence[Agent], rules: RuleSet, *, seed: int | None = None,
              keep_rounds: bool = False) -> GameState:
    """Play one game of four agents to its end (R7.4).

    :param agents: The agents, seat 0 first.
    :param rules: The rule set.
    :param seed: (Optional) Seed of the game's shuffles (the caller's: the agents never see
        it, R8); ``None`` for random ones.
    :param keep_rounds: Keep the finished rounds (for a game record).
    :returns: The finished game's state.
    """
    state = GameState(rules, seed=seed, keep_rounds=keep_rounds)
    AgentDriver(state, agents).advance()
    return state


__all__ = ["AgentDriver", "play_game"]
