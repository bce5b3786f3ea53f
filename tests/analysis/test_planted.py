"""Planted blunders (issue 25, "Done means"): a scripted person plays as the expert but for
planted blunders in seeded games against the expert; the analysis labels each planted
decision a mistake or a blunder, and the expert's own decisions stay within the noise."""

from __future__ import annotations

from typing import Any

import pytest

from tests.agents.test_agents import endgame, view_of
from tests.analysis.planted import PlantedPerson, planted_game
from tichu.analysis import DecisionPoint, Judgement, decision_points, judge

#: Seat 0's hands and seeds: a weak first eight (its lowest cards) with a Queen bomb and the
#: Mah Jong in the last six; a hand that stays without Dragon, Phoenix, Ace, King or bomb after
#: the push of seed 8.
GRAND_AND_BOMB = "S2 B2 G3 R3 S4 B5 G6 R6 SD BD GD RD B9 Ma"
HOPELESS = "S2 B2 G3 R3 R4 B4 S6 G7 G8 RZ SZ BB SD Hu"


def _judged(record: dict[str, Any], person: PlantedPerson) -> tuple[list[Judgement], list[Judgement]]:
    """The planted decisions' judgements and the experts' (seats 1 to 3), default samples."""
    planted = set(person.planted)
    points = decision_points(record, seats=[0, 1, 2, 3])

    def is_planted(point: DecisionPoint) -> bool:
        return point.seat == 0 and (point.kind, point.round, point.view.hand) in planted

    assert [point for point in points if point.seat == 0] == decision_points(record)  # the person's by default
    return ([judge(point) for point in points if is_planted(point)],
            [judge(point) for point in points if point.seat != 0])


def _check_expert(judgements: list[Judgement]) -> None:
    """The expert's decisions within the noise: none a blunder, at most one in ten labelled at
    all, and the mean loss below the mean half width of the losses."""
    assert judgements
    labels = [judgement.label for judgement in judgements]
    assert "blunder" not in labels
    assert sum(label is not None for label in labels) <= len(labels) / 10
    assert sum(j.loss for j in judgements) < sum(j.loss_half_width for j in judgements)


@pytest.mark.slow
def test_a_grand_tichu_on_nothing_and_a_broken_bomb_are_labelled_R2_1_R4_3() -> None:
    """Grand Tichu on eight low cards (R2.1), then a Queen bomb broken by leading one Queen
    (R4.3): each a mistake or a blunder."""
    record, person = planted_game(GRAND_AND_BOMB, ["grand", "bomb"], 1)
    assert sorted(kind for kind, _, _ in person.planted) == ["grand_tichu", "play"]
    planted, expert = _judged(record, person)
    assert len(planted) == 2
    assert all(judgement.label in ("mistake", "blunder") for judgement in planted), planted
    _check_expert(expert)


@pytest.mark.slow
def test_a_tichu_on_a_hopeless_hand_is_labelled_R6_1() -> None:
    """A Tichu call at the first offer on a hand without Dragon, Phoenix, Ace, King or bomb
    (R6.1): a mistake or a blunder."""
    record, person = planted_game(HOPELESS, ["tichu"], 8)
    assert [kind for kind, _, _ in person.planted] == ["tichu"]
    planted, expert = _judged(record, person)
    assert len(planted) == 1 and planted[0].label is not None, planted
    # the loss (about 85 points over seeds since issue 34's worlds) is a mistake once the noise
    # of 64 deals (a half width of about 21) does not hide it
    judgement = judge(planted[0].point, samples=256)
    assert judgement.label in ("mistake", "blunder"), judgement
    _check_expert(expert)


def test_the_dragon_to_the_opponent_about_to_go_out_is_a_mistake_where_it_counts_R4_5() -> None:
    """Seat 0 wins a trick of 45 points with the Dragon and goes out next with its Ace: the
    last player's tricks will go to it (R7.2), so the trick belongs with the opponent holding
    seven cards, not with the one about to go out with one (R4.5). Given to the latter: a
    mistake or a blunder."""
    round_ = endgame(["SA", "S2", "G4 B5 R6", "S8 G9 RZ BK SK B7 G3"], turn=0,
                     trick=[(3, "GZ"), (1, "RK"), (0, "Dr")])
    point = DecisionPoint(0, 0, 0, "dragon", view_of(round_, 0), (3, 1), 1, (0, 0))
    judgement = judge(point)
    assert judgement.best == 0 and judgement.label in ("mistake", "blunder"), judgement
