"""The rounds a Monte Carlo search plays out: one branch per option of a decision (R8).

The expert (:class:`~tichu.agents.mc_agent.MonteCarloAgent`) and the game analysis
(:mod:`tichu.analysis`) weigh a decision the same way: they draw deals that agree with what
the deciding seat knows, build from each deal one round per option (a candidate play, a call
or none, a push, a bomb or none, a wish, a Dragon recipient), finish every round with the
rollout policy and compare the round values paired over the same deals. This module holds
that way once: the deal drawers and, per kind of decision, the builder of the branches.

A builder takes the seat's frozen :class:`~tichu.core.views.SeatView` and the options and
returns a function of one drawn deal that makes the list of branch states (one per option,
in the options' order). Nothing here reads a hidden card: deals come from
:func:`play_sampler` (the seat's knowledge, weighted by the evidence of passes and calls) or,
before the play, from the cards the seat has not seen (:func:`start_drawer`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from tichu.agents.heuristic_policy import HeuristicPolicy
from tichu.agents.mc_search import SearchOptions, deal_from, deal_start, unknown_cards
from tichu.agents.support.inference import WeightedSampler, evidence_of
from tichu.agents.support.knowledge import knowledge_of
from tichu.agents.support.prob import DealSampler
from tichu.agents.support.rollout import RolloutPolicy, at_decision, resume_at, rollout, round_value
from tichu.core.combos import Play
from tichu.core.flow import GameState
from tichu.core.round import Round
from tichu.core.views import SeatView, TablePhase

#: Makes the branch states of one drawn deal, one per option in order.
Builder = Callable[[Any], list[GameState]]
#: Draws one deal with a random source.
Drawer = Callable[[random.Random], Any]


def play_sampler(view: SeatView, inference: bool) -> DealSampler | WeightedSampler:
    """A sampler of the hidden hands from the seat's knowledge (R8): uniform over every deal
    that agrees with it, or weighted by the passes and calls seen (``inference``).

    :raises ValueError: If the knowledge admits no deal.
    """
    public, private = view.public_state(), view.private_state()
    sampler = DealSampler(knowledge_of(public, private))
    if not inference:
        return sampler
    return WeightedSampler(sampler, evidence_of(public, view.seat))


def searchable(view: SeatView) -> bool:
    """Whether a round can be resumed from this view in play (else the heuristic decides): in
    play at someone's turn, and not on the trick of a seat that went out with it."""
    public = view.public_state()
    if public.phase != TablePhase.PLAYING or public.current_turn_index is None:
        return False
    owner = public.trick_owner_index
    return not (owner is not None and not public.count_hand_cards[owner] and public.trick_turns)


def start_drawer(view: SeatView, first_eight: bool) -> Drawer:
    """Deals before the play: the seat keeps its cards (its first eight at Grand Tichu,
    ``first_eight``, else its fourteen) and the cards it has not seen are shuffled to the rest."""
    own = [0, 0, 0, 0]
    own[view.seat] = view.hand

    def draw(rng: random.Random) -> list[tuple[int, int]]:
        cards = unknown_cards(view.hand)
        rng.shuffle(cards)
        return deal_from(own, view.seat, first_eight, cards)

    return draw


def play_out(state: GameState, seat: int, policy: RolloutPolicy, options: SearchOptions) -> int:
    """Finish a branch's round with ``policy`` (``seat`` never calls: the search decides its
    call) and return its value for ``seat``: its team's points minus the other team's (R7)."""
    rollout(state, policy, bombs=options.rollout_bombs, calls=options.rollout_calls, quiet_seat=seat)
    return round_value(state, seat)


def play_branches(view: SeatView, plays: Sequence[Play]) -> Builder:
    """Each candidate play (or pass) made at the seat's turn (R4.1)."""
    public = view.public_state()
    rules, seat = view.rules, view.seat

    def build(hands: list[int]) -> list[GameState]:
        resumed = resume_at(rules, hands, public, seat)
        for other in range(4):
            resumed.combinations(other)  # shared by the clones
            resumed.holds_bomb(other)  # the bombs too
        start = at_decision(resumed)
        states = []
        for play in plays:
            state = start.clone()
            state.apply_play(play)
            states.append(state)
        return states

    return build


def grand_branches(view: SeatView, policy: HeuristicPolicy) -> Builder:
    """Whole rounds from the deal with the seat's Grand Tichu not called and called (R2.1):
    options ``(False, True)``; the other seats call and push as ``policy`` does."""
    rules, seat, calls = view.rules, view.seat, view.public_state().announcements

    def build(deal: list[tuple[int, int]]) -> list[GameState]:
        return [deal_start(rules, deal, policy, seat, calls, grand=call, push=None) for call in (False, True)]

    return build


def push_branches(view: SeatView, pushes: Sequence[tuple[int, int, int]], policy: HeuristicPolicy) -> Builder:
    """Whole rounds from the push on, each with one of ``pushes`` (to right, partner, left;
    R2.3); the other seats push as ``policy`` does."""
    rules, seat, calls = view.rules, view.seat, view.public_state().announcements

    def build(deal: list[tuple[int, int]]) -> list[GameState]:
        return [deal_start(rules, deal, policy, seat, calls, grand=None, push=push) for push in pushes]

    return build


def tichu_branches(view: SeatView) -> Builder:
    """The round at this moment without and with the seat's Tichu call (R6.1): options
    ``(False, True)``."""
    public = view.public_state()
    rules, seat = view.rules, view.seat

    def build(hands: list[int]) -> list[GameState]:
        states = []
        for call in (False, True):
            round_ = resume_at(rules, hands, public, public.current_turn_index or 0)
            if call:
                round_.announce(seat)
            states.append(at_decision(round_))
        return states

    return build


def bomb_branches(view: SeatView, bombs: Sequence[Play | None]) -> Builder:
    """The round with each of ``bombs`` thrown out of turn now (``None``: none; R4.3)."""
    public = view.public_state()
    rules, seat = view.rules, view.seat

    def build(hands: list[int]) -> list[GameState]:
        states = []
        for bomb in bombs:
            round_ = resume_at(rules, hands, public, public.current_turn_index or 0)
            if bomb is None:
                states.append(at_decision(round_))
            else:
                round_.bomb(seat, bomb.cards)  # on the trick as it lies, closed or not (R4.3)
                states.append(GameState.within(round_, offered=False))  # a bomb starts the offers afresh
        return states

    return build


def wish_turn(view: SeatView) -> int | None:
    """Who plays after the Mah Jong's wish: the next seat after this one that holds cards."""
    counts = view.public_state().count_hand_cards
    return next((seat % 4 for seat in range(view.seat + 1, view.seat + 4) if counts[seat % 4]), None)


def wish_branches(view: SeatView, wishes: Sequence[int], turn: int) -> Builder:
    """The round after the Mah Jong with each of ``wishes`` (0: none; R5.1), ``turn`` next."""
    public = view.public_state()
    rules, seat = view.rules, view.seat

    def build(hands: list[int]) -> list[GameState]:
        states = []
        for wish in wishes:
            round_ = resume_at(rules, hands, public, turn)
            round_.trick_owner = seat
            round_.wish_value = wish
            round_.wish_open = wish != 0
            states.append(at_decision(round_))
        return states

    return build


def dragon_branches(view: SeatView, recipients: Sequence[int]) -> Builder:
    """The round after the Dragon's trick went to each of ``recipients`` (R4.5)."""
    public = view.public_state()
    rules, points = view.rules, public.trick_points

    def build(hands: list[int]) -> list[GameState]:
        states = []
        for recipient in recipients:
            round_ = Round.resume(rules, hands, turn=public.current_turn_index or 0,
                                  announcements=public.announcements, trick_turns=(), trick_owner=None,
                                  wish_value=public.wish_value, wish_open=public.wish_open,
                                  won_points=public.points, out_order=public.out_order, played=public.played_cards)
            round_.carried_points[recipient] += points
            states.append(at_decision(round_))
        return states

    return build


__all__ = ["Builder", "Drawer", "bomb_branches", "dragon_branches", "grand_branches", "play_branches",
           "play_out", "play_sampler", "push_branches", "searchable", "start_drawer", "tichu_branches",
           "wish_branches", "wish_turn"]
