"""frohlfing/tichu's ``HeuristicAgent`` as an :class:`~tichu.agents.agent.Agent` of ours, to measure
our levels against it in our Arena (``poc/vs_frohlfing.py``, issue 34).

frohlfing/tichu (GPL-3.0, https://github.com/frohlfing/tichu) is another Python implementation
of Tichu. Nothing of it is copied here: :class:`TheirCode` loads its modules at run time from a
checkout given by its path, and this module only translates. Its code needs ``python-dotenv``
(its ``requirements.txt``) in the Python that runs this one.

The translation, in pure functions that need none of their code (``tests/arena/test_frohlfing_agent.py``):

- cards: both projects write a card as ``(value, suit)`` with the same values (0 Dog, 1 Mah
  Jong, 2..14, 15 Dragon, 16 Phoenix) and suits (0 special, 1..4); ours are masks over 56
  indices (:mod:`tichu.core.cards`), theirs lists, highest first;
- combinations: the same type numbers (0 pass .. 7 bomb) and, checked type by type, the same
  ranks (a Phoenix single the rank of the single it beats, 1 on a lead); the trick is the
  top play of the public ``trick_turns`` (the Dog stays ``(1, 1, 0)`` as in their engine);
- seats: both number the seats alike, play on to ``seat + 1`` and push to the right
  opponent (``seat + 1``), the partner, the left opponent, in this order;
- the wish: theirs is -1 before the Mah Jong is played and while its wish is asked, 0 when
  none is open, else the value;
- whose turn it is: our view's ``current_turn_index`` names the seat a decision is asked of;
  their agent reads the seat at turn, which :func:`seat_at_turn` finds from the trick's
  turns, or at a lead from the last trick's owner this seat saw (it is offered a call at
  every moment while it may call, so it sees every trick's last owner).

Their engine asks differently from ours, so the adapter asks them only where their engine
would: a plain Tichu at the seat's own turn while it holds 14 cards and nobody is out; a bomb
out of turn (their ``play()`` while another seat is at turn, or the owner of a lying Dragon).
Their answers are checked against what our core allows; one it refuses is an **illegal
decision**: counted in :class:`Tally` by kind, and replaced by a legal choice.
"""

from __future__ import annotations

import importlib
import sys
from collections import Counter
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tichu.agents.agent import Agent
from tichu.core.cards import CARDS, DOG, MAHJONG, cards_of, mask_of
from tichu.core.combos import PASS, SINGLE, Play
from tichu.core.views import PublicState, SeatView, TablePhase

#: Their cards: ``(value, suit)`` pairs.
TheirCards = list[tuple[int, int]]
#: Their combination: ``(type, length, rank)``.
TheirCombination = tuple[int, int, int]

#: Their empty trick (and pass).
NO_TRICK: TheirCombination = (PASS, 0, 0)
#: Their combination of the Dog on the table.
DOG_TRICK: TheirCombination = (SINGLE, 1, 0)


def their_cards(mask: int) -> TheirCards:
    """Our card mask as their card list: ``(value, suit)`` pairs, highest first (their sort order)."""
    return [(card.value, card.suit) for card in cards_of(mask)]


def our_mask(cards: Sequence[Sequence[int]]) -> int:
    """Their card list as our mask.

    :raises tichu.core.errors.RuleViolation: For a card that does not exist or comes twice.
    """
    return mask_of((int(card[0]), int(card[1])) for card in cards)


def trick_top(public: PublicState) -> tuple[int, Play] | None:
    """The seat and play on top of the trick lying on the table (the last turn that was no
    pass), or ``None`` when no trick lies."""
    for seat, play in reversed(public.trick_turns):
        if play.kind != PASS:
            return seat, play
    return None


def their_trick(public: PublicState) -> tuple[int, TheirCards, TheirCombination]:
    """The trick as their public state holds it: owner (-1 if none), cards, combination."""
    top = trick_top(public)
    if top is None:
        return -1, [], NO_TRICK
    seat, play = top
    combination = DOG_TRICK if play.cards == DOG else (play.kind, play.length, play.rank)
    return seat, their_cards(play.cards), combination


def their_wish(public: PublicState, asking_wish: bool) -> int:
    """The wish as their public state holds it: -1 before the Mah Jong is played and while its
    wish is asked (their engine asks when it is -1), 0 when none is open, else the value."""
    if asking_wish or not public.played_cards & MAHJONG:
        return -1
    return public.wish_value if public.wish_open else 0


def next_active(counts: Sequence[int], seat: int) -> int:
    """The next seat after ``seat`` that still holds cards (``seat`` itself last), as our core's turn moves."""
    for offset in (1, 2, 3, 4):
        candidate = (seat + offset) % 4
        if counts[candidate]:
            return candidate
    raise ValueError("no seat holds cards")


def seat_at_turn(public: PublicState, seat: int, hand: int, last_owner: int | None, passes: int = 0) -> int | None:
    """The seat at turn, from what ``seat`` sees: after the trick's last play and ``passes``
    passes since, the next seat with cards (after the Dog, from the partner on); at a lead the
    last trick's owner (or the next seat with cards if it is out), and at the round's first
    lead the holder of the Mah Jong.

    :param last_owner: The owner of the trick ``seat`` saw last this round, if any.
    :param passes: The passes since the trick's last play (:class:`Moments`): the public
        state does not show them.
    :returns: The seat, or ``None`` when the seat cannot tell (someone else leads first, or
        it saw no trick yet).
    """
    counts = public.count_hand_cards
    if public.trick_turns:
        last, play = public.trick_turns[-1]
        turn = next_active(counts, (last + 1) % 4 if play.cards == DOG else last)
        for _ in range(passes):
            turn = next_active(counts, turn)
        return turn
    if not public.played_cards:
        return seat if hand & MAHJONG else None
    if last_owner is None:
        return None
    return last_owner if counts[last_owner] else next_active(counts, last_owner)


def closing(public: PublicState, passes: int) -> bool:
    """Whether the trick closes with ``passes`` passes since its last play: every other seat
    with cards passed, the owner among them once it is out (R4.2)."""
    owner = public.trick_owner_index
    if owner is None or not public.trick_turns:
        return False
    return passes >= (3 if public.count_hand_cards[owner] else 4) - len(public.out_order)


@dataclass
class Moments:
    """Counts the moments a seat is offered something in while the trick's plays stay the same:
    our flow offers a seat a call (or a bomb) once at every moment while it may, and a pass
    makes a moment that changes nothing the public state shows, so the moments after a play
    are its passes (after the Mah Jong, the first offer comes after the wish).

    :ivar key: The round and the trick's turns last seen.
    :ivar passes: The passes since the trick's last play.
    """

    key: tuple[int, tuple[tuple[int, Play], ...]] | None = None
    passes: int = 0

    def see(self, public: PublicState) -> int:
        """Count an offer at ``public``'s moment; return the passes since the trick's last play."""
        key = (public.round_index, public.trick_turns)
        if key == self.key:
            self.passes += 1
        else:
            self.key, self.passes = key, 0
        return self.passes


def public_fields(view: SeatView, turn: int | None, asking_wish: bool = False) -> dict[str, Any]:
    """The fields of their ``PublicState`` that their heuristic reads, from our view.

    :param turn: The seat at turn as their agent should see it (-1 when ``None``).
    :param asking_wish: The question is the Mah Jong's wish.
    """
    public = view.public_state()
    owner, cards, combination = their_trick(public)
    before_play = public.phase in (TablePhase.GRAND_TICHU, TablePhase.SCHUPF)
    return {
        "current_turn_index": -1 if turn is None else turn,
        # Their agent reads only whether the start player is known (-1 before the play starts).
        "start_player_index": -1 if before_play else (view.seat if turn is None else turn),
        "count_hand_cards": list(public.count_hand_cards),
        "played_cards": their_cards(public.played_cards),
        "announcements": list(public.announcements),
        "wish_value": their_wish(public, asking_wish),
        "trick_owner_index": owner,
        "trick_cards": cards,
        "trick_combination": combination,
        "trick_points": public.trick_points,
        "points": list(public.points),
        "winner_index": public.out_order[0] if public.out_order else -1,
    }


def pushed_cards(cards: tuple[int, int, int] | None) -> tuple[tuple[int, int], ...] | None:
    """Our three pushed (or received) single-card masks as their three cards, in the same order."""
    if cards is None:
        return None
    return tuple((CARDS[mask.bit_length() - 1].value, CARDS[mask.bit_length() - 1].suit) for mask in cards)


def our_play(cards: Sequence[Sequence[int]], combination: Sequence[int], legal: Sequence[Play]) -> Play | None:
    """The legal play their answer names: the one with its cards, of its type and rank where the
    cards form more than one (a full house with the Phoenix), else the highest (no cards: the
    pass, if legal); ``None`` when no legal play has these cards."""
    mask = our_mask(cards)
    matching = [play for play in legal if play.cards == mask]
    if not matching:
        return None
    kind, rank = int(combination[0]), int(combination[2])
    exact = [play for play in matching if play.kind == kind and play.rank == rank]
    return exact[0] if exact else max(matching, key=lambda play: play.rank)


@dataclass
class Tally:
    """What the adapters of a run did: their decisions and the illegal ones, by kind.

    :ivar decisions: Questions their agent answered, by kind.
    :ivar illegal: Answers our core refused (or that failed), by kind.
    :ivar examples: The first few illegal answers, for the report.
    """

    decisions: Counter[str] = field(default_factory=Counter)
    illegal: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def refuse(self, kind: str, detail: str) -> None:
        """Count an illegal answer of ``kind``."""
        self.illegal[kind] += 1
        if len(self.examples) < 10:
            self.examples.append(f"{kind}: {detail}")


class TheirCode:
    """frohlfing/tichu's modules, loaded from a checkout (its package is named ``src``).

    :raises ImportError: When ``checkout`` is not a checkout of frohlfing/tichu, or a
        dependency of theirs is missing (``python-dotenv``).
    """

    def __init__(self, checkout: Path) -> None:
        root = checkout.resolve()
        if not (root / "src" / "players" / "heuristic_agent.py").is_file():
            raise ImportError(f"{root} is no checkout of frohlfing/tichu (no src/players/heuristic_agent.py)")
        sys.path.insert(0, str(root))  # before this tree: its package ``src`` must win
        self.heuristic_agent: Any = importlib.import_module("src.players.heuristic_agent").HeuristicAgent
        self.public_state: Any = importlib.import_module("src.public_state").PublicState
        self.private_state: Any = importlib.import_module("src.private_state").PrivateState
        loaded = Path(importlib.import_module("src").__file__ or "").resolve().parent
        if loaded != root / "src":
            raise ImportError(f"a package 'src' from {loaded} was loaded instead of {root / 'src'}")


def run_sync(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """The result of one of their decision coroutines, which never wait for anything: run to
    its end at once, without an event loop.

    :raises RuntimeError: When it waits after all (it is closed).
    """
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("their decision waited for something; this adapter answers synchronously")


class FrohlfingAgent(Agent):
    """Their ``HeuristicAgent`` at one seat of ours (module docstring: what is translated how).

    :ivar tally: Where decisions and illegal answers are counted (shared by a run's adapters).
    """

    kind = "agent:frohlfing-heuristic"

    def __init__(self, code: TheirCode, name: str, seed: int | None, tally: Tally) -> None:
        super().__init__(name)
        self.tally = tally
        self._code = code
        # Their random generator takes seeds > 0.
        self._agent: Any = code.heuristic_agent(name=name, seed=None if seed is None else seed + 1)
        self._round = -1
        self._hand = -1
        self._last_owner: int | None = None
        self._call_moments = Moments()
        self._bomb_moments = Moments()

    def _ask(self, view: SeatView, kind: str, turn: int | None, asking_wish: bool = False) -> Any:
        """Bring their agent's states up to ``view`` (after :meth:`_see`) and return it, counting the question."""
        private = view.private_state()
        state = self._code.public_state(table_name="arena", player_names=["0", "1", "2", "3"],
                                        **public_fields(view, turn, asking_wish))
        if self._agent.priv is None or self._hand != view.hand:
            mine = self._code.private_state(player_index=view.seat)
            mine.hand_cards = their_cards(view.hand)  # their setter sorts and clears their caches
            self._agent.priv, self._hand = mine, view.hand
        self._agent.priv.given_schupf_cards = pushed_cards(private.given_schupf_cards)
        self._agent.priv.received_schupf_cards = pushed_cards(private.received_schupf_cards)
        self._agent.pub = state
        self.tally.decisions[kind] += 1
        return self._agent

    def _see(self, view: SeatView, passes: int = 0) -> int | None:
        """Follow the table to ``view`` (a new round resets their agent and what this seat
        remembers) and return the seat at turn as this seat can tell it after ``passes``
        passes; remembers the trick's owner for the next lead. Every decision calls it first."""
        public = view.public_state()
        if public.round_index != self._round:
            self._round, self._hand, self._last_owner = public.round_index, -1, None
            self._agent.reset_round()
        turn = seat_at_turn(public, view.seat, view.hand, self._last_owner, passes)
        if public.trick_owner_index is not None:
            self._last_owner = public.trick_owner_index
        return turn

    def decide_grand_tichu(self, view: SeatView) -> bool:
        self._see(view)
        try:
            return bool(run_sync(self._ask(view, "grand_tichu", None).announce()))
        except Exception as error:  # their agent failed: count it, decline
            self.tally.refuse("grand_tichu", repr(error))
            return False

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        self._see(view)
        try:
            cards = run_sync(self._ask(view, "schupf", None).schupf())
            masks = tuple(our_mask([card]) for card in cards)
            if len(masks) == 3 and len(set(masks)) == 3 and all(mask & view.hand for mask in masks):
                return masks[0], masks[1], masks[2]
            self.tally.refuse("schupf", f"{cards!r} from {their_cards(view.hand)}")
        except Exception as error:
            self.tally.refuse("schupf", repr(error))
        low = [1 << index for index in range(56) if view.hand >> index & 1][:3]
        return low[0], low[1], low[2]

    def decide_tichu(self, view: SeatView) -> bool:
        public = view.public_state()
        turn = self._see(view, self._call_moments.see(public) if public.phase == TablePhase.PLAYING else 0)
        if (turn != view.seat or public.phase != TablePhase.PLAYING or view.hand.bit_count() != 14
                or public.announcements[view.seat] or public.out_order):
            return False  # their engine asks only at the seat's own turn with 14 cards, nobody out
        try:
            called = bool(run_sync(self._ask(view, "tichu", turn).announce()))
        except Exception as error:
            self.tally.refuse("tichu", repr(error))
            return False
        if called and not view.private_state().may_announce:
            self.tally.refuse("tichu", "called where our core allows no call")
            return False
        return called

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        public = view.public_state()
        moments = self._call_moments
        turn = self._see(view, moments.passes if moments.key == (public.round_index, public.trick_turns) else 0)
        if view.hand.bit_count() == 14 and not public.announcements[view.seat] and turn != view.seat:
            # Where it decides on their Tichu calls, the seat must tell its own turn.
            self.tally.refuse("turn", f"seat {view.seat} at turn, seen as {turn}")
        try:
            cards, combination = run_sync(self._ask(view, "play", view.seat).play())
            if not cards:
                if legal[-1].kind == PASS:
                    return legal[-1]
                self.tally.refuse("play", "passed where our core allows no pass")
                return legal[0]
            play = our_play(cards, combination, legal)
            if play is not None:
                return play
            self.tally.refuse("play", f"{cards!r} {combination!r} not among {len(legal)} legal plays "
                                      f"(trick {view.trick}, open wish {view.wish or 'none'})")
        except Exception as error:
            self.tally.refuse("play", repr(error))
        return legal[0]

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        public = view.public_state()
        passes = self._bomb_moments.see(public)
        self._see(view, passes)
        owner, _, trick = their_trick(public)
        if not bombs or trick[2] == 0:
            return None  # their engine offers no bomb on a lead or the Dog
        turn = next_active(public.count_hand_cards, view.seat)  # out of turn: their agent reads only that
        if view.seat == owner and closing(public, passes):
            if trick != (SINGLE, 1, 15):
                return None  # their engine asks the seat at turn only to keep the Dragon's trick
            turn = view.seat
        try:
            cards, combination = run_sync(self._ask(view, "bomb", turn).play())
            if not cards:
                return None
            bomb = our_play(cards, combination, bombs)
            if bomb is not None:
                return bomb
            self.tally.refuse("bomb", f"{cards!r} {combination!r} not among the bombs offered")
        except Exception as error:
            self.tally.refuse("bomb", repr(error))
        return None

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        self._see(view)
        try:
            wish = int(run_sync(self._ask(view, "wish", view.seat, asking_wish=True).wish()))
            if wish in choices:
                return wish
            self.tally.refuse("wish", f"{wish} not among {list(choices)}")
        except Exception as error:
            self.tally.refuse("wish", repr(error))
        return choices[-1]

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        self._see(view)
        try:
            recipient = int(run_sync(self._ask(view, "dragon", view.seat).give_dragon_away()))
            if recipient in recipients:
                return recipient
            self.tally.refuse("dragon", f"{recipient} not among {list(recipients)}")
        except Exception as error:
            self.tally.refuse("dragon", repr(error))
        return recipients[0]


__all__ = ["FrohlfingAgent", "Tally", "TheirCode", "our_play", "public_fields", "seat_at_turn", "their_cards",
           "their_trick", "their_wish"]
