"""A game of Tichu in OpenSpiel's terms: the core's :class:`~tichu.core.flow.GameState` with the
deal card by card and the push card by card (``pip install tichu[spiel]``; docs/learning.md).

OpenSpiel wants one action at a time, each a number: chance deals one card per chance node and a
seat pushes one card per decision, where the core takes a whole deal (R2.1) and a whole push
(R2.3). :class:`Position` adds exactly that to the core, and nothing else: every other decision
is the core's, as an action of the learning agents' catalogue
(:mod:`tichu.agents.learning.actions`). It imports no OpenSpiel, so the game
(:mod:`tichu.learn.spiel`) and the search's rollouts (:mod:`tichu.learn.spiel_match`) share it.

The chance model: the deck is dealt one card at a time, each chance node's outcomes being the
cards not dealt yet, all equally likely; the ``k``-th card dealt (``k`` = 0..55) goes to seat
``k % 4``, into its first eight cards for ``k < 32`` and into its last six after that, as cards
go round a table (R2.1, R2.2). When the 56th card is dealt the core deals the round
(:meth:`~tichu.core.flow.GameState.deal`); every order of the cards is equally likely, so every
deal is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tichu.agents.learning.actions import Choice, apply_answer, choice_of
from tichu.agents.learning.observation import Question
from tichu.core.flow import GameState
from tichu.core.round import Decision, Phase

#: OpenSpiel's player ids of chance and of the end (``pyspiel.PlayerId.CHANCE``, ``TERMINAL``).
CHANCE = -1
TERMINAL = -4
#: The cards of a deal, and how many of them are dealt before Grand Tichu (8 per seat, R2.1).
DECK_SIZE = 56
FIRST_PART = 32


def deal_of(cards: Sequence[int]) -> list[tuple[int, int]]:
    """The core's deal of 56 card indexes in the order dealt: per seat its ``(first 8, last 6)``
    masks; card ``k`` goes to seat ``k % 4``, into the first eight for ``k < 32`` (R2.1, R2.2)."""
    first, last = [0, 0, 0, 0], [0, 0, 0, 0]
    for position, card in enumerate(cards):
        if position < FIRST_PART:
            first[position % 4] |= 1 << card
        else:
            last[position % 4] |= 1 << card
    return list(zip(first, last))


class Position:
    """A game at one moment, as OpenSpiel steps it: the core's state, the cards dealt so far of a
    deal in progress, and the answers of seats deciding at once that the core holds back until
    every seat has answered (R2.1, R2.3).

    :ivar core: The game (its rule set carries the target score, R7.4).
    :ivar max_rounds: The game ends after this many rounds even without a winner.
    :ivar dealt: The cards dealt so far of the next round's deal, in order.
    :ivar grand: Per seat its Grand Tichu answer while the others still decide (R2.1), else ``None``.
    :ivar pushes: Per seat the cards it pushed so far (to right, partner, left) while the push
        lasts (R2.3); empty once the cards have changed hands.
    :ivar public_log: The round's public events as text, filled by :mod:`tichu.learn.spiel_info`
        as it needs them (a cache: the events are the round's, R8.1).
    :ivar paid: Every seat's return as the state's rewards have paid it so far: the score
        difference where a seat last decided or the game ended (:meth:`rewards`).
    :ivar reward: What :attr:`paid` changed by with the last transition.
    """

    __slots__ = ("core", "max_rounds", "dealt", "grand", "pushes", "public_log", "paid", "reward", "_choice")

    def __init__(self, core: GameState, max_rounds: int) -> None:
        if max_rounds < 1:
            raise ValueError("a game has at least one round")
        self.core = core
        self.max_rounds = max_rounds
        self.dealt: list[int] = []
        self.grand: list[bool | None] = [None, None, None, None]
        self.pushes: list[list[int]] = [[], [], [], []]
        self.public_log: list[str] = []
        self.paid: tuple[int, ...] = (0, 0, 0, 0)
        self.reward: tuple[int, ...] = (0, 0, 0, 0)
        self._choice: Choice | None = None

    def clone(self) -> Position:
        """An independent copy (the core cloned, immutable values shared)."""
        return self._with(self.core.clone(), keep_choice=True)

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        """OpenSpiel clones a Python state by deep-copying its attributes: a clone is that copy."""
        return self.clone()

    def _with(self, core: GameState, *, keep_choice: bool) -> Position:
        """A copy around ``core``; the current decision's actions are kept where they are the
        same (a clone), not for another world (the deciding seat's hand may differ there)."""
        other = Position.__new__(Position)
        other.core = core
        other.max_rounds = self.max_rounds
        other.dealt = list(self.dealt)
        other.grand = list(self.grand)
        other.pushes = [list(cards) for cards in self.pushes]
        other.public_log = list(self.public_log)
        other.paid = self.paid
        other.reward = self.reward
        other._choice = self._choice if keep_choice else None
        return other

    # -- OpenSpiel's questions --------------------------------------------------------------

    @property
    def rounds_played(self) -> int:
        """The finished rounds."""
        game = self.core.game
        assert game is not None
        return len(game.results)

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over (R7.4), or truncated after :attr:`max_rounds` rounds."""
        core = self.core
        return core.is_over or (core.decision == Decision.DEAL and not self.dealt
                                and self.rounds_played >= self.max_rounds)

    @property
    def is_chance(self) -> bool:
        """Whether chance deals the next card."""
        return self.core.decision == Decision.DEAL and not self.is_terminal

    def current_player(self) -> int:
        """The seat that decides, :data:`CHANCE` during a deal, :data:`TERMINAL` at the end."""
        if self.is_terminal:
            return TERMINAL
        seat = self.core.decision_seat
        assert seat is not None
        return seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, each as likely as the others."""
        if not self.is_chance:
            raise ValueError("no card is being dealt")
        dealt = set(self.dealt)
        left = [card for card in range(DECK_SIZE) if card not in dealt]
        return [(card, 1.0 / len(left)) for card in left]

    def choice(self) -> Choice:
        """The current decision as catalogue actions, each with the core's answer.

        :raises ValueError: During a deal or at the end (no seat decides).
        """
        if self._choice is None:
            if self.is_terminal:
                raise ValueError("the game is over")
            seat = self.core.decision_seat
            pushed = sum(self.pushes[seat]) if seat is not None and seat >= 0 else 0
            self._choice = choice_of(self.core, pushed)
        return self._choice

    def legal_actions(self) -> list[int]:
        """The allowed actions, ascending: cards during a deal, else the catalogue's."""
        if self.is_terminal:
            return []
        if self.is_chance:
            return [card for card, _ in self.chance_outcomes()]
        return sorted(self.choice().answers)

    def apply(self, action: int) -> None:
        """Apply a legal action: deal a card, or answer the current decision.

        :raises ValueError: For an action that is not allowed now (nothing changes then).
        """
        if self.is_terminal:
            raise ValueError("the game is over")
        if self.is_chance:
            self._deal_card(action)
        else:
            self._decide(action)
        self._pay()

    def _pay(self) -> None:
        """Pay the score's change since the last payment, on arriving where a seat decides or the
        game ends; a card dealt into a deal still in progress pays nothing (:meth:`rewards`)."""
        paid = self.paid
        if not self.is_chance:
            self.paid = self.core.returns()
        self.reward = tuple(now - then for now, then in zip(self.paid, paid))

    def _decide(self, action: int) -> None:
        """Answer the current decision with a catalogue action (held back while seats decide at
        once, R2.1, R2.3).

        :raises ValueError: For an action that is not allowed now (nothing changes then).
        """
        choice = self.choice()
        if action not in choice.answers:
            raise ValueError(f"action {action} is not allowed now (allowed: {sorted(choice.answers)})")
        core = self.core
        seat = core.decision_seat
        assert seat is not None
        answer = choice.answers[action]
        question = choice.question
        self._choice = None
        if question == Question.PUSH:
            assert isinstance(answer, int)
            self.pushes[seat].append(answer)
            if len(self.pushes[seat]) == 3:
                apply_answer(core, question, seat, tuple(self.pushes[seat]))
                self._after_decided_at_once()
            return
        if question == Question.GRAND_TICHU:
            self.grand[seat] = answer is True
        apply_answer(core, question, seat, answer)
        self._after_decided_at_once()

    def _deal_card(self, card: int) -> None:
        if not isinstance(card, int) or not 0 <= card < DECK_SIZE or card in self.dealt:
            raise ValueError(f"card {card} is dealt already or no card")
        self.dealt.append(card)
        if len(self.dealt) == DECK_SIZE:
            self.core.deal(deal_of(self.dealt))
            self.dealt = []
            self.grand = [None, None, None, None]
            self.pushes = [[], [], [], []]
            self.public_log = []

    def _after_decided_at_once(self) -> None:
        """Forget the held-back answers once the core has taken them all (R2.1, R2.3): from
        then on the core shows them (the calls, each seat's pushed and received cards)."""
        round_ = self.core.round
        phase = round_.phase if round_ is not None else Phase.OVER
        if phase != Phase.GRAND_TICHU:
            self.grand = [None, None, None, None]
        if phase != Phase.SCHUPF:
            self.pushes = [[], [], [], []]

    def returns(self) -> list[float]:
        """Per seat its team's points minus the other team's so far (R7.3): zero-sum, the
        partners alike."""
        return [float(value) for value in self.core.returns()]

    def paid_returns(self) -> list[float]:
        """Per seat the rewards received so far: :meth:`returns` where a seat decides or the
        game ends; during a deal, without the round just ended, which the deal's last card pays."""
        return [float(value) for value in self.paid]

    def rewards(self) -> list[float]:
        """What each seat received with the last transition alone, as OpenSpiel defines a reward,
        so that the rewards of every transition of a game add up to its returns.

        A round's points are paid once, with the transition that arrives at the next state where a
        seat decides: the deal's last card, or the decision that ends the round if the game ends
        with it; every other transition pays zero. OpenSpiel's own tools read rewards only where a
        seat decides or at the end (its ``rl_environment`` deals the chance nodes before it reads
        them, its ``random_sim_test`` adds them up there), so a round's points paid with the
        decision that ends it, before the next deal's 56 chance nodes, would reach none of them.
        """
        return [float(value) for value in self.reward]

    # -- other worlds -------------------------------------------------------------------------

    def redealt(self, hands: Sequence[int], rest: Sequence[int] | None = None,
                grand: Sequence[bool | None] | None = None, pushes: Sequence[Sequence[int]] | None = None
                ) -> Position:
        """A copy with other cards in the hands and other held-back answers: a world that a seat
        cannot tell from this one (R8), see :meth:`~tichu.core.flow.GameState.redeal`.

        :param hands: The four hands now.
        :param rest: During Grand Tichu, the four sets of six cards still to be dealt (R2.1).
        :param grand: During Grand Tichu, per seat its held-back answer (``None``: not decided).
        :param pushes: During the push, per seat the cards it pushed so far, in order (R2.3).
        :raises ValueError: If the cards do not fit (as ``redeal``, or a push of cards not in its hand).
        """
        round_ = self.core.round
        if round_ is None or self.is_chance or self.is_terminal:
            raise ValueError("no round is being played")
        answers = list(self.grand if grand is None else grand)
        chosen = [list(cards) for cards in (self.pushes if pushes is None else pushes)]
        pending: list[object] | None = None
        if round_.phase == Phase.GRAND_TICHU:
            pending = list(answers)
        elif round_.phase == Phase.SCHUPF:
            for seat, cards in enumerate(chosen):
                if sum(cards) & ~hands[seat] or len(set(cards)) != len(cards):
                    raise ValueError("a push gives distinct cards of its seat's hand")
            pending = [tuple(cards) if len(cards) == 3 else None for cards in chosen]
        core = self.core.redeal(hands, rest, pending)
        other = self._with(core, keep_choice=False)
        other.grand = answers
        other.pushes = chosen
        return other


__all__ = ["CHANCE", "DECK_SIZE", "FIRST_PART", "TERMINAL", "Position", "deal_of"]
