"""``Round.resume``: a round in play rebuilt from public facts plus hands (R4, R5, R7; the
Monte Carlo agent's simulations start from it).

At many play decisions of seeded random rounds the round is resumed from the true hands and
the public state; then the same seeded actions (plays and passes, out-of-turn bombs, wishes,
Dragon gifts, Tichu calls) go to a copy of the real round and to the resumed one. Every step
must offer the same choices and the rounds must end with the same result: the card points
won before the resume are carried (``carried_points``) and move with R7.2.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from tests.core.helpers import playing_round, run
from tichu.agents.support.knowledge import knowledge_of
from tichu.agents.support.prob import DealSampler
from tichu.core.cards import DECK, DOG, DRAGON, indices_of, parse_mask, points_of
from tichu.core.combos import BOMB, PASS_PLAY, SINGLE, Play, combinations_of, legal_plays_from
from tichu.core.round import Decision, Phase, Round, find_legal_play
from tichu.core.ruleset import RuleSet
from tichu.core.views import PublicState, SeatView, TableInfo, TablePhase, build_private_state, build_public_state

#: Chances per offer of the random driver's Tichu calls and out-of-turn bombs.
TICHU_RATE = 0.03
BOMB_RATE = 0.15
#: Action: ``(verb, seat, value)``; see :func:`apply`.
Move = tuple[str, int, Any]


# -- driving rounds -------------------------------------------------------------------------------


def dealt(seed: int) -> tuple[Round, random.Random]:
    """A seeded round after Grand Tichu (rarely called) and random pushes (R2)."""
    rng = random.Random(seed)
    round_ = Round(RuleSet(), rng)
    for seat in range(4):
        round_.decide_grand_tichu(seat, rng.random() < 0.03)
    for seat in range(4):
        round_.schupf(seat, [1 << index for index in rng.sample(indices_of(round_.hands[seat]), 3)])
    assert round_.phase == Phase.PLAYING
    return round_, rng


def choose(round_: Round, rng: random.Random) -> Move:
    """The next action of a random table: a Tichu call or an out-of-turn bomb now and then
    (R6.1, R4.3), else the decision asked for; a closed trick is taken as the engine does."""
    decision = round_.decision
    seat = round_.decision_seat
    assert seat is not None
    for other in range(4):
        if round_.can_announce(other) and rng.random() < TICHU_RATE:
            return "tichu", other, None
    if decision in (Decision.PLAY, Decision.DRAGON):
        for other in range(4):
            bombs = round_.bombs_for(other)
            if bombs and rng.random() < BOMB_RATE:
                return "bomb", other, bombs[rng.randrange(len(bombs))][0]
    if decision == Decision.WISH:
        choices = round_.wish_choices()
        return "wish", seat, choices[rng.randrange(len(choices))]
    if decision == Decision.DRAGON:
        recipients = round_.dragon_recipients()
        return "dragon", seat, recipients[rng.randrange(len(recipients))]
    if round_.trick_closed:
        return "collect", seat, None
    legal = round_.legal_plays()
    return "play", seat, legal[rng.randrange(len(legal))]


def apply(round_: Round, move: Move) -> None:
    """Apply a :func:`choose` action."""
    verb, seat, value = move
    if verb == "tichu":
        round_.announce(seat)
    elif verb == "bomb":
        round_.bomb(seat, value)
    elif verb == "wish":
        round_.make_wish(seat, value)
    elif verb == "dragon":
        round_.give_dragon(seat, value)
    elif verb == "collect":
        round_.collect_trick()
    else:
        assert seat == round_.turn
        round_.apply_legal_play(value)


def public_of(round_: Round) -> PublicState:
    return build_public_state(TableInfo(phase=TablePhase.PLAYING), round_)


def resume(round_: Round, hands: Sequence[int] | None = None) -> Round:
    """Resume ``round_`` at its play decision from its public state and ``hands`` (the true
    ones by default), the way the Monte Carlo agent calls :meth:`Round.resume`."""
    public = public_of(round_)
    assert round_.decision == Decision.PLAY and round_.turn is not None
    assert public.current_turn_index == round_.turn
    return Round.resume(RuleSet(), list(round_.hands if hands is None else hands), turn=round_.turn,
                        announcements=public.announcements, trick_turns=public.trick_turns,
                        trick_owner=public.trick_owner_index, wish_value=public.wish_value,
                        wish_open=public.wish_open, won_points=public.points, out_order=public.out_order,
                        played=public.played_cards)


def facts(round_: Round) -> dict[str, Any]:
    """What must agree between a round and its resumed twin at every step."""
    decision = round_.decision
    return {
        "decision": decision, "seat": round_.decision_seat, "is_over": round_.is_over,
        "legal": round_.legal_plays(), "bombs": [round_.bombs_for(seat) for seat in range(4)],
        "announce": [round_.can_announce(seat) for seat in range(4)], "hands": list(round_.hands),
        "trick": None if round_.is_lead else round_.trick, "closed": round_.trick_closed,
        "owner": round_.trick_owner if round_.trick_turns else None, "trick_points": points_of(round_.trick_cards),
        "wish": (round_.wish_value, round_.wish_open), "out": list(round_.out_order), "played": round_.played,
        "wishes": round_.wish_choices() if decision == Decision.WISH else None,
        "recipients": round_.dragon_recipients(),
    }


def play_both(real: Round, resumed: Round, rng: random.Random, seen: Counter[str]) -> None:
    """Play both rounds to their end with the same actions, comparing them at every step."""
    for _ in range(2000):
        assert facts(real) == facts(resumed)
        if real.is_over:
            assert real.result() == resumed.result()
            result = real.result()
            seen["double victory" if result.double_victory else "three out"] += 1
            return
        move = choose(real, rng)
        seen[move[0]] += 1
        apply(real, move)
        apply(resumed, move)
    raise AssertionError("the round did not end")


def bomb_seeds(count: int, start: int) -> list[int]:
    """The first ``count`` seeds from ``start`` whose rounds have a bomb in some hand after the push
    (random deals rarely do; R3.7)."""
    found: list[int] = []
    seed = start
    while len(found) < count:
        round_, _ = dealt(seed)
        if any(round_.holds_bomb(seat) for seat in range(4)):
            found.append(seed)
        seed += 1
    return found


def resume_points(seeds: Sequence[int], rate: float) -> list[tuple[Round, int]]:
    """Copies of seeded random rounds at a share ``rate`` of their play decisions (closed
    tricks taken first, as the engine does before it asks for a play), with an index."""
    found: list[tuple[Round, int]] = []
    for seed in seeds:
        round_, rng = dealt(seed)
        pick = random.Random(seed + 10_000)
        while not round_.is_over:
            if round_.decision == Decision.PLAY and round_.trick_closed and pick.random() < 0.5:
                round_.collect_trick()
            if round_.decision == Decision.PLAY and not round_.trick_closed and pick.random() < rate:
                found.append((round_.clone(), len(found)))
            apply(round_, choose(round_, rng))
    return found


# -- resumed rounds play on like the real ones -----------------------------------------------------------


@pytest.mark.slow
def test_resumed_round_plays_on_like_the_real_one() -> None:
    """R4, R5, R6, R7: resumed from the true hands at a play decision, a round offers the same
    plays, bombs, calls, wishes and Dragon recipients at every later step as the real round,
    and ends with the same result (card points including those won before, bonuses, out order)."""
    seen: Counter[str] = Counter()
    points = resume_points([*range(25), *bomb_seeds(30, 1000)], rate=0.2)
    assert len(points) >= 300
    for real, index in points:
        resumed = resume(real)
        if real.wish_open:
            seen["wish open at resume"] += 1
        if any(play[0] == DOG for _, play in real.trick_turns):
            seen["dog on the table"] += 1
        if real.out_order:
            seen["someone out"] += 1
        if real.trick is not None and not real.is_lead:
            seen["open trick"] += 1
        if any(real.won):
            seen["points carried"] += 1
        play_both(real.clone(), resumed, random.Random(index), seen)
    for what in ("wish open at resume", "dog on the table", "someone out", "open trick", "points carried",
                 "double victory", "three out", "bomb", "wish", "dragon", "tichu", "collect"):
        assert seen[what] >= 10, (what, seen)


def test_resumed_round_starts_where_the_public_state_is() -> None:
    """A resumed round shows the same public state as the real one (R8.1) except the won cards'
    record: its points per seat are carried (``carried_points``), not tricks, and a seat's view
    counts them as its points (issue 34, part 1: a world looks like the real game)."""
    for real, _ in resume_points(range(10), rate=0.3):
        resumed = resume(real)
        theirs, ours = public_of(real), public_of(resumed)
        assert resumed.carried_points == list(theirs.points)
        assert ours.points == theirs.points and ours.tricks_won == (0, 0, 0, 0)
        differing = {field.name for field in dataclasses.fields(PublicState)
                     if getattr(ours, field.name) != getattr(theirs, field.name)}
        assert differing <= {"tricks_won", "count_pushed"}
        assert resumed.decision == Decision.PLAY and resumed.turn == real.turn
        assert resumed.legal_plays() == real.legal_plays()


# -- resume validates nothing: consistent input is the caller's job ---------------------------------------


def test_resumed_sampled_deals_score_100_card_points() -> None:
    """R7.1, R7.2, R1.2: resumed on deals sampled from a seat's knowledge (what the Monte Carlo
    agent does) and played out, every round's card points add up to 100, or are 200 : 0 after a
    double victory. ``resume`` checks nothing itself, so this holds because the samples are
    consistent with the public facts (every unplayed card in exactly one hand)."""
    seen: Counter[str] = Counter()
    for real, index in resume_points(range(20, 45), rate=0.15):
        seat = real.turn
        assert seat is not None
        rng = random.Random(index)
        knowledge = knowledge_of(public_of(real), build_private_state(real, seat))
        hands = DealSampler(knowledge).sample(rng)
        assert hands[0] | hands[1] | hands[2] | hands[3] == DECK & ~real.played
        resumed = resume(real, hands)
        for _ in range(2000):
            if resumed.is_over:
                break
            apply(resumed, choose(resumed, rng))
        result = resumed.result()
        if result.double_victory:
            seen["double victory"] += 1
            assert sorted(result.card_points) == [0, 200]
            assert result.card_points[result.out_order[0] % 2] == 200
        else:
            seen["three out"] += 1
            assert sum(result.card_points) == 100, result
    assert seen["double victory"] >= 3 and seen["three out"] >= 100


def test_resume_does_not_validate_its_input() -> None:
    """``resume`` trusts its caller: hands that leave out an unplayed card are accepted without
    an error, and the round then plays out to card points that no longer add up to 100 (R1.2)."""
    for real, index in resume_points(range(3), rate=0.2):
        hands = list(real.hands)
        holder = next(seat for seat in range(4) if hands[seat] & DRAGON and seat != real.turn) \
            if any(hand & DRAGON for hand in hands) else None
        if holder is None or hands[holder].bit_count() < 2:
            continue
        hands[holder] &= ~DRAGON  # the Dragon (+25) vanishes
        resumed = resume(real, hands)
        rng = random.Random(index)
        while not resumed.is_over:
            apply(resumed, choose(resumed, rng))
        result = resumed.result()
        assert result.double_victory or sum(result.card_points) == 75
        return
    raise AssertionError("no position with the Dragon in another hand")


# -- carried points and R7.2 by hand ----------------------------------------------------------------


def _endgame(won_points: Sequence[int], out_order: Sequence[int], hands: Sequence[str], turn: int) -> Round:
    masks = [parse_mask(text) for text in hands]
    return Round.resume(RuleSet(), masks, turn=turn, announcements=(0, 0, 0, 0), trick_turns=(), trick_owner=None,
                        wish_value=0, wish_open=False, won_points=won_points, out_order=out_order,
                        played=DECK & ~(masks[0] | masks[1] | masks[2] | masks[3]))


def test_carried_points_follow_R7_2() -> None:
    """R7.2: seat 1 is out first; seats 0, 2, 3 carry 10, 30 and 15 won points. Seat 0 goes out
    with S2; seat 3 takes the trick with SA (S2 RK SA: 10) and goes out with GZ, whose trick it
    keeps (10). Seat 2 is last: its carried 30 go to seat 1 (first out), its hand (R5: 5) to the
    opponents. Team 20 (0+2): 10; team 31 (1+3): 20 + 30 + 15 + 10 + 10 + 5 = 90."""
    round_ = _endgame([10, 20, 30, 15], [1], ["S2", "", "R5 RK", "GZ SA"], turn=0)
    run(round_, "0 S2", "2 RK", "3 SA", "2 pass", "collect", "3 GZ")
    result = round_.result()
    assert result.out_order == (1, 0, 3) and not result.double_victory
    assert result.card_points == (10, 90)
    assert round_.carried_points == [10, 20, 30, 15]  # the transfer is made in the scoring only


def test_carried_points_ignored_by_a_double_victory_R7_1() -> None:
    """R7.1: after a double victory the carried points do not count: 200 : 0."""
    round_ = _endgame([0, 40, 10, 40], [0], ["", "S3 RA", "B4", "SK"], turn=2)
    run(round_, "2 B4")
    result = round_.result()
    assert result.double_victory and result.out_order == (0, 2)
    assert result.card_points == (200, 0) and result.points == (200, 0)


def test_carried_points_with_a_dragon_gift_at_the_end_R4_5() -> None:
    """R7.2 with R4.5: seat 1 is out; seat 2 goes out with RK and seat 3, third, with the Dragon
    on it. The round is over but the Dragon trick (25 + 10) is still given, here to seat 2. Seat 0
    is last: its hand (R5: 5) goes to team 31 and its carried 20 to seat 1 (first out)."""
    round_ = _endgame([20, 30, 0, 10], [1], ["R5 S2", "", "RK", "Dr"], turn=2)
    run(round_, "2 RK")
    assert round_.turn == 3 and round_.legal_plays() == [(DRAGON, SINGLE, 1, 15), PASS_PLAY]
    run(round_, "3 Dr")
    assert round_.decision == Decision.DRAGON and round_.dragon_recipients() == [0, 2]
    run(round_, "3 dragon 2")
    result = round_.result()
    assert result.out_order == (1, 2, 3)
    # team 20: seat 2's Dragon trick 35; seat 0's 20 go to seat 1 and its R5 to team 31
    assert result.card_points == (35, 30 + 20 + 10 + 5)
    assert sum(result.card_points) == 100


# -- a closed trick -----------------------------------------------------------------------------------


def test_resume_with_the_owner_at_turn_is_a_lead_R4_2() -> None:
    """R4.2: seat 0 leads S3 B3 and the three others pass: the trick is closed and seat 0 leads
    next. Its public state (trick still shown, owner 0 at turn) resumed gives a round where seat 0
    must beat its own pair or pass."""
    round_ = playing_round(["Ma S3 B3", "", "", ""])
    run(round_, "0 S3 B3", "1 pass", "2 pass", "3 pass")
    assert round_.trick_closed and round_.turn == 0 and round_.is_lead
    resumed = resume(round_)
    assert PASS_PLAY not in resumed.legal_plays()
    assert resumed.legal_plays() == round_.legal_plays()


def test_resume_after_the_dog_is_a_lead_R3_10() -> None:
    """R3.10: seat 0 leads the Dog and its partner leads next; resumed there, the round agrees,
    and the Dog stays in the trick (0 points) until the next trick is taken."""
    round_ = playing_round(["Ma Hu", "", "", ""])
    run(round_, "0 Hu")
    assert round_.turn == 2 and round_.is_lead and round_.trick_turns
    resumed = resume(round_)
    assert resumed.is_lead and resumed.legal_plays() == round_.legal_plays()
    assert resumed.trick_cards == DOG and resumed.trick_owner == 0
    play_both(round_.clone(), resumed, random.Random(1), Counter())


def test_resumed_bombs_follow_R4_3() -> None:
    """R4.3: in resumed rounds bombs are offered exactly as in the real ones: never on a lead,
    out of turn to the others, beating a bomb on the table only with a higher one."""
    checked = 0
    for real, _ in resume_points(bomb_seeds(30, 2000), rate=0.5):
        resumed = resume(real)
        for seat in range(4):
            assert resumed.bombs_for(seat) == real.bombs_for(seat)
            if resumed.bombs_for(seat):
                checked += 1
                assert not resumed.is_lead and seat != resumed.turn
                top = resumed.trick
                assert top is not None
                if top[1] == BOMB:
                    assert all((bomb[2], bomb[3]) > (top[2], top[3]) for bomb in resumed.bombs_for(seat))
    assert checked >= 10


def _checked(view: SeatView, cards: int) -> Play:
    """The legal play of these cards as a seat's view alone tells it (R4.1, R5.2)."""
    legal = legal_plays_from(combinations_of(view.hand), view.hand, view.trick, view.wish)
    return find_legal_play(cards, view.hand, legal, is_lead=view.trick is None, wish=view.wish)


def test_resumed_view_gives_agents_the_same_states() -> None:
    """A :class:`SeatView` over a resumed round shows the deciding seat its own hand and the
    same legal play check as over the real round (R8.2)."""

    class Table:
        def __init__(self, round_: Round) -> None:
            self.info = TableInfo(phase=TablePhase.PLAYING)
            self.round = round_

    for real, _ in resume_points(range(60, 63), rate=0.3):
        resumed = resume(real)
        seat = real.turn
        assert seat is not None
        views = [SeatView.of(Table(round_), seat) for round_ in (real, resumed)]
        assert views[0].hand == views[1].hand
        assert views[0].trick == views[1].trick and views[0].wish == views[1].wish
        for play in real.legal_plays():
            if play[0]:
                assert _checked(views[0], play[0]) == _checked(views[1], play[0])
