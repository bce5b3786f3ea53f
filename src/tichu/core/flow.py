"""Tichu as one extensive-form game: every decision of a whole game, in one order (rules.md).

A :class:`GameState` takes a game (R7.4) through its rounds
(:class:`~tichu.core.round.Round`, which knows what each play, call and bomb may be). It
adds what a round alone does not say: who is asked what, and in which order. The engine,
the Arena's loop, the searches, the environments and the clients all ask it, so the flow
of a game is written here once.

The contract (after OpenSpiel's states):

- :attr:`GameState.decision` is the decision the game waits for: the deal (a chance event,
  ``DEAL``, made by :data:`CHANCE`), Grand Tichu (R2.1), the push (R2.3), an offered Tichu
  call (``TICHU``, R6.1), an offered bomb (``BOMB``, R4.3), a play or pass (R4.1), the wish
  (R5.1) or the Dragon gift (R4.5); ``NONE`` once the game is over.
  :attr:`GameState.decision_seat` is the seat that makes it. :meth:`GameState.legal_actions`
  lists its actions, :meth:`GameState.apply` applies one (the named methods do the same);
  :attr:`GameState.is_over` and :meth:`GameState.returns` end it; :meth:`GameState.clone`
  copies it cheaply. Every method that changes the state validates first and raises
  :class:`~tichu.core.errors.RuleViolation` without changing anything.
- The deal is an explicit chance outcome: :meth:`GameState.deal` draws it from the game's
  shuffle source, or takes any deal given (a search's sample, a replay's record). The
  source, and its seed, belong to whoever runs the game, never to the rules (R8).
- The order of offers: before every play decision (R4.1), each seat that may still call
  Tichu (R6.1) is offered the call, in seat order from seat 0; then, on a trick with a
  combination to beat, each seat holding a bomb that may land (R4.3) is offered it, the
  seat nearest after the trick's owner first and the owner last, the seat at turn excepted
  (it plays a bomb as its play). When the last pass has closed a trick (R4.2), and before a
  Dragon's trick is given away (R4.5), every seat that could bomb it is offered a bomb in
  the same order, the seat at turn included. A bomb starts the offers afresh; a call does
  not move them on. With ``tichu_before_schupf`` the calls are offered before the push too.
- Seats deciding at once: Grand Tichu and the push are open for every seat that has not
  answered (:meth:`GameState.open_decisions`); answers are taken in any order and take
  effect together when the last is in, so no seat learns another's answer before its own,
  as at a table. :attr:`~GameState.decision_seat` names the first of them (seat order) for
  searches and environments, which ask one seat after another.
- Seats that act by themselves: an agent cannot act unprompted, so it is offered calls and
  bombs (:attr:`GameState.prompted`); a person at the server is not, and calls or bombs by
  itself: :meth:`GameState.apply` takes a Tichu call (R6.1) or a bomb (R4.3) of any seat at
  any moment the round allows it. Before a closed trick is taken, the seats that act by
  themselves and could still bomb it by public facts (they hold cards, the round goes on;
  the owner only on the Dragon's trick) form the bomb window: each has an open ``BOMB``
  decision, which its driver declines for it once it has waited long enough.
- A search's world (R8): :meth:`GameState.at_offer` puts a round at one seat's decision with
  the offers of the moment where this order puts them, and :func:`tichu.core.worlds.world_of`
  builds that round from the seat's view and a guess of what it cannot see, so a search
  clones a world, applies an action and plays on through this same flow.
- A trick is taken (R4.2) when every offer on it was declined, within the ``apply`` of the
  last pass or decline; a round's result is booked (R7.3) within the ``apply`` that ends it.
- What happened: :meth:`GameState.apply` and the named methods return the outcomes of the
  action (:mod:`tichu.core.outcomes`), in order: a trick taken (R4.2, R4.5), a seat out
  (R7.1), the wish made or fulfilled (R5.1, R5.4), a call (R6), the push done (R2.3, R2.5), the
  seat at turn after a play, a trick or a wish (R4.1), the cards dealt (R2.1, R2.2), the
  round's result (R7.3), the game's end (R7.4). The table is told these, and records are
  built from them; nobody compares the state before and after an action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations

from tichu.core.cards import indices_of
from tichu.core.combos import PASS_PLAY, Play, legal_plays_from
from tichu.core.errors import RuleViolation, Violation
from tichu.core.game import Game
from tichu.core.outcomes import (
    NOTHING,
    TURN_TO,
    GameEnded,
    HandCardsDealt,
    Outcomes,
    PlayerAnnounced,
    PlayerSchupfed,
    RoundEnded,
    RoundStarted,
    StartPlaying,
    WishMade,
)
from tichu.core.round import Action, ActionKind, Decision, Phase, Round, check_seat
from tichu.core.ruleset import RuleSet

#: The seat of chance: it makes the deal (OpenSpiel's chance player).
CHANCE = -1
#: Every seat is offered calls and bombs (agents only, as in the Arena and in searches).
ALL_PROMPTED = (True, True, True, True)

# Where the offers of the current moment stand: calls, then bombs, then the bomb window of the
# seats that act by themselves, then the round's own decision.
_CALLS, _BOMBS, _WINDOW, _MAIN = 0, 1, 2, 3


class GameState:
    """A game of Tichu at one moment; see the module docstring for the contract.

    :ivar rules: The rule set.
    :ivar game: The scores and the shuffle source (``None`` for a state of one round only).
    :ivar round: The round being played (or the last one), ``None`` before the first deal.
    :ivar round_index: The index of that round, from 0.
    :ivar rounds: The finished rounds, kept when ``keep_rounds`` (a game record needs them).
    :ivar prompted: Per seat whether it is offered Tichu calls and bombs (an agent) or acts
        by itself (a person).
    :ivar decision: The decision the game waits for.
    :ivar decision_seat: The seat that makes it (:data:`CHANCE` for the deal, ``None`` at the end).
    """

    def __init__(self, rules: RuleSet | None = None, game: Game | None = None, *, seed: int | None = None,
                 prompted: Sequence[bool] = ALL_PROMPTED, keep_rounds: bool = False) -> None:
        """Start a game before its first deal.

        :param rules: (Optional) The rule set.
        :param game: (Optional) The game's scores and shuffle source; a new
            :class:`~tichu.core.game.Game` of ``rules`` if omitted, its shuffles seeded by ``seed``.
        :param seed: (Optional) Seed of the new game's shuffles (the caller runs the game and
            owns it; the rules do not carry it, R8); ``None`` for a random one.
        :param prompted: Per seat whether it is offered calls and bombs.
        :param keep_rounds: Keep the finished rounds in :attr:`rounds`.
        """
        self.rules = rules or RuleSet()
        self.game: Game | None = game or Game(self.rules, random.Random(seed))
        self.round: Round | None = None
        self.round_index = 0
        self.rounds: list[Round] = []
        self.keep_rounds = keep_rounds
        self.prompted = _prompted(prompted)
        self.decision = Decision.DEAL
        self.decision_seat: int | None = CHANCE
        self._acting = not all(self.prompted)  # some seat acts by itself: bomb windows
        self._pending: list[object] = [None, None, None, None]  # answers of seats deciding at once
        self._stage = _MAIN
        self._next = 0  # the next seat (calls) or offset after the trick's owner (bombs) to look at
        self._window: list[int] = []
        self._may_call: list[int] = []  # prompted seats that may still call this round
        self._holders: list[int] = []  # prompted seats that may still hold a bomb
        self._booked: Round | None = None

    # -- other starting points -------------------------------------------------------------

    @classmethod
    def within(cls, round_: Round, *, prompted: Sequence[bool] = ALL_PROMPTED, offered: bool = True,
               settle: bool = True) -> GameState:
        """A state of one round only, from a round as it stands (a search's resumed round).

        The state is over when the round is.

        :param round_: The round (not copied).
        :param offered: The offers of this moment were made already: the round's own
            decision is next (a search resumed at the decision it searches).
        :param settle: Find the decision now (else the caller places the offers, then settles).
        """
        state = GameState.__new__(GameState)
        state.rules = round_.rules
        state.game = None
        state.round = round_
        state.round_index = 0
        state.rounds = []
        state.keep_rounds = False
        state.prompted = _prompted(prompted)
        state._acting = not all(state.prompted)
        state._pending = [None, None, None, None]
        state._window = []
        state._booked = None
        state._start_round_offers()
        state._stage = _MAIN if offered else _CALLS
        state._next = 0
        if not settle:
            return state
        if offered and round_.decision == Decision.PLAY and round_.trick_closed:
            round_.collect_trick()  # the lead's decision is next: its trick was taken (R4.2)
        state._settle()
        return state

    @classmethod
    def at_offer(cls, round_: Round, decision: Decision, seat: int,
                 pending: Sequence[object] | None = None) -> GameState:
        """A state of one round only at ``seat``'s ``decision``, the offers of the moment standing
        where the game's order puts them (a world a search draws, :mod:`tichu.core.worlds`): a
        ``TICHU`` offer follows the calls declined by the seats before it; a ``BOMB`` offer the
        bombs declined by the seats nearer after the trick's owner; a ``PLAY``, ``WISH`` or
        ``DRAGON`` decision every offer of the moment. Every seat is prompted.

        :param round_: The round (not copied), in the phase of the decision.
        :param pending: At Grand Tichu and the push (R2.1, R2.3): per seat its answer already
            given (a Grand Tichu ``bool``, a push of three single-card masks, ``None``).
        :raises ValueError: If the round is not at that decision of that seat (then the round
            may have taken a closed trick; it is no longer of use).
        """
        state = cls.within(round_, offered=False, settle=False)
        if decision == Decision.GRAND_TICHU or decision == Decision.SCHUPF:
            if pending is not None:
                if len(pending) != 4:
                    raise ValueError("four pending answers")
                for other, answer in enumerate(pending):
                    if isinstance(answer, tuple) and (answer[0] | answer[1] | answer[2]) & ~round_.hands[other]:
                        raise ValueError("a pending push gives cards of its seat's hand")
                state._pending = list(pending)
            state._stage = _MAIN
        elif decision == Decision.TICHU:
            state._next = seat
        elif decision == Decision.BOMB and round_.trick_owner is not None:
            state._stage = _BOMBS
            state._next = (seat - round_.trick_owner) % 4 or 4
        else:
            state._stage = _MAIN
        state._settle()
        if state.decision != decision or state.decision_seat != seat:
            raise ValueError(f"the round is not at seat {seat}'s {decision.name} decision")
        return state

    @classmethod
    def resume(cls, rules: RuleSet, game: Game, finished: Sequence[Round], unfinished: Round | None, *,
               prompted: Sequence[bool] = ALL_PROMPTED, keep_rounds: bool = False) -> GameState:
        """A game going on from where it was (a server restarting after a crash): the
        finished rounds are booked (R7.3) and the unfinished one is played on from its state,
        with the offers of its current moment made afresh.

        :param game: A new game of the same rules (its shuffle source deals the next rounds).
        :raises ValueError: If a finished round is not over, or the unfinished one is.
        """
        if any(not round_.is_over for round_ in finished) or (unfinished is not None and unfinished.is_over):
            raise ValueError("finished rounds must be over and the unfinished one not")
        state = cls(rules, game, prompted=prompted, keep_rounds=keep_rounds)
        for round_ in finished:
            state.round = round_
            state._book(round_)
        if unfinished is not None:
            state.round = unfinished
            state.round_index = len(game.results)
            state._start_round_offers()
            state._new_moment()
        else:
            state._settle_between_rounds()
        return state

    # -- the contract ----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R7.4), or the one round of a state :meth:`within` it."""
        return self.decision == Decision.NONE

    @property
    def is_chance(self) -> bool:
        """Whether chance decides next: the deal of a round."""
        return self.decision == Decision.DEAL

    def returns(self) -> tuple[int, int, int, int]:
        """Per seat its team's points minus the other team's: the game's total so far, or the
        round's points for a state of one round (R7.3, R7.4)."""
        if self.game is not None:
            total = self.game.total
        elif self.round is not None and self.round.is_over:
            total = list(self.round.result().points)
        else:
            total = [0, 0]
        diff = total[0] - total[1]
        return diff, -diff, diff, -diff

    def open_decisions(self) -> list[tuple[int, Decision]]:
        """Every decision open now, as ``(seat, kind)``: each seat that has not yet decided on
        Grand Tichu or its push (R2.1, R2.3), each seat of a bomb window (R4.3), else the one
        decision (none at the end; the deal is chance's)."""
        decision = self.decision
        if decision == Decision.GRAND_TICHU or decision == Decision.SCHUPF:
            return [(seat, decision) for seat in self._undecided()]
        if decision == Decision.BOMB and self._stage == _WINDOW:
            return [(seat, decision) for seat in self._window]
        seat = self.decision_seat
        if seat is None or seat == CHANCE:
            return []
        return [(seat, decision)]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions of an open decision: of :attr:`decision_seat` unless another seat of
        :meth:`open_decisions` is named. The deal has none to list (it is drawn, :meth:`deal`);
        a seat without an open decision has none.

        Beyond these, a seat may call Tichu or bomb whenever :meth:`can_call` and
        :meth:`bombs_now` allow (R6.1, R4.3).
        """
        if seat is None:
            seat = self.decision_seat
        round_ = self.round
        if seat is None or seat == CHANCE or round_ is None or (seat, self.decision) not in self.open_decisions():
            return []
        decision = self.decision
        if decision == Decision.GRAND_TICHU:
            return [Action(ActionKind.GRAND_TICHU, seat, False), Action(ActionKind.GRAND_TICHU, seat, True)]
        if decision == Decision.SCHUPF:
            cards = [1 << index for index in indices_of(round_.hands[seat])]
            return [Action(ActionKind.SCHUPF, seat, triple) for triple in permutations(cards, 3)]
        if decision == Decision.TICHU:
            return [Action(ActionKind.DECLINE, seat), Action(ActionKind.TICHU, seat)]
        if decision == Decision.BOMB:
            return [Action(ActionKind.DECLINE, seat)] + [Action(ActionKind.BOMB, seat, play.cards)
                                                         for play in round_.bombs_for(seat)]
        return round_.legal_actions()

    def apply(self, action: Action) -> Outcomes:
        """Apply any action: an open decision's, or a seat's Tichu call or bomb out of turn.

        :returns: What the action caused (:mod:`tichu.core.outcomes`), in order.
        :raises RuleViolation: If the action is not allowed now; nothing changes then.
        """
        kind, seat, value = action
        if kind == ActionKind.PLAY:
            return self.play(seat, action.number())
        if kind == ActionKind.PASS:
            return self.play(seat, 0)
        if kind == ActionKind.DECLINE:
            return self.decline(seat)
        if kind == ActionKind.BOMB:
            return self.bomb(seat, action.number())
        if kind == ActionKind.TICHU:
            return self.call(seat)
        if kind == ActionKind.WISH:
            return self.wish(seat, action.number())
        if kind == ActionKind.DRAGON:
            return self.give_dragon(seat, action.number())
        if kind == ActionKind.GRAND_TICHU:
            return self.decide_grand_tichu(seat, value is True)
        if kind == ActionKind.SCHUPF:
            return self.push(seat, action.masks())
        if kind == ActionKind.DEAL:
            if seat != CHANCE:
                raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R2.1", "only chance deals")
            return self.deal(None if value is None else action.deal())
        raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R4", f"unknown action {kind!r}")

    def fallback(self, seat: int) -> Action:
        """What is done for a seat that fails to answer an open decision (a client gone
        silent, an invalid answer): no call and no bomb, the pass where allowed, else the first
        legal play; its three lowest cards for the push (to right, partner, left); the first
        wish and the first recipient the rules allow.

        :raises RuleViolation: If the seat has no open decision.
        """
        round_ = self.round
        if round_ is None or seat not in [open_seat for open_seat, _ in self.open_decisions()]:
            raise RuleViolation(Violation.NOT_YOUR_TURN, "R4.1", "the seat has no open decision")
        decision = self.decision
        if decision == Decision.GRAND_TICHU:
            return Action(ActionKind.GRAND_TICHU, seat, False)
        if decision == Decision.SCHUPF:
            lowest = indices_of(round_.hands[seat])[:3]
            return Action(ActionKind.SCHUPF, seat, (1 << lowest[0], 1 << lowest[1], 1 << lowest[2]))
        if decision == Decision.TICHU or decision == Decision.BOMB:
            return Action(ActionKind.DECLINE, seat)
        if decision == Decision.PLAY:
            legal = round_.legal_plays()
            play = PASS_PLAY if legal[-1] is PASS_PLAY else legal[0]
            return Action(ActionKind.PASS, seat) if not play.cards else Action(ActionKind.PLAY, seat, play.cards)
        return round_.legal_actions()[0]

    def clone(self) -> GameState:
        """Return an independent copy (the round and the game copied, immutable values shared)."""
        other = GameState.__new__(GameState)
        other.rules = self.rules
        other.game = self.game.clone() if self.game is not None else None
        other.round = self.round.clone() if self.round is not None else None
        other.round_index = self.round_index
        other.rounds = list(self.rounds)
        other.keep_rounds = self.keep_rounds
        other.prompted = self.prompted
        other.decision = self.decision
        other.decision_seat = self.decision_seat
        other._acting = self._acting
        other._pending = list(self._pending)
        other._stage = self._stage
        other._next = self._next
        other._window = list(self._window)
        other._may_call = list(self._may_call)
        other._holders = list(self._holders)
        other._booked = other.round if self._booked is self.round and self.round is not None else None
        return other

    def redeal(self, hands: Sequence[int], rest: Sequence[int] | None = None,
               pending: Sequence[object] | None = None) -> GameState:
        """A copy of this state with other cards in the hands: the same history, scores and
        open decisions, a world a search samples for a seat from what it knows (R8; what is
        known is the caller's question, :mod:`tichu.agents.support.knowledge`).

        :param hands: The four hands now, each of the size it has.
        :param rest: While Grand Tichu is decided (R2.1): the four sets of six cards still to
            be dealt (as before if omitted). The hands and these together hold the cards they held
            before, in any split: a seat sees neither the others' first eight nor what is to come.
        :param pending: The answers of the seats that decided at once already (a Grand Tichu
            bool, a push of three of the seat's cards, ``None`` for none yet); the same as
            before if omitted.
        :raises ValueError: If the cards are not this state's cards in hands of the same sizes.
        """
        round_ = self.round
        if round_ is None or len(hands) != 4:
            raise ValueError("four hands of a dealt round")
        other = self.clone()
        copy = other.round
        assert copy is not None
        if any(hands[seat].bit_count() != round_.hands[seat].bit_count() for seat in range(4)):
            raise ValueError("each hand keeps its size")
        if sum(hand.bit_count() for hand in [*hands, *(rest or ())]) != _union([*hands, *(rest or ())]).bit_count():
            raise ValueError("a card in two places")
        before = _union(round_.hands)
        if round_.phase == Phase.GRAND_TICHU and rest is not None:
            # R2.1: the cards still to be dealt are as hidden as the others' first eight, so a
            # world may move cards between the two
            if len(rest) != 4 or any(part.bit_count() != 6 for part in rest):
                raise ValueError("six cards to deal per seat")
            if _union(hands) | _union(rest) != before | _union(round_.second_deal) or _union(hands) & _union(rest):
                raise ValueError("the hands and the cards still to deal hold the same cards as before")
            copy.second_deal = list(rest)
        elif _union(hands) != before:
            raise ValueError("the hands hold the same cards as before")
        copy.hands = list(hands)
        if round_.phase == Phase.GRAND_TICHU:
            copy.first_deal = list(hands)
        copy._combos = [None] * 4
        copy._bombs = [None] * 4
        if pending is not None:
            if len(pending) != 4:
                raise ValueError("four pending answers")
            for seat, answer in enumerate(pending):
                if isinstance(answer, tuple) and (answer[0] | answer[1] | answer[2]) & ~hands[seat]:
                    raise ValueError("a pending push gives cards of its seat's hand")
            other._pending = list(pending)
        other._holders = [seat for seat in range(4) if other.prompted[seat]]  # the bombs are new too
        return other

    # -- chance ---------------------------------------------------------------------------

    def deal(self, deal: Sequence[tuple[int, int]] | None = None) -> Outcomes:
        """Deal the next round (R2.1): from the game's shuffle source, or the given deal.

        :param deal: (Optional) Per seat ``(first 8, last 6)`` card masks.
        :returns: The round started and its first 8 cards dealt.
        :raises RuleViolation: If no deal is due or ``deal`` is not the 56 cards split 8 + 6.
        """
        game = self.game
        if self.decision != Decision.DEAL or game is None:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R2.1", "no deal is due")
        if deal is not None and not _is_deal(deal):
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R2.1", "a deal is four pairs of card masks")
        self.round = game.new_round(deal)
        self.round_index = len(game.results)
        self._booked = None
        self._start_round_offers()
        return (RoundStarted(self.round_index), HandCardsDealt(8), *self._new_moment())

    # -- decisions made at once (R2.1, R2.3) -----------------------------------------------

    def decide_grand_tichu(self, seat: int, call: bool) -> Outcomes:
        """A seat's Grand Tichu decision (R2.1, R6.2); it takes effect with the last seat's.

        :returns: With the last seat's: the Grand Tichu calls, in seat order, and the other 6
            cards dealt (R2.2).
        :raises RuleViolation: Outside R2.1, or if the seat has decided already.
        """
        round_ = self._round_or_refuse(Violation.CALL_NOT_ALLOWED, "R6.2")
        round_.check_grand_tichu(seat)
        if self._pending[seat] is not None:
            raise RuleViolation(Violation.CALL_NOT_ALLOWED, "R6.2", "Grand Tichu is decided once, on the first 8 cards")
        self._pending[seat] = call is True
        if self._undecided():
            return self._settle()
        calls: list[PlayerAnnounced] = []
        for other in range(4):
            answer = self._pending[other]
            if answer is not None:
                round_.decide_grand_tichu(other, answer is True)
                if answer is True:
                    calls.append(PlayerAnnounced(other, True))
        self._pending = [None, None, None, None]
        return (*calls, HandCardsDealt(6), *self._new_moment())

    def push(self, seat: int, cards: Sequence[int]) -> Outcomes:
        """A seat's push: to the right opponent, the partner, the left opponent (R2.3); the
        cards change hands when the last seat has pushed.

        :returns: The seat's push made; with the last seat's, the leader of the first trick (R2.5).
        :raises RuleViolation: Outside R2.3, if the seat pushed already, or for cards that are
            not three distinct cards of its hand.
        """
        round_ = self._round_or_refuse(Violation.ACTION_NOT_ALLOWED, "R2.3")
        triple = round_.check_schupf(seat, cards)
        if self._pending[seat] is not None:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R2.3", "no push is expected from this seat now")
        self._pending[seat] = triple
        pushed = PlayerSchupfed(seat)
        if self._undecided():
            return (pushed, *self._settle())
        pending, self._pending = self._pending, [None, None, None, None]
        for other in range(4):
            answer = pending[other]
            if isinstance(answer, tuple):
                round_.schupf(other, answer)
        leader = round_.turn
        started = NOTHING if leader is None else (StartPlaying(leader),)
        return (pushed, *started, *self._new_moment())

    def _undecided(self) -> list[int]:
        """The seats whose Grand Tichu decision or push is still open."""
        round_ = self.round
        if round_ is None:
            return []
        pending = self._pending
        if round_.phase == Phase.GRAND_TICHU:
            decided = round_.grand_decided
            return [seat for seat in range(4) if not decided[seat] and pending[seat] is None]
        if round_.phase == Phase.SCHUPF:
            given = round_.given
            return [seat for seat in range(4) if given[seat] is None and pending[seat] is None]
        return []

    # -- calls and bombs (R6.1, R4.3) -----------------------------------------------------

    def can_call(self, seat: int) -> bool:
        """Whether a seat may call Tichu now (R2.4, R6.1, R6.3)."""
        round_ = self.round
        return round_ is not None and round_.can_announce(seat)

    def bombs_now(self, seat: int) -> list[Play]:
        """The bombs a seat may lay now (R4.3): out of turn, or at its turn as its play."""
        round_ = self.round
        return [] if round_ is None else round_.playable_bombs(seat)

    def offered_bombs(self) -> list[Play]:
        """The bombs :attr:`decision_seat` is offered now (``BOMB``), else none."""
        round_ = self.round
        seat = self.decision_seat
        if self.decision != Decision.BOMB or round_ is None or seat is None:
            return []
        return round_.bombs_for(seat)

    def in_window(self) -> bool:
        """Whether the open ``BOMB`` decisions are the bomb window of seats that act by
        themselves (their driver waits, then declines for them), not an offer to one seat."""
        return self.decision == Decision.BOMB and self._stage == _WINDOW

    def call(self, seat: int) -> Outcomes:
        """Call Tichu (R6.1): an offered call, or one made unprompted at any moment it is allowed.

        :returns: The call.
        :raises RuleViolation: (``CALL_NOT_ALLOWED``) if the seat may not call now.
        """
        round_ = self._round_or_refuse(Violation.CALL_NOT_ALLOWED, "R6.1")
        round_.announce(seat)
        if self.decision == Decision.TICHU and seat == self.decision_seat:
            self._next = seat + 1
        return (PlayerAnnounced(seat, False), *self._settle())

    def bomb(self, seat: int, cards: int) -> Outcomes:
        """Throw a bomb out of turn (R4.3): an offered one, or one thrown unprompted.

        :returns: What it caused, as :meth:`apply_play`.
        :raises RuleViolation: As :meth:`~tichu.core.round.Round.bomb`.
        """
        round_ = self._round_or_refuse(Violation.BOMB_NOT_ALLOWED, "R4.3")
        return self._played(round_, round_.bomb(seat, cards))

    def decline(self, seat: int) -> Outcomes:
        """Let an offered call or bomb pass, or a seat of the bomb window let it close (R6.1, R4.3).

        :returns: What followed: the trick taken once every offer on it was declined (R4.2).
        :raises RuleViolation: If the seat has no offer open.
        """
        decision, stage = self.decision, self._stage
        if decision == Decision.TICHU and seat == self.decision_seat:
            self._next = seat + 1
        elif decision == Decision.BOMB and stage == _BOMBS and seat == self.decision_seat:
            self._next += 1
        elif decision == Decision.BOMB and stage == _WINDOW and seat in self._window:
            self._window.remove(seat)
        else:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R4.3", "the seat has no offer to decline")
        return self._settle()

    # -- the round's own decisions (R4, R5) -------------------------------------------------

    def legal_plays(self) -> list[Play]:
        """The legal plays of a ``PLAY`` decision (the pass last where allowed), else none."""
        round_ = self.round
        seat = self.decision_seat
        if self.decision != Decision.PLAY or round_ is None or seat is None:
            return []
        trick = round_.trick
        return legal_plays_from(round_.combinations(seat), round_.hands[seat],
                                None if trick is None or round_.trick_closed else trick,
                                round_.wish_value if round_.wish_open else 0)

    def play(self, seat: int, cards: int) -> Outcomes:
        """Play cards at one's turn; the empty mask passes (R4.1).

        :returns: What the play caused, as :meth:`apply_play`.
        :raises RuleViolation: If it is not the seat's play, or as :meth:`~tichu.core.round.Round.play`.
        """
        round_ = self._decision_of(seat, Decision.PLAY, Violation.NOT_YOUR_TURN, "R4.1")
        return self._played(round_, round_.play(seat, cards))

    def apply_play(self, play: Play) -> Outcomes:
        """Apply a play of :meth:`legal_plays` (not checked: the drivers' and searches' fast path).

        :returns: What the play caused, in order: the seat out (R7.1), the wish fulfilled
            (R5.4), the trick taken at the round's end (R7.2), the seat at turn now (R4.1), a
            trick taken because nobody could bomb it (R4.2) and the seat at turn after it, the
            round's result (R7.3), the game's end (R7.4). Most plays only pass the turn on: their
            outcomes are then a shared tuple (:data:`~tichu.core.outcomes.TURN_TO`).
        """
        round_ = self.round
        assert round_ is not None
        caused = round_.apply_legal_play(play)
        self._stage = _CALLS  # :meth:`_played`, inline: every play of every rollout
        self._next = 0
        if round_.phase == Phase.PLAYING:
            taken = self._settle_playing(round_)
            if taken is None:
                return caused
            caused += taken
        return caused + self._settle()

    def _played(self, round_: Round, caused: Outcomes) -> Outcomes:
        """Go on after a play, a pass or a bomb that caused ``caused`` in the round: the offers
        of the new moment (R4.3, R6.1), a trick nobody could bomb taken (R4.2), the round booked
        (R7.3)."""
        self._stage = _CALLS
        self._next = 0
        if round_.phase == Phase.PLAYING:
            taken = self._settle_playing(round_)
            if taken is None:
                return caused
            caused += taken
        return caused + self._settle()

    def wish(self, seat: int, value: int) -> Outcomes:
        """Name the wish after the Mah Jong (R5.1).

        :returns: The wish and the seat at turn after it.
        :raises RuleViolation: (``WISH_NOT_ALLOWED``) if no wish is due from this seat or the value is not allowed.
        """
        round_ = self._decision_of(seat, Decision.WISH, Violation.WISH_NOT_ALLOWED, "R5.1")
        round_.make_wish(seat, value)
        turn = round_.turn
        assert turn is not None
        return (WishMade(value), *TURN_TO[turn], *self._new_moment())

    def give_dragon(self, seat: int, to: int) -> Outcomes:
        """Give the Dragon's trick to an opponent (R4.5).

        :returns: The trick given away, the seat at turn after it (if the round goes on), and
            the round's result and the game's end if the gift ended them (R7.2).
        :raises RuleViolation: (``DRAGON_RECIPIENT``) if no gift is due from this seat or ``to`` is no opponent.
        """
        round_ = self._decision_of(seat, Decision.DRAGON, Violation.DRAGON_RECIPIENT, "R4.5")
        taken = round_.give_dragon(seat, to)
        turn = round_.turn
        caused = (taken,) if turn is None or round_.is_over else (taken, *TURN_TO[turn])
        return caused + self._new_moment()

    def set_prompted(self, seat: int, prompted: bool) -> Outcomes:
        """Change whether a seat is offered calls and bombs (an agent took a person's seat, or
        back). The moment's open decision stays, but for the seat itself: an offer open to it
        lapses when it becomes a person, and it leaves a bomb window when it becomes an agent
        (it is offered from the next moment on).

        :returns: What followed: a trick taken when the seat's offer or window was the last one open (R4.2).
        """
        check_seat(seat)
        if self.prompted[seat] == prompted:
            return NOTHING
        flags = list(self.prompted)
        flags[seat] = prompted
        self.prompted = _prompted(flags)
        self._acting = not all(self.prompted)
        round_ = self.round
        if round_ is None or round_.is_over:
            return NOTHING
        if prompted:
            self._may_call = sorted({*self._may_call, seat})
            self._holders.append(seat)
            if self._stage == _WINDOW and seat in self._window:
                self._window.remove(seat)
        else:
            self._may_call = [other for other in self._may_call if other != seat]
            self._holders = [other for other in self._holders if other != seat]
            if self.decision_seat == seat and self._stage == _CALLS and self.decision == Decision.TICHU:
                self._next = seat + 1
            elif self.decision_seat == seat and self._stage == _BOMBS and self.decision == Decision.BOMB:
                self._next += 1
        return self._settle()

    # -- the moment's offers ----------------------------------------------------------------

    def _round_or_refuse(self, violation: Violation, rule: str) -> Round:
        round_ = self.round
        if round_ is None or round_.is_over:
            raise RuleViolation(violation, rule, "no round is being played")
        return round_

    def _decision_of(self, seat: int, kind: Decision, violation: Violation, rule: str) -> Round:
        round_ = self.round
        if self.decision != kind or seat != self.decision_seat or round_ is None:
            raise RuleViolation(violation, rule, "this decision is not the seat's now")
        return round_

    def _start_round_offers(self) -> None:
        prompted = self.prompted
        self._may_call = [seat for seat in range(4) if prompted[seat]]
        self._holders = list(self._may_call)

    def _new_moment(self) -> Outcomes:
        """Something happened at the table: the offers start afresh (R4.3, R6.1).

        :returns: What followed (:meth:`_settle`)."""
        self._stage = _CALLS
        self._next = 0
        return self._settle()

    def _settle(self) -> Outcomes:
        """Find the decision the game waits for now, taking a trick whose offers were all
        declined (R4.2) and booking a round that ended (R7.3).

        :returns: The tricks taken (with the seat at turn after each), the round's result and
            the game's end; mostly nothing."""
        caused = NOTHING
        while True:
            round_ = self.round
            if round_ is None:
                self.decision, self.decision_seat = Decision.DEAL, CHANCE
                return caused
            phase = round_.phase
            if phase == Phase.PLAYING:
                taken = self._settle_playing(round_)
                if taken is None:
                    return caused
                caused += taken
            elif phase == Phase.OVER:
                if self._booked is not round_:
                    caused += self._book(round_)
                self._settle_between_rounds()
                return caused
            elif phase == Phase.GRAND_TICHU:
                self.decision, self.decision_seat = Decision.GRAND_TICHU, self._undecided()[0]
                return caused
            else:
                if self._stage == _CALLS and self.rules.tichu_before_schupf:
                    seat = self._next_caller(round_)
                    if seat is not None:
                        self.decision, self.decision_seat = Decision.TICHU, seat
                        return caused
                self._stage = _MAIN
                self.decision, self.decision_seat = Decision.SCHUPF, self._undecided()[0]
                return caused

    def _settle_playing(self, round_: Round) -> Outcomes | None:
        """The decision in play: ``None`` once found, else the trick just taken and the seat at
        turn after it (look again).

        On every play's path: it reads the round's fields, not its properties."""
        if round_._wish_pending:
            self.decision, self.decision_seat = Decision.WISH, round_.trick_owner
            return None
        dragon = round_._dragon_pending
        closing = dragon or round_.trick_closed
        stage = self._stage
        if stage == _CALLS:
            if self._may_call and not closing:
                seat = self._next_caller(round_)
                if seat is not None:
                    self.decision, self.decision_seat = Decision.TICHU, seat
                    return None
            stage = self._stage = _BOMBS
            self._next = 1
        if stage == _BOMBS:
            if self._holders and round_.trick is not None:
                seat = self._next_bomber(round_, closing)
                if seat is not None:
                    self.decision, self.decision_seat = Decision.BOMB, seat
                    return None
            stage = self._stage = _WINDOW
            if closing and self._acting:
                self._window = self._window_seats(round_, dragon)
            elif self._window:
                self._window = []  # a bomb in the last window started this moment
        if stage == _WINDOW:
            if self._window:
                self.decision = Decision.BOMB
                self.decision_seat = self._window[0]
                return None
            self._stage = _MAIN
        if dragon:
            self.decision = Decision.DRAGON
            self.decision_seat = round_.trick_owner
        elif round_.trick_closed:
            taken = round_.collect_trick()  # R4.2: every offer on it declined
            self._stage = _CALLS
            self._next = 0
            turn = round_.turn
            return (taken,) if turn is None else (taken, *TURN_TO[turn])
        else:
            self.decision = Decision.PLAY
            self.decision_seat = round_.turn
        return None

    def _next_caller(self, round_: Round) -> int | None:
        """The next prompted seat, from :attr:`_next` on, that may call Tichu (R6.1)."""
        may_call = self._may_call
        announcements, has_played = round_.announcements, round_.has_played
        first = self._next
        for seat in list(may_call):
            if announcements[seat] or has_played[seat]:
                may_call.remove(seat)
            elif seat >= first and round_.can_announce(seat):
                return seat
        return None

    def _next_bomber(self, round_: Round, closing: bool) -> int | None:
        """The next prompted seat, nearest after the trick's owner from :attr:`_next` on, that
        may throw a bomb now (R4.3); the seat at turn only on a closing trick."""
        owner = round_.trick_owner
        assert owner is not None
        turn = round_.turn
        holders = self._holders
        for offset in range(self._next, 5):
            seat = (owner + offset) % 4
            if seat not in holders or (seat == turn and not closing):
                continue
            if not round_.holds_bomb(seat):
                holders.remove(seat)  # cards only leave a hand while playing
                continue
            if round_.bombs_for(seat):
                self._next = offset
                return seat
        return None

    def _window_seats(self, round_: Round, dragon: bool) -> list[int]:
        """The seats that act by themselves and could bomb the closing trick by public facts
        (R4.3): they hold cards and the round goes on; the owner only to keep the Dragon's
        trick (R4.5). Nearest after the owner first."""
        owner = round_.trick_owner
        assert owner is not None
        seats = []
        for offset in (1, 2, 3, 4):
            seat = (owner + offset) % 4
            if not self.prompted[seat] and (dragon or seat != owner) and round_.bomb_window_open(seat):
                seats.append(seat)
        return seats

    # -- the end of a round ----------------------------------------------------------------

    def _book(self, round_: Round) -> Outcomes:
        """Book a finished round's result (R7.3).

        :returns: The round's end, and the game's if it ended too (R7.4)."""
        result = round_.result()
        self._booked = round_
        game = self.game
        if game is None:
            return (RoundEnded(result),)
        game.add_result(result)
        if self.keep_rounds:
            self.rounds.append(round_)
        if not game.is_over:
            return (RoundEnded(result),)
        return RoundEnded(result), GameEnded((game.total[0], game.total[1]), game.winner)

    def _settle_between_rounds(self) -> None:
        if self.game is None or self.game.is_over:
            self.decision, self.decision_seat = Decision.NONE, None
        else:
            self.decision, self.decision_seat = Decision.DEAL, CHANCE


def _union(masks: Sequence[int]) -> int:
    """The cards of all the masks together."""
    found = 0
    for mask in masks:
        found |= mask
    return found


def _is_deal(deal: object) -> bool:
    """Whether ``deal`` has a deal's shape: four pairs of ints (checked untyped: the compiled
    core would refuse anything else with a ``TypeError`` instead of the rules' refusal)."""
    if not isinstance(deal, (list, tuple)) or len(deal) != 4:
        return False
    for pair in deal:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or type(pair[0]) is not int \
                or type(pair[1]) is not int:
            return False
    return True


def _prompted(flags: Sequence[bool]) -> tuple[bool, bool, bool, bool]:
    if len(flags) != 4:
        raise ValueError("four seats")
    return bool(flags[0]), bool(flags[1]), bool(flags[2]), bool(flags[3])


__all__ = ["ALL_PROMPTED", "CHANCE", "GameState"]
