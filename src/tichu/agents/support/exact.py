"""An agent's own decisions in a two-seat endgame, solved exactly (R8, R7).

When only the deciding seat and one other still hold cards, the seat knows the other's hand:
it is every card it has not seen played (R8). Its play is then a decision of perfect
information, and :class:`~tichu.agents.support.endgame.EndgameSolver` gives every legal
play's exact value over the core's flow. The strong and the expert levels play the best of
them instead of a heuristic guess or a sampled estimate; where the solve does not finish
within its budget they decide as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from tichu.agents.support.endgame import EndgameSolver
from tichu.agents.support.rollout import at_decision, resume_at
from tichu.core.cards import DECK
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import ActionKind, Decision
from tichu.core.views import SeatView

#: Entries of an agent's transposition table (some 6 MB, docs/benchmarks.md "Exact endgames"):
#: a server keeps one solver per agent seat, on a Pi with little memory.
AGENT_TABLE_LIMIT = 10_000


def endgame_world(view: SeatView) -> GameState | None:
    """The one world of a two-seat endgame at the seat's play, or ``None`` where the seat does
    not know every hand: more than two seats hold cards, or the round cannot be resumed there
    (a trick whose owner went out is taken first, :meth:`~tichu.core.round.Round.resume`)."""
    public = view.public_state()
    counts = public.count_hand_cards
    holders = [seat for seat in range(4) if counts[seat]]
    if public.current_turn_index != view.seat or len(holders) != 2 or view.seat not in holders:
        return None
    owner = public.trick_owner_index
    if owner is not None and not counts[owner] and public.trick_turns:
        return None
    other = holders[0] if holders[1] == view.seat else holders[1]
    unseen = DECK & ~public.played_cards & ~view.hand
    if unseen.bit_count() != counts[other]:
        return None
    hands = [0, 0, 0, 0]
    hands[view.seat], hands[other] = view.hand, unseen
    world = at_decision(resume_at(view.rules, hands, public, view.seat))
    return world if world.decision == Decision.PLAY and world.decision_seat == view.seat else None


def exact_play(view: SeatView, preferred: Sequence[Play], solver: EndgameSolver,
               deadline: float | None = None) -> Play | None:
    """The play of greatest exact value at a two-seat endgame, the first of ``preferred`` (a
    policy's ranking) among equals; ``None`` where :func:`endgame_world` has no world or the
    solve runs out of nodes or time.

    :param preferred: Plays in the order to break ties by; the legal plays not among them
        come after, in the core's order.
    :param deadline: (Optional) When the solve gives up (``time.monotonic()``).
    """
    world = endgame_world(view)
    if world is None:
        return None
    solution = solver.solve(world, view.seat, deadline)
    if not solution.exact:
        return None
    best = {action.number() if action.kind == ActionKind.PLAY else 0 for action in solution.best}
    for play in [*preferred, *world.legal_plays()]:
        if play.cards in best:
            return play
    return None


__all__ = ["AGENT_TABLE_LIMIT", "endgame_world", "exact_play"]
