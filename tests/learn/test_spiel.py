"""Tichu in OpenSpiel (``python_tichu``): OpenSpiel's own random simulation test, the chance model
(R2.1, R2.2), zero-sum returns that are the core's scores (R7.3, R7.4), what a seat knows (R8: the
cards hidden from it dealt anew change neither its information state nor its observation), the
worlds ISMCTS samples, refusals, and whole games of OpenSpiel's ISMCTS against our agents."""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Iterator

import numpy as np
import pytest

from tests.support.extras import require

require("pyspiel", "spiel")

import pyspiel  # noqa: E402
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots.uniform_random import UniformRandomBot  # noqa: E402

from tichu.agents.learning.actions import NO, SIZE  # noqa: E402
from tichu.core.cards import DECK, indices_of  # noqa: E402
from tichu.core.round import Phase  # noqa: E402
from tichu.core.seats import partner  # noqa: E402
from tichu.learn.spiel import ROUND_DECISIONS, ROUND_SWING, SHORT_NAME, TichuGame, TichuState  # noqa: E402
from tichu.learn.spiel_evaluator import RoundRolloutEvaluator  # noqa: E402
from tichu.learn.spiel_info import TENSOR_SIZE  # noqa: E402
from tichu.learn.spiel_match import BotSettings, deck_order, play_match, play_match_game  # noqa: E402
from tichu.learn.spiel_position import Position, deal_of  # noqa: E402


def load(target_score: int = 200, max_rounds: int = 2, reward_model: str = "terminal") -> TichuGame:
    game: TichuGame = pyspiel.load_game(SHORT_NAME, {"target_score": target_score, "max_rounds": max_rounds,
                                                     "reward_model": reward_model})
    return game


def random_states(game: TichuGame, seed: int, every: int = 1) -> Iterator[TichuState]:
    """Every ``every``-th decision state of a game of uniformly random actions, then its end."""
    rng = random.Random(seed)
    state: TichuState = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            if decisions % every == 0:
                yield state
            decisions += 1
        state.apply_action(rng.choice(state.legal_actions()))
    yield state


def hidden_from(position: Position, seat: int, rng: random.Random) -> Position:
    """The cards the seat cannot see shuffled among the places it cannot see, and the other seats'
    held-back answers drawn anew: a world it must not tell from ``position`` (R8). Cruder than
    ``spiel_worlds``: it ignores what the seat could infer, which its view must not show either."""
    round_ = position.core.round
    assert round_ is not None
    hands = list(round_.hands)
    if round_.phase == Phase.PLAYING:
        hidden = [card for other in range(4) if other != seat for card in indices_of(hands[other])]
        rng.shuffle(hidden)
        for other in range(4):
            if other != seat:
                size = hands[other].bit_count()
                hands[other] = sum(1 << card for card in hidden[:size])
                hidden = hidden[size:]
        return position.redealt(hands)
    hidden = indices_of(DECK & ~hands[seat])
    rng.shuffle(hidden)
    size = hands[seat].bit_count()
    for other in range(4):
        if other != seat:
            hands[other] = sum(1 << card for card in hidden[:size])
            hidden = hidden[size:]
    if round_.phase == Phase.GRAND_TICHU:
        rest = [sum(1 << card for card in hidden[6 * other:6 * other + 6]) for other in range(4)]
        grand = [answer if other == seat or answer is None else rng.random() < 0.5
                 for other, answer in enumerate(position.grand)]
        return position.redealt(hands, rest, grand=grand)
    pushes = [list(cards) if other == seat else [1 << card for card in rng.sample(indices_of(hands[other]), len(cards))]
              for other, cards in enumerate(position.pushes)]
    return position.redealt(hands, pushes=pushes)


def with_position(game: TichuGame, position: Position) -> TichuState:
    state: TichuState = game.new_initial_state()
    state.position = position
    return state


def test_openspiels_random_simulation_test_passes() -> None:
    """OpenSpiel's own checks over random games: legal actions sorted and masked, chance outcomes,
    clones, every observation for every player, rewards adding up to returns, zero-sum, the
    utility bounds and the game's length."""
    for reward_model in ("terminal", "rewards"):
        pyspiel.random_sim_test(load(200, 2, reward_model), num_sims=2, serialize=False, verbose=False)


def test_the_game_registers_with_its_parameters_and_bounds() -> None:
    game = pyspiel.load_game(SHORT_NAME)
    assert game.get_parameters() == {"target_score": 1000, "max_rounds": 50, "reward_model": "terminal"}
    assert game.num_players() == 4 and game.num_distinct_actions() == SIZE == 737
    assert game.max_chance_outcomes() == 56
    assert game.max_utility() == -game.min_utility() == ROUND_SWING * 50 == 40_000  # R6.2, R7.1
    assert game.max_game_length() == ROUND_DECISIONS * 50 and ROUND_DECISIONS == 2462
    assert game.information_state_tensor_size() == game.observation_tensor_size() == TENSOR_SIZE == 623
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    with pytest.raises(Exception, match="target_score and max_rounds"):
        pyspiel.load_game(SHORT_NAME, {"max_rounds": 0})


def test_rewards_are_terminal_by_default_and_per_round_by_parameter() -> None:
    """Issue 34, finding "OpenSpiel": the game is registered, and loads by default, with terminal
    rewards, as OpenSpiel's MCTS needs; ``reward_model="rewards"`` gives OpenSpiel's per-transition
    rewards; another model is refused by name."""
    assert pyspiel.load_game(SHORT_NAME).get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert {game.short_name: game.reward_model for game in pyspiel.registered_games()}[SHORT_NAME] == \
        pyspiel.GameType.RewardModel.TERMINAL
    assert load(reward_model="rewards").get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    with pytest.raises(Exception, match="reward_model 'round'"):
        pyspiel.load_game(SHORT_NAME, {"reward_model": "round"})


@pytest.mark.parametrize("reward_model", ["terminal", "rewards"])
def test_the_rewards_of_every_transition_add_up_to_the_returns(reward_model: str) -> None:
    """Issue 34, finding "OpenSpiel": a reward is that of the last transition only, as OpenSpiel
    defines it: summed over every transition of whole games, the deal's cards included, the rewards
    equal the returns at the end (a round's points counted once, not again at each of the next
    deal's 56 chance nodes). With terminal rewards the returns are zero until the end. Per round, a
    round's points are paid once, with the transition that arrives where a seat decides next (the
    next deal's last card) or at the end, where OpenSpiel's ``rl_environment`` reads them."""
    for seed in range(3):
        rng = random.Random(seed)
        state: TichuState = load(300, 3, reward_model).new_initial_state()
        earned = np.zeros(4)
        payments = []
        while not state.is_terminal():
            assert reward_model == "rewards" or state.returns() == [0.0] * 4
            dealing = state.is_chance_node()
            state.apply_action(rng.choice(state.legal_actions()))
            rewards = state.rewards()
            earned += rewards
            assert list(earned) == state.returns()
            if any(rewards):
                assert state.is_terminal() or (dealing and not state.is_chance_node())
                payments.append(rewards)
        assert state.core.game is not None
        total = state.core.game.total
        assert state.returns() == [total[0] - total[1], total[1] - total[0]] * 2
        if reward_model == "rewards":
            points = [result.points[0] - result.points[1] for result in state.core.game.results]
            assert [payment[0] for payment in payments] == [value for value in points if value]
            assert all(payment == [payment[0], -payment[0]] * 2 for payment in payments)
        else:
            assert len(payments) <= 1


@pytest.mark.parametrize("reward_model", ["terminal", "rewards"])
def test_openspiels_rl_environment_pays_each_round_once(reward_model: str) -> None:
    """Issue 34, finding "OpenSpiel": OpenSpiel's ``rl_environment`` deals the chance nodes before
    it reads the rewards, so a round's points must still be there after the next deal: the rewards
    of its time steps add up to the returns, in both reward models."""
    # The seed goes to the sampler: Environment(..., seed=4) would pass it on as a game setting,
    # which a game given as an object ignores, and deal at random.
    sampler = rl_environment.ChanceEventSampler(seed=4)
    environment = rl_environment.Environment(load(300, 3, reward_model), chance_event_sampler=sampler)
    rng = random.Random(4)
    step = environment.reset()
    earned = np.zeros(4)
    while not step.last():
        player = step.observations["current_player"]
        step = environment.step([rng.choice(step.observations["legal_actions"][player])])
        earned += step.rewards
    returns = environment.get_state.returns()
    assert any(returns) and list(earned) == returns


def test_the_deal_is_card_by_card_each_card_left_alike_likely() -> None:
    """R2.1, R2.2: the k-th card dealt goes to seat k % 4, into its first eight for k < 32."""
    state: TichuState = load().new_initial_state()
    rng = random.Random(3)
    dealt: list[int] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sorted(card for card, _ in outcomes) == sorted(set(range(56)) - set(dealt))
        assert sum(probability for _, probability in outcomes) == pytest.approx(1.0)
        assert state.legal_actions() == [card for card, _ in outcomes]
        dealt.append(rng.choice(outcomes)[0])
        state.apply_action(dealt[-1])
    round_ = state.core.round
    assert round_ is not None and round_.phase == Phase.GRAND_TICHU and state.current_player() == 0
    assert list(zip(round_.first_deal, round_.second_deal)) == deal_of(dealt)
    for place, card in enumerate(dealt):
        assert (round_.first_deal if place < 32 else round_.second_deal)[place % 4] >> card & 1


def test_returns_are_zero_sum_the_partners_alike_and_the_cores_scores() -> None:
    """R7.3, R7.4: each seat's return (so far, with per-round rewards) is its team's score minus the
    other's; the game ends at the target or after max_rounds. The rewards: the next test."""
    for seed in range(3):
        for state in random_states(load(300, 3, "rewards"), seed):
            returns = state.returns()
            assert state.core.game is not None
            total = state.core.game.total
            assert returns == [total[0] - total[1], total[1] - total[0]] * 2
            assert sum(returns) == 0 and all(returns[seat] == returns[partner(seat)] for seat in range(4))
        assert state.is_terminal() and (state.core.is_over or state.position.rounds_played == 3)


def test_r8_what_a_seat_knows_does_not_change_when_its_hidden_cards_are_dealt_anew() -> None:
    """R8: at some 500 points of every phase, for every seat, the cards it cannot see dealt anew (and the
    other seats' held-back Grand Tichu answers and pushes drawn anew) leave its information state
    and its observation, strings and tensors, as they were."""
    game = load(300, 2)
    rng = random.Random(11)
    phases = set()
    points = 0
    for seed in range(6):
        for state in random_states(game, seed, every=2):
            if state.is_terminal():
                break
            assert state.core.round is not None
            phases.add(state.core.round.phase)
            points += 1
            for seat in range(4):
                other = with_position(game, hidden_from(state.position, seat, rng))
                assert other.information_state_string(seat) == state.information_state_string(seat)
                assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert other.observation_string(seat) == state.observation_string(seat)
                assert other.observation_tensor(seat) == state.observation_tensor(seat)
    assert phases == {Phase.GRAND_TICHU, Phase.SCHUPF, Phase.PLAYING} and points > 400


def test_r8_the_information_state_never_shows_another_seats_bomb_offer() -> None:
    """R4.3: the core offers a bomb only to a seat holding one, so the offer tells of hidden cards:
    the other seats' information states say nothing of it (the seat asked sees its own)."""
    offers = 0
    for seed in range(30):
        for state in random_states(load(300, 2), seed):
            core = state.core
            if state.is_terminal() or core.decision.name != "BOMB":
                continue
            offers += 1
            assert "asked bomb" in state.information_state_string(core.decision_seat)
            for seat in set(range(4)) - {core.decision_seat}:
                assert "bomb" not in state.information_state_string(seat).rsplit("]", 1)[-1]
        if offers >= 5:
            break
    assert offers >= 5


def test_each_own_decision_of_a_round_has_its_own_information_state() -> None:
    """Perfect recall within a round: a seat's information states at its decisions all differ
    (ISMCTS keys its tree nodes by them)."""
    seen: set[str] = set()
    for state in random_states(load(300, 2), 4):
        if state.is_terminal():
            break
        key = state.information_state_string()
        assert key not in seen
        seen.add(key)


def test_a_resampled_state_keeps_the_seats_information_state_and_legal_actions() -> None:
    """What ISMCTS asserts, at points of every phase: the same information state for the seat,
    the same player and legal actions; the world plays on to the end."""
    game = load(300, 2)
    sampler = random.Random(2).random
    changed = 0
    for state in (point for seed in range(9, 12) for point in random_states(game, seed, every=2)):
        if state.is_terminal():
            continue
        seat = state.current_player()
        world: TichuState = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.current_player() == seat and world.legal_actions() == state.legal_actions()
        assert world.core.round is not None and state.core.round is not None
        changed += world.core.round.hands != state.core.round.hands
    assert changed > 100
    rng = random.Random(1)
    while not world.is_terminal():
        world.apply_action(rng.choice(world.legal_actions()))


def test_grand_tichu_worlds_mix_the_hidden_first_cards_with_those_still_to_deal() -> None:
    """R2.1: a seat deciding on Grand Tichu sees its eight cards only; in its worlds the other
    seats' eight come from all 48 hidden cards (the six still to be dealt included), and the
    answers given before it are drawn anew."""
    state = next(random_states(load(), 6))
    state.apply_action(NO)
    state.apply_action(1)
    round_ = state.core.round
    assert round_ is not None and state.current_player() == 2
    sampler = random.Random(4).random
    later = round_.second_deal[0] | round_.second_deal[1] | round_.second_deal[3]
    mixed, answers = 0, set()
    for _ in range(40):
        world: TichuState = state.resample_from_infostate(2, sampler)
        other = world.core.round
        assert other is not None and other.hands[2] == round_.hands[2]
        mixed += bool((other.hands[0] | other.hands[1] | other.hands[3]) & later)
        answers.add(tuple(world.position.grand))
    assert mixed > 30 and len(answers) > 1


def test_resampling_a_deal_in_progress_or_the_end_is_refused() -> None:
    state: TichuState = load().new_initial_state()
    state.apply_action(5)
    with pytest.raises(ValueError, match="deal in progress"):
        state.resample_from_infostate(0, random.Random(1).random)
    *_, end = random_states(load(200, 1), 2)
    with pytest.raises(ValueError, match="deal in progress"):
        end.resample_from_infostate(0, random.Random(1).random)


def test_actions_outside_the_legal_ones_are_refused_and_change_nothing() -> None:
    state: TichuState = load().new_initial_state()
    state.apply_action(7)
    with pytest.raises(ValueError, match="dealt already"):
        state.apply_action(7)
    state = next(random_states(load(), 1))
    before = str(state)
    forbidden = next(action for action in range(SIZE) if action not in state.legal_actions())
    with pytest.raises(ValueError, match="not allowed"):
        state.apply_action(forbidden)
    assert str(state) == before and state.legal_actions_mask().count(1) == len(state.legal_actions())


def test_the_evaluator_rolls_out_to_the_rounds_end() -> None:
    """Uniform random rollouts stop where the round ends (R7): the core's rounds grow by one."""
    state = next(random_states(load(1000, 5), 3))
    evaluator = RoundRolloutEvaluator(rollouts=2, seed=1)
    values = evaluator.evaluate(state)
    assert values.shape == (4,) and values.sum() == 0 and values[0] == values[2]
    prior = evaluator.prior(state)
    assert sorted(action for action, _ in prior) == state.legal_actions()
    assert sum(probability for _, probability in prior) == pytest.approx(1.0)
    assert state.position.rounds_played == 0 and not state.is_chance_node()


def test_a_short_ismcts_game_against_our_agents_runs(caplog: pytest.LogCaptureFixture) -> None:
    """OpenSpiel's ISMCTS with round-end rollouts plays a one-round game against the rule agent;
    every answer of our agents is one the rules allow (nothing logged)."""
    with caplog.at_level(logging.WARNING):
        game = play_match_game("rule", 1, seed=3, target_score=200, max_rounds=1, settings=BotSettings(simulations=3))
    assert game.swapped and len(game.results) == 1 and game.bot_times and game.agent_times
    assert not caplog.records


def test_duplicate_games_share_their_deals_and_the_script_reports_them() -> None:
    """Games 2k and 2k+1 deal the same cards round by round with the seats swapped, and the
    script turns them into the Arena's report with the bot as team A."""
    assert deck_order(1, 0, 0) == deck_order(1, 0, 0) != deck_order(1, 1, 0)
    games = play_match("random", pairs=1, seed=2, target_score=100, max_rounds=1, settings=BotSettings(simulations=2))
    assert [game.swapped for game in games] == [False, True]
    script = importlib.import_module("tichu.cli.spiel_arena")
    summaries = [script.summary(game) for game in games]
    assert all(stopped == (game.winner_team is None) for (_, stopped), game in zip(summaries, games))
    first, second = (summary for summary, _ in summaries)
    bot_points = [sum(result.points[1 if game.swapped else 0] for result in game.results) for game in games]
    assert [first.score[0], second.score[0]] == bot_points


def _finished(game: TichuGame, returns: list[float]) -> None:
    """A game's final returns: zero-sum, the partners alike, a round's swing at most per round."""
    assert sum(returns) == 0 and returns[0] == returns[2] and returns[1] == returns[3]
    assert abs(returns[0]) <= game.max_utility()


def test_openspiels_python_mcts_bot_plays_a_game_to_the_end() -> None:
    """Issue 34, finding "OpenSpiel": OpenSpiel's Python ``MCTSBot`` refused the game ("Game must
    have terminal rewards"); with its random rollouts it now plays a one-round game against
    uniform random bots to the end (``evaluate_bots``)."""
    game = load(200, 1)
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, 300.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    bots = [bot, *(UniformRandomBot(player, rng) for player in (1, 2, 3))]
    _finished(game, list(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)))


def test_openspiels_cpp_mcts_bot_plays_a_game_to_the_end() -> None:
    """Issue 34, finding "OpenSpiel": OpenSpiel's C++ ``MCTSBot`` (``pyspiel.MCTSBot``) takes the
    Python game through pyspiel's bindings and, with its random rollout evaluator, plays a
    one-round game against uniform random bots to the end in pyspiel's ``evaluate_bots`` (its own
    ``step``, called from Python, releases the interpreter lock before the search calls back into
    the Python game: docs/learning.md)."""
    game = load(200, 1)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 5), 300.0, 4, 100, False, 5, False)
    bots = [bot, *(pyspiel.make_uniform_random_bot(player, player) for player in (1, 2, 3))]
    _finished(game, pyspiel.evaluate_bots(game.new_initial_state(), bots, 5))
