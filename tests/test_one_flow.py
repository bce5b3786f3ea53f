"""One game, one flow, one way to search (issue 34, part 1): the worlds a search draws for a seat
are states of the core's own flow that the seat cannot tell from the real game (R8).

Over states reached by seeded games of the flow (every kind of decision: Grand Tichu, the push,
offered calls and bombs, plays, a pending wish, a pending Dragon gift, bomb offers on a closed
trick, tricks whose owner went out), for the deciding seat:

- a world built by the core (:func:`~tichu.core.worlds.world_of`) with the true hidden part is
  the real state: the same decision, seat and legal actions, and after every legal action the
  same decision and the same view for every seat;
- worlds drawn by the searches' one sampler (:class:`~tichu.agents.support.worlds.WorldSampler`)
  are at the same decision of the same seat, with the same legal actions and the same view for
  the seat, and a round played on in them ends.

Nothing outside the core re-derives who plays next, the wish's effect or the Dragon gift: the
searches reach their worlds through these functions only, which these tests hold to the flow.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.flow_games import positions
from tichu.agents.heuristic_policy import WEIGHTS, HeuristicPolicy, rollout_weights
from tichu.agents.support.rollout import rollout
from tichu.agents.support.worlds import WorldSampler
from tichu.core.flow import GameState
from tichu.core.round import Action, Decision, Phase
from tichu.core.views import SeatView, TableInfo, follow, view_of
from tichu.core.worlds import Answer, Hidden, world_of

POLICY = HeuristicPolicy(rollout_weights(WEIGHTS), 0)
SEARCHED = (Decision.GRAND_TICHU, Decision.SCHUPF, Decision.TICHU, Decision.BOMB, Decision.PLAY, Decision.WISH,
            Decision.DRAGON)


def true_hidden(state: GameState) -> Hidden:
    """The real hidden part of a state (what a perfect sampler would draw)."""
    round_ = state.round
    assert round_ is not None
    if round_.phase == Phase.GRAND_TICHU:
        return Hidden(list(round_.hands), list(round_.second_deal), _answers(state))
    if round_.phase == Phase.SCHUPF:
        return Hidden(list(round_.hands), None, _answers(state))
    return Hidden(list(round_.hands), None, None, [given for given in round_.given if given is not None])


def _answers(state: GameState) -> list[Answer]:
    """The answers given so far by the seats deciding at once (held back by the flow)."""
    answers: list[Answer] = []
    for answer in state._pending:
        assert answer is None or isinstance(answer, bool | tuple)
        answers.append(answer if not isinstance(answer, tuple) else (answer[0], answer[1], answer[2]))
    return answers


def facts(state: GameState, info: TableInfo) -> tuple[object, ...]:
    """Everything a seat can know of a state, for every seat, and whose decision it is."""
    views: list[SeatView] = [view_of(info, state.round, seat) for seat in range(4)]
    return state.decision, state.decision_seat, tuple(views), tuple(state.legal_actions())


def _actions(state: GameState, rng: random.Random) -> list[Action]:
    legal = state.legal_actions()
    return rng.sample(legal, 6) if len(legal) > 12 else legal  # the push: a few of its 2184


@pytest.mark.parametrize("seed", range(12))
def test_a_world_with_the_true_hidden_part_is_the_real_state_issue_34_part_1(seed: int) -> None:
    """issue 34, part 1: the core builds the real state from a seat's view and the true hidden
    part, at every decision; every legal action then leads where it leads in the real game."""
    rng = random.Random(seed)
    kinds = set()
    for state, info in positions(seed):
        seat = state.decision_seat
        assert seat is not None
        view = view_of(info, state.round, seat)
        world = world_of(view, state.decision, true_hidden(state))
        kinds.add(state.decision)
        assert facts(world, info) == facts(state, info), state.decision.name
        for action in _actions(state, rng):
            real, guess = state.clone(), world.clone()
            real.apply(action)
            guess.apply(action)
            if real.round is not None and real.round.is_over:
                assert guess.round is not None and guess.round.result() == real.round.result()
            else:
                assert facts(guess, info) == facts(real, info), (state.decision.name, action)
    assert {Decision.GRAND_TICHU, Decision.SCHUPF, Decision.PLAY} <= kinds


def test_the_games_reach_every_kind_of_decision_and_the_hard_positions() -> None:
    """The seeded games above (and the drawn worlds below) cover what the old search refused:
    a pending wish, a pending Dragon gift, bomb offers on a closed trick, owner-out tricks."""
    kinds: set[Decision] = set()
    closed_bomb = owner_out = False
    for seed in range(12):
        for state, _ in positions(seed):
            kinds.add(state.decision)
            round_ = state.round
            assert round_ is not None
            closed_bomb |= state.decision == Decision.BOMB and round_.trick_closed
            owner = round_.trick_owner
            owner_out |= bool(round_.trick_turns) and owner is not None and not round_.hands[owner] \
                and state.decision in (Decision.PLAY, Decision.BOMB)
    assert set(SEARCHED) <= kinds
    assert closed_bomb and owner_out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000), draw=st.integers(0, 10_000))
def test_drawn_worlds_are_at_the_seats_decision_and_look_the_same_issue_34_part_1(seed: int, pick: int,
                                                                                  draw: int) -> None:
    """issue 34, part 1: a world drawn by the one sampler for the deciding seat (any seat still
    to answer at Grand Tichu and the push) is at its decision, with its legal actions and its
    view; each legal action applies in it, and the round played on from there ends."""
    found = list(positions(seed))
    state, info = found[pick % len(found)]
    info = TableInfo(is_running=True)
    follow(info, state)
    rng = random.Random(draw)
    for seat, decision in state.open_decisions():
        view = view_of(info, state.round, seat)
        world = WorldSampler(view, decision, POLICY).draw(rng)
        assert world.decision == decision and world.decision_seat == seat
        assert world.legal_actions(seat) == state.legal_actions(seat)
        assert view_of(info, world.round, seat) == view
        for action in _actions(world, rng)[:4]:
            branch = world.clone()
            branch.apply(action)
            rollout(branch, POLICY)
            assert branch.is_over and branch.round is not None and branch.round.result()


def test_a_hidden_part_that_disagrees_with_the_view_is_refused() -> None:
    """Bad input gets a clear error: the seat's own hand, the hand sizes and the decision must agree."""
    state, info = next((state, info) for state, info in positions(1) if state.decision == Decision.PLAY)
    seat = state.decision_seat
    assert seat is not None
    view = view_of(info, state.round, seat)
    hidden = true_hidden(state)
    hands = list(hidden.hands)
    other = (seat + 1) % 4
    swapped = hands[seat] & -hands[seat], hands[other] & -hands[other]
    wrong = list(hands)
    wrong[seat] = hands[seat] ^ swapped[0] | swapped[1]
    wrong[other] = hands[other] ^ swapped[1] | swapped[0]
    with pytest.raises(ValueError, match="own"):
        world_of(view, Decision.PLAY, hidden._replace(hands=wrong))
    with pytest.raises(ValueError, match="not at seat"):
        world_of(view, Decision.WISH, hidden)
