"""One round of Tichu as a pure, synchronous, clonable state machine (rules.md R2..R7).

No asyncio, no I/O; the only randomness is the shuffle, drawn from an injected
:class:`random.Random`. The :class:`~tichu.engine.GameEngine`, the Arena, replay and
search agents all drive this class, so every rule lives here once.

The contract: :attr:`Round.decision` and :attr:`Round.decision_seat` say whose decision
it is and of which kind; :meth:`Round.legal_actions` lists what that seat may do;
:meth:`Round.apply` applies an :class:`Action` (any method below can be called directly
too); :attr:`Round.is_over` and :meth:`Round.result` end it; :meth:`Round.clone` copies it.
Tichu calls (R6.1) and out-of-turn bombs (R4.3) are actions that do not wait for a
decision: :meth:`Round.can_announce` and :meth:`Round.bombs_for` say when they are allowed.

Every method that changes the state validates first and raises
:class:`~tichu.core.errors.RuleViolation` without changing anything.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import IntEnum
from itertools import permutations
from typing import Final, NamedTuple

from tichu.core.cards import DECK, DOG, DRAGON, MAHJONG, VALUE_MASK, indices_of, mask_of_indices, points_of
from tichu.core.combos import (
    BOMB,
    PASS_PLAY,
    Play,
    bombs_of,
    classify_mask,
    combinations_of,
    legal_plays_from,
)
from tichu.core.errors import RuleViolation, Violation
from tichu.core.outcomes import NOTHING, TURN_TO, Outcomes, PlayerOut, RoundResult, TrickTaken, WishFulfilled
from tichu.core.ruleset import RuleSet
from tichu.core.seats import opponents, team_of


class Phase(IntEnum):
    """Stage of a round."""

    GRAND_TICHU = 0  # R2.1: 8 cards dealt, each seat decides on Grand Tichu
    SCHUPF = 1  # R2.3: 14 cards, each seat gives three
    PLAYING = 2  # R4
    OVER = 3  # R7


class Decision(IntEnum):
    """Kind of a decision: the round's own (``NONE`` .. ``DRAGON``), and those that only the
    game's flow asks (:mod:`tichu.core.flow`): an offered Tichu call, an offered bomb, the deal."""

    NONE = 0
    GRAND_TICHU = 1
    SCHUPF = 2
    PLAY = 3
    WISH = 4
    DRAGON = 5
    TICHU = 6  # R6.1: call Tichu now, or decline
    BOMB = 7  # R4.3: throw a bomb out of turn now, or decline
    DEAL = 8  # chance: the shuffle of a new round (R2.1)


class ActionKind(IntEnum):
    """Kinds of :class:`Action`; ``TICHU`` .. ``DRAGON`` are the record's events (records.md),
    ``DECLINE`` and ``DEAL`` exist only in the game's flow (:mod:`tichu.core.flow`)."""

    GRAND_TICHU = 0
    SCHUPF = 1
    TICHU = 2
    PLAY = 3
    PASS = 4
    BOMB = 5
    WISH = 6
    DRAGON = 7
    DECLINE = 8  # let an offered call or bomb pass (R6.1, R4.3)
    DEAL = 9  # chance: the deal of a round, per seat (first 8, last 6) card masks (R2.1)


#: What an :class:`Action` carries, by its kind (see :attr:`Action.value`): a ``bool`` (Grand
#: Tichu), an ``int`` (a card mask, a wished value, a seat), the push's three single-card masks,
#: the deal's ``(first 8, last 6)`` masks per seat, or ``None``.
ActionValue = bool | int | Sequence[int] | Sequence[tuple[int, int]] | None


class Action(NamedTuple):
    """One action of one seat.

    :ivar kind: What is done.
    :ivar seat: Who does it.
    :ivar value: ``bool`` for Grand Tichu; three card masks (to right, partner, left) for
        the push; a card mask for play and bomb; the value for a wish; the recipient's
        seat for the Dragon; the four seats' ``(first 8, last 6)`` masks for the deal;
        ``None`` otherwise.
    """

    kind: ActionKind
    seat: int
    value: ActionValue = None

    def number(self) -> int:
        """The value of a play or bomb (a card mask), a wish (the value) or a Dragon gift (the seat).

        :raises RuleViolation: (R4) For a value that is no ``int`` (a malformed action).
        """
        value = self.value
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R4", f"{self.kind.name.lower()} needs a number")

    def masks(self) -> list[int]:
        """The value of a push: its single-card masks (to right, partner, left).

        :raises RuleViolation: (R2.3) For a value that is no list of ``int``.
        """
        if isinstance(self.value, Sequence):
            items: Sequence[object] = self.value  # unchecked items (compiled code would check them as typed)
            masks = [item for item in items if isinstance(item, int) and not isinstance(item, bool)]
            if len(masks) == len(items):
                return masks
        raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R2.3", "a push is three card masks")

    def deal(self) -> list[tuple[int, int]]:
        """The value of a deal: per seat its ``(first 8, last 6)`` card masks.

        :raises RuleViolation: (R2.1) For a value that is no list of pairs of ``int``.
        """
        if isinstance(self.value, Sequence):
            items: Sequence[object] = self.value  # unchecked items (compiled code would check them as typed)
            pairs = [(item[0], item[1]) for item in items if isinstance(item, tuple | list) and len(item) == 2
                     and all(isinstance(part, int) and not isinstance(part, bool) for part in item)]
            if len(pairs) == len(items):
                return pairs
        raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R2.1", "a deal is four pairs of card masks")


ANNOUNCE_NONE, ANNOUNCE_TICHU, ANNOUNCE_GRAND = 0, 1, 2


class Round:
    """The state of one round; see the module docstring for the contract.

    :ivar rules: The rule set.
    :ivar phase: The :class:`Phase`.
    :ivar hands: Hand masks per seat.
    :ivar first_deal: The 8 cards each seat saw before deciding on Grand Tichu.
    :ivar second_deal: The 6 cards dealt after.
    :ivar announcements: Per seat 0 none, 1 Tichu, 2 Grand Tichu.
    :ivar given: Per seat the three pushed cards (to right, partner, left) or ``None``.
    :ivar turn: The seat at turn while playing, else ``None``.
    :ivar trick: The combination on top of the open trick, ``None`` on a lead.
    :ivar trick_owner: Who played the last combination (the Dog included).
    :ivar trick_cards: All cards lying in the open trick (the Dog included, R3.10).
    :ivar trick_turns: The open trick's plays as ``(seat, play)``.
    :ivar trick_closed: Every other seat passed (R4.2); bombs may still land (R4.3).
    :ivar wish_value: The last wish made (0 none); :ivar wish_open: whether it is open.
    :ivar won: Card masks won in tricks per seat.
    :ivar tricks_won: Number of tricks taken per seat.
    :ivar last_trick: The last trick taken: ``(receiver, cards)``.
    :ivar out_order: Seats that are out, in order.
    :ivar played: All cards played this round.
    :ivar has_played: Per seat whether it played a card this round (R6.1).
    :ivar carried_points: Card points per seat won before a :meth:`resume` (0 otherwise).
    :ivar events: The record's events since the pushed cards arrived (records.md); a Tichu
        called during the push (``RuleSet.tichu_before_schupf``) is written first.
    """

    def __init__(self, rules: RuleSet | None = None, rng: random.Random | None = None,
                 deal: Sequence[tuple[int, int]] | None = None) -> None:
        """Deal a round.

        :param rules: (Optional) The rule set; the defaults if omitted.
        :param rng: (Optional) Source of the shuffle; a fresh ``random.Random()`` if omitted.
        :param deal: (Optional) Per seat ``(first 8, last 6)`` card masks instead of a
            shuffle (replay, scripted tests).
        :raises RuleViolation: If ``deal`` is not 56 distinct cards split 8 + 6.
        """
        self.rules = rules or RuleSet()
        if deal is None:
            deck = list(range(56))
            (rng or random.Random()).shuffle(deck)
            deal = [(mask_of_indices(deck[14 * seat:14 * seat + 8]),
                     mask_of_indices(deck[14 * seat + 8:14 * seat + 14])) for seat in range(4)]
        _check_deal(deal)
        self.first_deal = [first for first, _ in deal]
        self.second_deal = [second for _, second in deal]
        self.hands = list(self.first_deal)
        self.phase = Phase.GRAND_TICHU
        self.grand_decided = [False] * 4
        self.announcements = [ANNOUNCE_NONE] * 4
        self.given: list[tuple[int, int, int] | None] = [None] * 4
        self.turn: int | None = None
        self.trick: Play | None = None
        self.trick_owner: int | None = None
        self.trick_cards = 0
        self.trick_turns: list[tuple[int, Play]] = []
        self.trick_closed = False
        self._passes = 0
        self.wish_value = 0
        self.wish_open = False
        self._wish_pending = False
        self._dragon_pending = False
        self.won = [0] * 4
        self.tricks_won = [0] * 4
        self.last_trick: tuple[int, int] | None = None
        self.out_order: list[int] = []
        self.played = 0
        self.has_played = [False] * 4
        self.events: list[Action] = []
        self._combos: list[list[Play] | None] = [None] * 4
        self._bombs: list[list[Play] | None] = [None] * 4
        self.carried_points = [0, 0, 0, 0]
        self._result: RoundResult | None = None

    # -- the contract ------------------------------------------------------------------

    @property
    def decision(self) -> Decision:
        """The kind of decision the round waits for."""
        if self.phase == Phase.PLAYING:
            if self._wish_pending:
                return Decision.WISH
            if self._dragon_pending:
                return Decision.DRAGON
            return Decision.PLAY
        if self.phase == Phase.GRAND_TICHU:
            return Decision.GRAND_TICHU
        if self.phase == Phase.SCHUPF:
            return Decision.SCHUPF
        return Decision.NONE

    @property
    def decision_seat(self) -> int | None:
        """The seat whose decision it is (Grand Tichu and push: the first that has not decided)."""
        if self.phase == Phase.PLAYING:
            if self._wish_pending or self._dragon_pending:
                return self.trick_owner
            return self.turn
        if self.phase == Phase.GRAND_TICHU:
            return self.grand_decided.index(False)
        if self.phase == Phase.SCHUPF:
            return self.given.index(None)
        return None

    @property
    def is_over(self) -> bool:
        """Whether the round has ended (R7)."""
        return self.phase == Phase.OVER

    def legal_actions(self) -> list[Action]:
        """List the actions open to :attr:`decision_seat` for :attr:`decision`."""
        seat = self.decision_seat
        decision = self.decision
        if seat is None:
            return []
        if decision == Decision.GRAND_TICHU:
            return [Action(ActionKind.GRAND_TICHU, seat, False), Action(ActionKind.GRAND_TICHU, seat, True)]
        if decision == Decision.SCHUPF:
            cards = [1 << index for index in indices_of(self.hands[seat])]
            return [Action(ActionKind.SCHUPF, seat, triple) for triple in permutations(cards, 3)]
        if decision == Decision.WISH:
            return [Action(ActionKind.WISH, seat, value) for value in self.wish_choices()]
        if decision == Decision.DRAGON:
            return [Action(ActionKind.DRAGON, seat, to) for to in self.dragon_recipients()]
        return [Action(ActionKind.PLAY, seat, play.cards) if play.cards else Action(ActionKind.PASS, seat)
                for play in self.legal_plays()]

    def apply(self, action: Action) -> None:
        """Apply any action (the record's events and the decisions before them).

        :raises RuleViolation: If the action is not allowed now; nothing changes then.
        """
        kind, seat, value = action
        if kind == ActionKind.PLAY:
            self.play(seat, action.number())
        elif kind == ActionKind.PASS:
            self.pass_turn(seat)
        elif kind == ActionKind.BOMB:
            self.bomb(seat, action.number())
        elif kind == ActionKind.TICHU:
            self.announce(seat)
        elif kind == ActionKind.WISH:
            self.make_wish(seat, action.number())
        elif kind == ActionKind.DRAGON:
            self.give_dragon(seat, action.number())
        elif kind == ActionKind.GRAND_TICHU:
            self.decide_grand_tichu(seat, bool(value))
        elif kind == ActionKind.SCHUPF:
            self.schupf(seat, action.masks())
        else:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R4", f"unknown action {kind!r}")

    def clone(self) -> Round:
        """Return an independent copy (the lists are copied, the immutable values shared).

        Every attribute is named, not copied through ``__dict__``: the compiled accelerator
        (``bin/accelerate.py``) turns this class into one without a ``__dict__``."""
        other = Round.__new__(Round)
        other.rules = self.rules
        other.first_deal = list(self.first_deal)
        other.second_deal = list(self.second_deal)
        other.hands = list(self.hands)
        other.phase = self.phase
        other.grand_decided = list(self.grand_decided)
        other.announcements = list(self.announcements)
        other.given = list(self.given)
        other.turn = self.turn
        other.trick = self.trick
        other.trick_owner = self.trick_owner
        other.trick_cards = self.trick_cards
        other.trick_turns = list(self.trick_turns)
        other.trick_closed = self.trick_closed
        other._passes = self._passes
        other.wish_value = self.wish_value
        other.wish_open = self.wish_open
        other._wish_pending = self._wish_pending
        other._dragon_pending = self._dragon_pending
        other.won = list(self.won)
        other.tricks_won = list(self.tricks_won)
        other.last_trick = self.last_trick
        other.out_order = list(self.out_order)
        other.played = self.played
        other.has_played = list(self.has_played)
        other.events = list(self.events)
        other._combos = list(self._combos)
        other._bombs = list(self._bombs)
        other.carried_points = list(self.carried_points)
        other._result = self._result
        return other

    @classmethod
    def resume(cls, rules: RuleSet, hands: Sequence[int], *, turn: int, announcements: Sequence[int],
               trick_turns: Sequence[tuple[int, Play]], trick_owner: int | None, wish_value: int, wish_open: bool,
               won_points: Sequence[int], out_order: Sequence[int], played: int) -> Round:
        """Rebuild a round in play at a seat's turn from public facts and a guess of the hands.

        Search agents use it on deals sampled from what their seat knows (R8): the cards
        won so far only count as points (:attr:`carried_points`), the passes since the
        last play are the seats between its owner and ``turn``.

        :param hands: The four hands (the guessed ones and the searching seat's own).
        :param turn: The seat at turn (its decision is a play). When it owns the trick
            everyone passed and it leads; a trick whose owner is out must be taken before
            (as the engine does before it asks for a play).
        :param trick_turns: The open trick's plays, the Dog included.
        :param won_points: Card points won per seat.
        """
        round_ = cls(rules, deal=_PLACEHOLDER_DEAL)
        round_.phase = Phase.PLAYING
        round_.grand_decided = [True] * 4
        round_.hands = list(hands)
        round_.given = [(0, 0, 0)] * 4
        round_.announcements = list(announcements)
        round_.turn = turn
        round_.trick_turns = list(trick_turns)
        tops = [play for _, play in trick_turns if play.cards != DOG]
        round_.trick = tops[-1] if tops else None
        round_.trick_owner = trick_owner
        for _, play in trick_turns:
            round_.trick_cards |= play.cards
        if round_.trick is not None and trick_owner == turn:
            round_.trick_closed = True  # everyone passed: the owner leads (R4.2)
        elif round_.trick is not None and trick_owner is not None:
            seat = (trick_owner + 1) % 4
            while seat != turn:
                round_._passes += 1 if hands[seat] else 0
                seat = (seat + 1) % 4
        round_.wish_value = wish_value
        round_.wish_open = wish_open
        round_.carried_points = list(won_points)
        round_.out_order = list(out_order)
        round_.played = played
        round_.has_played = [hand.bit_count() < 14 for hand in hands]
        return round_

    # -- Grand Tichu and pushing (R2) ---------------------------------------------------

    def decide_grand_tichu(self, seat: int, announced: bool) -> None:
        """Record a seat's Grand Tichu decision (R2.1, R6.2); the last one deals the rest (R2.2).

        :raises RuleViolation: Outside R2.1 or if the seat has decided already.
        """
        self.check_grand_tichu(seat)
        self.grand_decided[seat] = True
        if announced:
            self.announcements[seat] = ANNOUNCE_GRAND
        if all(self.grand_decided):
            for other in range(4):
                self.hands[other] |= self.second_deal[other]
            self.phase = Phase.SCHUPF
            self._forget_combinations()

    def check_grand_tichu(self, seat: int) -> None:
        """Check that a seat may decide on Grand Tichu now (R2.1, R6.2), changing nothing.

        :raises RuleViolation: Outside R2.1 or if the seat has decided already.
        """
        check_seat(seat)
        if self.phase != Phase.GRAND_TICHU or self.grand_decided[seat]:
            raise RuleViolation(Violation.CALL_NOT_ALLOWED, "R6.2",
                                "Grand Tichu is decided once, on the first 8 cards")

    def schupf(self, seat: int, cards: Sequence[int]) -> None:
        """Give three cards: to the right opponent, the partner, the left opponent (R2.3).

        :param seat: The giving seat.
        :param cards: Three single-card masks.
        :raises RuleViolation: Outside R2.3, if the seat gave already, or for cards that
            are not three distinct cards of its hand.
        """
        triple = self.check_schupf(seat, cards)
        given = triple[0] | triple[1] | triple[2]
        self.hands[seat] &= ~given
        self.given[seat] = triple
        self._forget_combinations()
        if all(entry is not None for entry in self.given):
            self._exchange()

    def check_schupf(self, seat: int, cards: Sequence[int]) -> tuple[int, int, int]:
        """Check a push (R2.3) without giving the cards.

        :returns: The three single-card masks (to right, partner, left).
        :raises RuleViolation: As :meth:`schupf`.
        """
        check_seat(seat)
        if self.phase != Phase.SCHUPF or self.given[seat] is not None:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R2.3", "no push is expected from this seat now")
        triple = tuple(cards)
        if len(triple) != 3 or any(not isinstance(card, int) or card.bit_count() != 1 or card >> 56
                                   for card in triple):
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R2.3", "push exactly three cards, one to each seat")
        given = triple[0] | triple[1] | triple[2]
        if given.bit_count() != 3:
            raise RuleViolation(Violation.DUPLICATE_CARD, "R2.3", "the three pushed cards must differ")
        if given & ~self.hands[seat]:
            raise RuleViolation(Violation.NOT_IN_HAND, "R2.3", "pushed cards must come from the hand")
        return triple[0], triple[1], triple[2]

    def _exchange(self) -> None:
        for giver, triple in enumerate(self.given):
            assert triple is not None
            for offset, card in enumerate(triple, start=1):
                self.hands[(giver + offset) % 4] |= card
        self.phase = Phase.PLAYING
        self.turn = next(seat for seat in range(4) if self.hands[seat] & MAHJONG)  # R2.5

    def received(self, seat: int) -> tuple[int, int, int] | None:
        """Return the cards a seat received: from its right opponent, partner, left opponent."""
        if self.phase < Phase.PLAYING:
            return None
        cards = []
        for offset in (1, 2, 3):
            giver = (seat + offset) % 4
            triple = self.given[giver]
            assert triple is not None
            cards.append(triple[(seat - giver) % 4 - 1])
        return cards[0], cards[1], cards[2]

    def _forget_combinations(self) -> None:
        self._combos = [None] * 4
        self._bombs = [None] * 4

    # -- calls (R6) ---------------------------------------------------------------------

    def can_announce(self, seat: int) -> bool:
        """Whether a seat may call a plain Tichu now (R2.4, R6.1, R6.3)."""
        if self.phase == Phase.PLAYING:
            return not self.announcements[seat] and not self.has_played[seat]
        return (self.rules.tichu_before_schupf and self.phase == Phase.SCHUPF
                and not self.announcements[seat])

    def announce(self, seat: int) -> None:
        """Call a plain Tichu (R6.1).

        :raises RuleViolation: (``CALL_NOT_ALLOWED``) if the seat may not call now.
        """
        check_seat(seat)
        if not self.can_announce(seat):
            raise RuleViolation(Violation.CALL_NOT_ALLOWED, "R6.1",
                                "Tichu can be called once, after the push and before one's first card")
        self.announcements[seat] = ANNOUNCE_TICHU
        self.events.append(Action(ActionKind.TICHU, seat))

    # -- playing (R3, R4, R5) -----------------------------------------------------------

    def combinations(self, seat: int) -> list[Play]:
        """Every combination in a seat's hand (computed once, filtered as the hand shrinks)."""
        combos = self._combos[seat]
        if combos is None:
            combos = self._combos[seat] = combinations_of(self.hands[seat])
        return combos

    def holds_bomb(self, seat: int) -> bool:
        """Whether a seat has a bomb in its hand (a cheap test before :meth:`bombs_for`)."""
        bombs = self._bombs[seat]
        if bombs is None:
            bombs = self._bombs[seat] = bombs_of(self.hands[seat])
        return bool(bombs)

    def share_caches(self) -> None:
        """Compute every seat's combinations and bombs now, so that the clones of this round
        share them (a search clones one world per option)."""
        for seat in range(4):
            self.combinations(seat)
            self.holds_bomb(seat)

    @property
    def is_lead(self) -> bool:
        """Whether the seat at turn leads (a new trick, also after the Dog or a closed trick)."""
        return self.trick is None or self.trick_closed

    def passed_since_last_play(self) -> list[int]:
        """The seats that passed since the open trick's last play (R4.1), in seat order; none
        without an open trick. Everyone saw them pass (R8.1)."""
        if not self.trick_turns:
            return []
        passed = []
        events = self.events
        for index in range(len(events) - 1, -1, -1):
            kind, seat, _ = events[index]
            if kind == ActionKind.PASS:
                passed.append(seat)
            elif kind in (ActionKind.PLAY, ActionKind.BOMB):
                break
        return sorted(passed)

    def legal_plays(self) -> list[Play]:
        """Every legal play of the seat at turn, :data:`~tichu.core.combos.PASS_PLAY` last if allowed.

        :returns: ``[]`` if no seat must play now.
        """
        seat = self.turn
        if self.decision != Decision.PLAY or seat is None:
            return []
        wish = self.wish_value if self.wish_open else 0
        return legal_plays_from(self.combinations(seat), self.hands[seat],
                                None if self.is_lead else self.trick, wish)

    def bombs_for(self, seat: int) -> list[Play]:
        """The bombs a seat may throw out of turn now (R4.3); never forced by the wish (R5.3)."""
        if not self.bomb_window_open(seat) or not self.holds_bomb(seat):
            return []
        trick = self.trick
        assert trick is not None
        bombs = self._bombs[seat]
        assert bombs is not None
        if trick.kind != BOMB:
            return list(bombs)
        return [play for play in bombs if (play.length, play.rank) > (trick.length, trick.rank)]

    def playable_bombs(self, seat: int) -> list[Play]:
        """The bombs a seat may lay now (R4.3): at its turn those among its legal plays (a bomb
        at one's turn is the play, R5.3), else those it may throw out of turn."""
        if self.decision != Decision.PLAY or seat != self.turn or self.trick_closed:
            return self.bombs_for(seat)
        if not self.holds_bomb(seat):
            return []  # most hands: no need to list the legal plays
        return [play for play in self.legal_plays() if play.kind == BOMB]

    def bomb_window_open(self, seat: int) -> bool:
        """Whether a bomb of this seat could land now, by public facts alone (R4.3): the round is
        played, no wish is pending, a trick lies open, the seat holds cards and the round goes
        on (R7.2); at its own turn only on a closed trick or the Dragon's."""
        if (self.phase != Phase.PLAYING or self._wish_pending or self.trick is None or not self.hands[seat]
                or len(self.out_order) >= 3):
            return False  # R4.3: not on a lead or the Dog; R7.2: not after the round ended
        return self.trick_closed or self._dragon_pending or seat != self.turn

    def play(self, seat: int, cards: int) -> Outcomes:
        """Play cards at one's turn; the empty mask passes (R4.1).

        :param seat: The seat at turn.
        :param cards: The card mask.
        :returns: What the play caused (:meth:`apply_legal_play`).
        :raises RuleViolation: Not this seat's turn, cards not in
            the hand, no combination, or a combination not allowed now (R4.1, R5.2, R3.10).
        """
        if not cards:
            return self.pass_turn(seat)
        self._check_turn(seat)
        return self.apply_legal_play(self.find_legal(seat, cards))

    def _check_turn(self, seat: int) -> None:
        check_seat(seat)
        if self.decision != Decision.PLAY or seat != self.turn:
            raise RuleViolation(Violation.NOT_YOUR_TURN, "R4.1", "it is not this seat's turn to play")

    def find_legal(self, seat: int, cards: int) -> Play:
        """Return the legal play of these cards for the seat at turn, without applying it.

        :raises RuleViolation: ``NOT_YOUR_TURN``, or as :func:`find_legal_play`.
        """
        self._check_turn(seat)
        wish = self.wish_value if self.wish_open else 0
        return find_legal_play(cards, self.hands[seat], self.legal_plays(), is_lead=self.is_lead, wish=wish)

    def pass_turn(self, seat: int) -> Outcomes:
        """Pass at one's turn (R4.1); the last pass closes the trick (R4.2).

        :raises RuleViolation: Not this seat's turn, on a lead, or under the wish (R5.2).
        """
        self._check_turn(seat)
        if self.is_lead:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R4.1", "the leader cannot pass")
        legal = self.legal_plays()
        if legal[-1] is not PASS_PLAY:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R5.2",
                                f"the wish ({self.wish_value}) must be fulfilled")
        return self.apply_legal_play(PASS_PLAY)

    def apply_legal_play(self, play: Play) -> Outcomes:
        """Apply a play of the seat at turn that is one of :meth:`legal_plays` (not checked).

        The engine and search agents use it with a play taken from :meth:`legal_plays`;
        everything else calls :meth:`play`.

        :returns: What the play caused in the round (:mod:`tichu.core.outcomes`): the seat out
            (R7.1), the wish fulfilled (R5.4), the trick taken at the round's end (R7.2), the
            seat at turn next (R4.1: none while a wish or the Dragon's gift waits, or once the
            round is over); for most plays and passes only the turn, a shared tuple
            (:data:`~tichu.core.outcomes.TURN_TO`). A closed trick that a lead takes first (a
            replay's order, R4.2) is taken first.
        """
        seat = self.turn
        assert seat is not None
        mask = play.cards
        if not mask:
            self.events.append(_PASSES[seat])
            passes = self._passes + 1
            self._passes = passes
            owner = self.trick_owner
            assert owner is not None
            # R4.2: every other seat with cards passed (the owner among them once it is out)
            if passes >= (3 if self.hands[owner] else 4) - len(self.out_order):
                return self._close_trick()
            turn = self.turn = self._next_active(seat)
            return TURN_TO[turn]
        self.events.append(_new_action(Action, (ActionKind.PLAY, seat, mask)))
        if self.trick_closed:
            taken = self.collect_trick()
            return (taken, *self._lay(seat, play))
        return self._lay(seat, play)

    def bomb(self, seat: int, cards: int) -> Outcomes:
        """Throw a bomb out of turn (R4.3).

        :returns: What it caused, as :meth:`apply_legal_play`.
        :raises RuleViolation: ``NOT_YOUR_TURN`` for the seat at turn (it plays the bomb),
            ``BOMB_NOT_ALLOWED`` when no bomb may land now or the cards are no bomb that
            beats the trick.
        """
        check_seat(seat)
        if self.decision == Decision.PLAY and seat == self.turn and not self.trick_closed \
                and self.trick is not None:
            raise RuleViolation(Violation.NOT_YOUR_TURN, "R4.3", "at one's turn a bomb is played as the play")
        if not self.bomb_window_open(seat):
            raise RuleViolation(Violation.BOMB_NOT_ALLOWED, "R4.3",
                                "no bomb now (a lead, the Dog, a pending wish, or the seat is out)")
        if not isinstance(cards, int) or cards < 0 or cards & ~self.hands[seat]:
            raise RuleViolation(Violation.NOT_IN_HAND, "R4.3", "cards not in the hand")
        for play in self.bombs_for(seat):
            if play.cards == cards:
                self.events.append(Action(ActionKind.BOMB, seat, cards))
                self.trick_closed = False
                self._dragon_pending = False
                return self._lay(seat, play)
        raise RuleViolation(Violation.BOMB_NOT_ALLOWED, "R4.3", "the cards are no bomb that beats the trick")

    def _lay(self, seat: int, play: Play) -> Outcomes:
        """Lay a play on the trick (R4.1); see :meth:`apply_legal_play` for what it returns."""
        mask = play.cards
        self.hands[seat] &= ~mask
        self.played |= mask
        self.has_played[seat] = True
        self.trick_cards |= mask
        self.trick_owner = seat
        self._passes = 0
        combos = self._combos[seat]
        if combos is not None:
            self._combos[seat] = [combo for combo in combos if not combo[0] & mask]  # by index: hot
        bombs = self._bombs[seat]
        if bombs:
            self._bombs[seat] = [combo for combo in bombs if not combo.cards & mask]
        caused = NOTHING
        if self.wish_open and mask & VALUE_MASK[self.wish_value]:
            self.wish_open = False  # R5.4 (the Phoenix never counts, R5.5)
            caused = _FULFILLED
        if mask == DOG:
            self.trick = None
            self.trick_turns.append((seat, play))
        else:
            self.trick = play
            self.trick_turns.append((seat, play))
        if not self.hands[seat]:
            self.out_order.append(seat)
            caused = (PlayerOut(seat, len(self.out_order)), *caused)  # R7.1
            ended = self._round_ends()
            if ended is not None:
                return caused + ended
        if mask & MAHJONG:
            self._wish_pending = True  # R5.1: the wish comes before the turn moves on
            return caused
        if mask == DOG:
            turn = self.turn = self._next_active((seat + 1) % 4)  # R3.10: from the partner on
        else:
            turn = self.turn = self._next_active(seat)
        return TURN_TO[turn] if caused is NOTHING else caused + TURN_TO[turn]

    def _round_ends(self) -> Outcomes | None:
        """End the round if the last seat out ended it (R7.1, R7.2).

        :returns: ``None`` if the round goes on, else what its end caused (the trick taken).
        """
        out = self.out_order
        if len(out) == 2 and team_of(out[0]) == team_of(out[1]):
            self._finish()  # R7.1
            return NOTHING
        if len(out) == 3:
            if self.trick is not None and self.trick.cards == DRAGON:
                self._dragon_pending = True  # R7.2 with R4.5
                self.trick_closed = True
                self.turn = None
                return NOTHING
            taken = self.collect_trick()
            self._finish()
            return (taken,)
        return None

    def _close_trick(self) -> Outcomes:
        """Close the trick after the last pass (R4.2): its owner leads next, or the Dragon's
        trick waits to be given away (R4.5). :returns: The seat at turn, unless the Dragon waits."""
        self.trick_closed = True
        owner = self.trick_owner
        assert owner is not None and self.trick is not None
        turn = self.turn = owner if self.hands[owner] else self._next_active(owner)
        if self.trick.cards == DRAGON:
            self._dragon_pending = True  # R4.5
            return NOTHING
        return TURN_TO[turn]

    def collect_trick(self, to: int | None = None) -> TrickTaken:
        """Give the open trick's cards to its winner, or to ``to`` (the Dragon gift).

        Called by the game's flow once every offer on a closed trick was declined (R4.2);
        :meth:`play` calls it when the next lead comes first (replay).

        :returns: The trick taken: its winner, points and the Dragon's recipient.
        """
        owner = self.trick_owner
        receiver = owner if to is None else to
        assert receiver is not None
        taken = TrickTaken(owner, points_of(self.trick_cards), to)
        self.last_trick = (receiver, self.trick_cards)
        self.won[receiver] |= self.trick_cards
        self.tricks_won[receiver] += 1
        self.trick = None
        self.trick_cards = 0
        self.trick_turns = []
        self.trick_closed = False
        return taken

    def make_wish(self, seat: int, value: int) -> None:
        """Name the wished value after playing the Mah Jong (R5.1).

        :raises RuleViolation: (``WISH_NOT_ALLOWED``) if no wish is due from this seat or the
            value is not allowed.
        """
        check_seat(seat)
        if not self._wish_pending or seat != self.trick_owner:
            raise RuleViolation(Violation.WISH_NOT_ALLOWED, "R5.1", "no wish is due from this seat")
        if not _is_int(value) or value not in self.wish_choices():
            raise RuleViolation(Violation.WISH_NOT_ALLOWED, "R5.1", f"cannot wish {value!r}")
        self._wish_pending = False
        self.wish_value = value
        self.wish_open = value != 0
        self.events.append(Action(ActionKind.WISH, seat, value))
        self.turn = self._next_active(seat)

    def wish_choices(self) -> list[int]:
        """The values that may be wished (R5.1): 2..14, and 0 where the wish is optional."""
        return ([0] if self.rules.wish_optional else []) + list(range(2, 15))

    def dragon_recipients(self) -> list[int]:
        """The seats that may receive the Dragon trick (R4.5): both opponents of its winner."""
        owner = self.trick_owner
        if not self._dragon_pending or owner is None:
            return []
        return list(opponents(owner))

    def give_dragon(self, seat: int, to: int) -> TrickTaken:
        """Give a trick won with the Dragon to an opponent (R4.5).

        :returns: The trick given away.
        :raises RuleViolation: (``DRAGON_RECIPIENT``) if no gift is due from this
            seat or ``to`` is not an opponent.
        """
        check_seat(seat)
        if not self._dragon_pending or seat != self.trick_owner:
            raise RuleViolation(Violation.DRAGON_RECIPIENT, "R4.5", "no Dragon trick to give away")
        if not _is_int(to) or to not in self.dragon_recipients():
            raise RuleViolation(Violation.DRAGON_RECIPIENT, "R4.5",
                                "the Dragon trick goes to an opponent")
        self._dragon_pending = False
        self.events.append(Action(ActionKind.DRAGON, seat, to))
        taken = self.collect_trick(to)
        if len(self.out_order) >= 3:
            self._finish()
        return taken

    # -- helpers ------------------------------------------------------------------------

    def _next_active(self, seat: int) -> int:
        """The next seat after ``seat`` that still has cards (``seat`` itself last)."""
        following = (seat + 1) % 4
        if self.hands[following]:
            return following
        for offset in (2, 3, 4):
            candidate = (seat + offset) % 4
            if self.hands[candidate]:
                return candidate
        raise AssertionError("no seat has cards")

    def play_key(self) -> tuple[object, ...]:
        """What decides the rest of a round in play at a play decision, given every seat is
        prompted (:class:`~tichu.core.flow.GameState`): the hands, the open trick (its top,
        owner, points, whether it is closed and the passes since its last play), the seat at
        turn, the open wish, who is out in which order, the calls, who has played (R6.1) and
        each seat's card points taken so far (R7).

        Two rounds with the same key at a play decision go on alike and end with the same
        result (an exact search's transposition table keys on it); the order of the cards
        taken, the record's events and the trick's history are left out: they decide nothing.
        """
        won = self.won
        carried = self.carried_points
        return (self.hands[0], self.hands[1], self.hands[2], self.hands[3], self.trick, self.trick_owner,
                points_of(self.trick_cards), self.trick_closed, self._passes, self.turn,
                self.wish_value if self.wish_open else 0, tuple(self.out_order), tuple(self.announcements),
                tuple(self.has_played), points_of(won[0]) + carried[0], points_of(won[1]) + carried[1],
                points_of(won[2]) + carried[2], points_of(won[3]) + carried[3])

    # -- the end (R7) -------------------------------------------------------------------

    def _finish(self) -> None:
        self._forget_combinations()  # a finished round plays no more: kept for its record, it holds no caches
        self.phase = Phase.OVER
        self.turn = None
        self._wish_pending = False
        out = self.out_order
        first = out[0]
        if len(out) == 2:
            card_points = [0, 0]
            card_points[team_of(first)] = 200  # R7.1
        else:
            last = next(seat for seat in range(4) if seat not in out)
            won = list(self.won)
            opponents_team = 1 - team_of(last)
            hand_points = points_of(self.hands[last])  # R7.2: hand to the opponents
            won[first] |= won[last]  # R7.2: tricks to the first out
            won[last] = 0
            carried = list(self.carried_points)
            carried[first] += carried[last]
            carried[last] = 0
            card_points = [points_of(won[0] | won[2]) + carried[0] + carried[2],
                           points_of(won[1] | won[3]) + carried[1] + carried[3]]
            card_points[opponents_team] += hand_points
        bonus = [0, 0]
        success: list[bool | None] = [None] * 4
        for seat, call in enumerate(self.announcements):
            if call:
                won_call = seat == first
                success[seat] = won_call
                stake = 100 * call  # R6.1: 100, R6.2: 200
                bonus[team_of(seat)] += stake if won_call else -stake
        self._result = RoundResult(
            tuple(out), len(out) == 2, (card_points[0], card_points[1]), (bonus[0], bonus[1]),
            (card_points[0] + bonus[0], card_points[1] + bonus[1]), tuple(success), tuple(self.announcements))

    def result(self) -> RoundResult:
        """The outcome (R7).

        :raises RuleViolation: If the round is not over.
        """
        if self._result is None:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R7", "the round is not over")
        return self._result


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def find_legal_play(cards: int, hand: int, legal: Sequence[Play], *, is_lead: bool, wish: int) -> Play:
    """Return the play of ``legal`` that these cards make, or say which rule refuses them.

    :param cards: The card mask a seat wants to play.
    :param hand: The seat's hand.
    :param legal: The seat's legal plays now (:meth:`Round.legal_plays`).
    :param is_lead: Whether the seat leads a trick.
    :param wish: The open wish (0 if none).
    :returns: The legal play.
    :raises RuleViolation: ``UNKNOWN_CARD``, ``NOT_IN_HAND``, ``NO_COMBINATION`` or
        ``ACTION_NOT_ALLOWED`` (the Dog not on a lead, R3.10; an unfulfilled wish, R5.2; a
        combination that does not beat the trick, R4.1).
    """
    if not isinstance(cards, int) or cards < 0 or cards >> 56:
        raise RuleViolation(Violation.UNKNOWN_CARD, "R1.1", "unknown cards")
    if cards & ~hand:
        raise RuleViolation(Violation.NOT_IN_HAND, "R4.1", "cards not in the hand")
    if classify_mask(cards) is None:
        raise RuleViolation(Violation.NO_COMBINATION, "R3", "the cards form no combination")
    for play in legal:
        if play.cards == cards:
            return play
    if cards == DOG and not is_lead:
        raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R3.10", "the Dog can only lead a trick")
    if wish and any(play.cards & VALUE_MASK[wish] for play in legal):
        raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R5.2", f"the wish ({wish}) must be fulfilled")
    raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R4.1", "the combination does not beat the trick")


def check_seat(seat: int) -> None:
    """Refuse anything but a seat index 0..3 (R1.3).

    :raises RuleViolation: For any other value.
    """
    if not _is_int(seat) or not 0 <= seat < 4:
        raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R1.3", f"no seat {seat!r}")


def _check_deal(deal: Sequence[tuple[int, int]]) -> None:
    everything = 0
    total = 0
    for first, second in deal:
        if first.bit_count() != 8 or second.bit_count() != 6:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R2.1", "each seat gets 8 + 6 cards")
        everything |= first | second
        total += 14
    if len(deal) != 4 or everything != DECK or total != 56:
        raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R1.1", "the deal must hold the 56 cards once each")


#: Builds an :class:`Action` without the named tuple's Python-level ``__new__`` (every play's event).
_new_action = tuple.__new__
#: A play's outcome when it fulfilled the wish (R5.4): shared, the outcome holds nothing.
_FULFILLED: Final[Outcomes] = (WishFulfilled(),)
#: Each seat's pass as an event (an action is immutable: one object serves every pass).
_PASSES = tuple(Action(ActionKind.PASS, seat) for seat in range(4))
#: A valid deal that :meth:`Round.resume` starts from before it sets the real position.
_PLACEHOLDER_DEAL = [(0xFF << 14 * seat, 0x3F << (14 * seat + 8)) for seat in range(4)]
