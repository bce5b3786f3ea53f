"""The fixed action catalogue of learning agents: every decision of a game as one index.

A learning agent chooses an index of :data:`CATALOGUE` under a mask of the indexes allowed
now; the same catalogue serves the PettingZoo environment, the policy agent and the training
data, so a policy trained on one plays in the others. Its layout (docs/learning.md):

- ``0`` **no**: pass (R4.1), decline a Grand Tichu or Tichu call (R2.1, R6.1), throw no bomb
  out of turn (R4.3);
- ``1`` **call**: call Grand Tichu or Tichu;
- ``2 .. 57`` **push card** ``i``: give the card of index ``i`` (records.md order); the push
  (R2.3) is three such decisions, to the right opponent, the partner and the left opponent;
- ``58 .. 71`` **wish** ``0`` (none, where allowed) and ``2 .. 14`` (R5.1);
- ``72``, ``73`` **Dragon** to the next opponent (the seat after the giver) or the other (R4.5);
- ``74 ..`` **plays** (R3), one per combination *shape*: singles by card (the Dog, the Mah
  Jong, 2..A, the Dragon, the Phoenix); pairs and triples by rank, with or without the
  Phoenix; full houses by the triple's and the pair's rank, with or without the Phoenix;
  stairs and streets by length and top rank, with or without the Phoenix; bombs by length and
  rank. The suits are not part of a shape: where a hand can lay a shape with several card
  sets, :func:`choose_cards` takes the one that takes the fewest cards out of the hand's
  bombs, then the lowest cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from tichu.agents.learning.observation import Question
from tichu.core.cards import CARD_VALUE, DOG_VALUE, DRAGON_VALUE, MAHJONG_VALUE, PHOENIX, PHOENIX_VALUE, indices_of
from tichu.core.combos import BOMB, FULLHOUSE, PAIR, SINGLE, STAIR, STREET, TRIPLE, Play, bombs_of
from tichu.core.flow import GameState
from tichu.core.round import Decision

#: A play's shape: ``(kind, length, rank, pair rank of a full house or 0, Phoenix used)``.
Shape = tuple[int, int, int, int, bool]

NO = 0
CALL = 1
PUSH_BASE = 2
WISH_BASE = PUSH_BASE + 56
DRAGON_NEXT = WISH_BASE + 14
DRAGON_OTHER = DRAGON_NEXT + 1
PLAY_BASE = DRAGON_OTHER + 1


def _shapes() -> list[Shape]:
    """Every play shape, in catalogue order."""
    shapes: list[Shape] = [(SINGLE, 1, value, 0, False)
                           for value in (DOG_VALUE, MAHJONG_VALUE, *range(2, 15), DRAGON_VALUE, PHOENIX_VALUE)]
    for kind, length in ((PAIR, 2), (TRIPLE, 3)):
        shapes += [(kind, length, rank, 0, phoenix) for rank in range(2, 15) for phoenix in (False, True)]
    shapes += [(FULLHOUSE, 5, rank, pair, phoenix) for rank in range(2, 15) for pair in range(2, 15) if pair != rank
               for phoenix in (False, True)]
    shapes += [(STAIR, 2 * pairs, top, 0, phoenix) for pairs in range(2, 8) for top in range(pairs + 1, 15)
               for phoenix in (False, True)]
    shapes += [(STREET, length, top, 0, phoenix) for length in range(5, 15) for top in range(length, 15)
               for phoenix in (False, True)]
    shapes += [(BOMB, 4, rank, 0, False) for rank in range(2, 15)]
    shapes += [(BOMB, length, top, 0, False) for length in range(5, 14) for top in range(length + 1, 15)]
    return shapes


_SHAPES = _shapes()
_INDEX_OF_SHAPE = {shape: PLAY_BASE + offset for offset, shape in enumerate(_SHAPES)}


def _label(index: int) -> str:
    if index == NO:
        return "no"
    if index == CALL:
        return "call"
    if index < WISH_BASE:
        return f"push card {index - PUSH_BASE}"
    if index < DRAGON_NEXT:
        value = index - WISH_BASE
        return f"wish {value + 1 if value else 0}"
    if index == DRAGON_NEXT:
        return "Dragon to the next opponent"
    if index == DRAGON_OTHER:
        return "Dragon to the other opponent"
    kind, length, rank, pair, phoenix = _SHAPES[index - PLAY_BASE]
    names = {SINGLE: "single", PAIR: "pair", TRIPLE: "triple", FULLHOUSE: "full house", STAIR: "stair",
             STREET: "street", BOMB: "bomb"}
    text = f"{names[kind]} length {length} rank {rank}" + (f" with pair {pair}" if pair else "")
    return text + (" with Phoenix" if phoenix else "")


#: Every action's label, by index.
CATALOGUE: tuple[str, ...] = tuple(_label(index) for index in range(PLAY_BASE + len(_SHAPES)))
#: The number of actions.
SIZE = len(CATALOGUE)


def shape_of(play: Play) -> Shape:
    """A play's shape (its catalogue entry without the suits).

    :raises ValueError: For the pass, which is :data:`NO`.
    """
    cards, kind, length, rank = play
    if not cards:
        raise ValueError("the pass has no shape: it is the action NO")
    phoenix = bool(cards & PHOENIX)
    if kind == SINGLE:
        value = PHOENIX_VALUE if phoenix else CARD_VALUE[indices_of(cards)[0]]
        return SINGLE, 1, value, 0, False
    if kind == FULLHOUSE:
        pair = next(CARD_VALUE[index] for index in indices_of(cards & ~PHOENIX) if CARD_VALUE[index] != rank)
        return FULLHOUSE, 5, rank, pair, phoenix
    if kind == BOMB:
        return BOMB, length, rank, 0, False
    return kind, length, rank, 0, phoenix


#: Most plays whose action :func:`play_action` remembers (the same plays come up at every step of
#: a round; an environment maps every legal play at every step).
PLAY_ACTION_CACHE = 1 << 16


@lru_cache(maxsize=PLAY_ACTION_CACHE)
def play_action(play: Play) -> int:
    """The action index of a play (the pass is :data:`NO`)."""
    return NO if not play.cards else _INDEX_OF_SHAPE[shape_of(play)]


def choose_cards(plays: Iterable[Play], hand: int) -> Play:
    """The play a shape stands for among ``plays`` of that shape: the one that takes the
    fewest cards out of the hand's bombs, then the one with the lowest cards."""
    bomb_cards = 0
    for bomb in bombs_of(hand):
        bomb_cards |= bomb.cards
    return min(plays, key=lambda play: ((play.cards & bomb_cards).bit_count() if play.kind != BOMB else 0,
                                        play.cards))


def plays_by_action(legal: Sequence[Play], hand: int) -> dict[int, Play]:
    """The allowed actions for a choice among ``legal`` plays (the pass included where it is
    there), each with the play it stands for."""
    grouped: dict[int, list[Play]] = {}
    for play in legal:
        grouped.setdefault(play_action(play), []).append(play)
    return {action: plays[0] if len(plays) == 1 else choose_cards(plays, hand) for action, plays in grouped.items()}


def wish_action(value: int) -> int:
    """The action of wishing ``value`` (0: no wish)."""
    return WISH_BASE + (value - 1 if value else 0)


def wish_of(action: int) -> int:
    """The wished value of a wish action."""
    offset = action - WISH_BASE
    return offset + 1 if offset else 0


def dragon_action(giver: int, recipient: int) -> int:
    """The action of giving the Dragon trick to ``recipient``."""
    return DRAGON_NEXT if recipient == (giver + 1) % 4 else DRAGON_OTHER


def dragon_recipient(giver: int, action: int) -> int:
    """The seat a Dragon action gives the trick to."""
    return (giver + 1) % 4 if action == DRAGON_NEXT else (giver + 3) % 4


def push_action(card_index: int) -> int:
    """The action of pushing the card of index ``card_index``."""
    return PUSH_BASE + card_index


@dataclass(frozen=True)
class Choice:
    """A question as actions: the allowed action indexes, each with the answer it gives the engine.

    :ivar question: What is asked.
    :ivar answers: Allowed action -> the engine's answer (a bool, a card mask, a
        :class:`~tichu.core.combos.Play` or ``None``, a wished value, a seat).
    """

    question: Question
    answers: dict[int, object]

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal-action mask: 1 for each allowed action."""
        mask = np.zeros(SIZE, dtype=np.int8)
        mask[list(self.answers)] = 1
        return mask


#: The mask of a seat that is asked nothing: every action 0 (read-only, shared by all).
NO_ACTIONS: npt.NDArray[np.int8] = np.zeros(SIZE, dtype=np.int8)
NO_ACTIONS.setflags(write=False)


def grand_tichu_choice() -> Choice:
    """Call Grand Tichu or not (R2.1)."""
    return Choice(Question.GRAND_TICHU, {NO: False, CALL: True})


def tichu_choice() -> Choice:
    """Call Tichu now or not (R6.1)."""
    return Choice(Question.TICHU, {NO: False, CALL: True})


def push_choice(hand: int, pushed: int) -> Choice:
    """The next card of the push (R2.3): any card of the hand not chosen yet, as its mask."""
    return Choice(Question.PUSH, {push_action(index): 1 << index for index in indices_of(hand & ~pushed)})


def play_choice(legal: Sequence[Play], hand: int) -> Choice:
    """A play at one's turn, the pass included where allowed (R4.1)."""
    return Choice(Question.PLAY, dict(plays_by_action(legal, hand)))


def bomb_choice(bombs: Sequence[Play], hand: int) -> Choice:
    """A bomb out of turn, or none (R4.3)."""
    answers: dict[int, object] = {NO: None}
    answers.update(plays_by_action(bombs, hand))
    return Choice(Question.BOMB, answers)


def wish_choice(choices: Sequence[int]) -> Choice:
    """The wish after the Mah Jong (R5.1)."""
    return Choice(Question.WISH, {wish_action(value): value for value in choices})


def dragon_choice(giver: int, recipients: Sequence[int]) -> Choice:
    """The opponent who gets the Dragon trick (R4.5)."""
    return Choice(Question.DRAGON, {dragon_action(giver, seat): seat for seat in recipients})


#: The question a learning seat is asked at each decision of the game.
QUESTIONS = {Decision.GRAND_TICHU: Question.GRAND_TICHU, Decision.SCHUPF: Question.PUSH,
             Decision.PLAY: Question.PLAY, Decision.TICHU: Question.TICHU, Decision.BOMB: Question.BOMB,
             Decision.WISH: Question.WISH, Decision.DRAGON: Question.DRAGON}


def choice_of(state: GameState, pushed: int = 0) -> Choice:
    """The current decision of ``state`` as catalogue actions, each with its answer: a bool
    (Grand Tichu, Tichu), a card (one of the push's three), a play (the pass included), a bomb
    or ``None``, a wished value, a seat.

    :param pushed: The cards the deciding seat chose so far in its push.
    :raises ValueError: At the deal or after the end (no seat decides).
    """
    decision = state.decision
    seat = state.decision_seat
    round_ = state.round
    if seat is None or seat < 0 or round_ is None:
        raise ValueError(f"no seat decides at {decision.name}")
    hand = round_.hands[seat]
    if decision == Decision.PLAY:
        return play_choice(state.legal_plays(), hand)
    if decision == Decision.TICHU:
        return tichu_choice()
    if decision == Decision.BOMB:
        return bomb_choice(state.offered_bombs(), hand)
    if decision == Decision.GRAND_TICHU:
        return grand_tichu_choice()
    if decision == Decision.SCHUPF:
        return push_choice(hand, pushed)
    if decision == Decision.WISH:
        return wish_choice(round_.wish_choices())
    return dragon_choice(seat, round_.dragon_recipients())


def apply_answer(state: GameState, question: Question, seat: int, answer: object) -> None:
    """Apply a catalogue answer to the seat's decision (the push's three cards together).

    :raises RuleViolation: If the rules refuse it; nothing changes then.
    """
    if question == Question.PLAY:
        state.play(seat, answer.cards if answer is not None else 0)  # type: ignore[attr-defined]
    elif question == Question.TICHU:
        if answer is True:
            state.call(seat)
        else:
            state.decline(seat)
    elif question == Question.BOMB:
        if answer is None:
            state.decline(seat)
        else:
            state.bomb(seat, answer.cards)  # type: ignore[attr-defined]
    elif question == Question.GRAND_TICHU:
        state.decide_grand_tichu(seat, answer is True)
    elif question == Question.PUSH:
        state.push(seat, answer)  # type: ignore[arg-type]
    elif question == Question.WISH:
        state.wish(seat, answer)  # type: ignore[arg-type]
    else:
        state.give_dragon(seat, answer)  # type: ignore[arg-type]
