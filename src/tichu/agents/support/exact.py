"""An agent's own decisions in a two-seat endgame, solved exactly (R8, R7).

When only the deciding seat and one other still hold cards, the seat knows the other's hand:
it is every card it has not seen played (R8); so does a seat that went out while one other
holds cards. Its decision (a play, a bomb offered out of turn, the wish, the Dragon gift) is
then one of perfect information: the core builds the one world the seat's view allows
(:func:`~tichu.core.worlds.world_of`) and
:class:`~tichu.agents.support.endgame.EndgameSolver` gives every action's exact value over the
core's flow. The strong and the expert levels take the best of them instead of a heuristic
guess or a sampled estimate; where the solve does not finish within its budget they decide
as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from tichu.agents.support.endgame import EndgameSolver
from tichu.core.cards import DECK
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Action, ActionKind, Decision
from tichu.core.views import SeatView
from tichu.core.worlds import Hidden, world_of

#: Entries of an agent's transposition table (some 6 MB, docs/agents.md "Exact endgames"):
#: a server keeps one solver per agent seat, on a Pi with little memory.
AGENT_TABLE_LIMIT = 10_000


def known_hands(view: SeatView) -> list[int] | None:
    """The four hands where the seat knows them all (R8): at most one other seat holds cards,
    and it holds every card the seat has not seen; else ``None``."""
    public = view.public_state()
    counts = public.count_hand_cards
    others = [seat for seat in range(4) if counts[seat] and seat != view.seat]
    if len(others) > 1:
        return None
    hands = [0, 0, 0, 0]
    hands[view.seat] = view.hand
    unseen = DECK & ~public.played_cards & ~view.hand
    if others:
        if unseen.bit_count() != counts[others[0]]:
            return None
        hands[others[0]] = unseen
    return hands


def endgame_world(view: SeatView, decision: Decision) -> GameState | None:
    """The one world of a two-seat endgame at the seat's ``decision``, or ``None`` where the
    seat does not know every hand (:func:`known_hands`) or the view is at no such decision."""
    hands = known_hands(view)
    if hands is None:
        return None
    try:
        return world_of(view, decision, Hidden(hands))
    except ValueError:
        return None


def exact_action(view: SeatView, decision: Decision, preferred: Sequence[Action], solver: EndgameSolver,
                 deadline: float | None = None) -> Action | None:
    """The action of greatest exact value at a two-seat endgame, the first of ``preferred`` (a
    policy's choice or ranking) among equals; ``None`` where :func:`endgame_world` has no
    world or the solve runs out of nodes or time.

    :param preferred: Actions in the order to break ties by; the other legal actions come
        after them, in the solver's order.
    :param deadline: (Optional) When the solve gives up (``time.monotonic()``).
    """
    world = endgame_world(view, decision)
    if world is None:
        return None
    solution = solver.solve(world, view.seat, deadline)
    if not solution.exact:
        return None
    best = set(solution.best)
    return next((action for action in [*preferred, *solution.actions] if action in best), None)


def play_action(seat: int, play: Play) -> Action:
    """The action of a play or pass at the seat's turn (R4.1)."""
    return Action(ActionKind.PLAY, seat, play.cards) if play.cards else Action(ActionKind.PASS, seat)


def bomb_action(seat: int, bomb: Play | None) -> Action:
    """The action of a bomb thrown out of turn when offered (R4.3), or of the offer declined."""
    return Action(ActionKind.DECLINE, seat) if bomb is None else Action(ActionKind.BOMB, seat, bomb.cards)


__all__ = ["AGENT_TABLE_LIMIT", "bomb_action", "endgame_world", "exact_action", "known_hands", "play_action"]
