"""The async :class:`GameEngine`: runs a game over four :class:`~tichu.engine.player.Player` s.

The rules live in :class:`~tichu.core.round.Round`; the engine asks the players, checks
every answer against what the round allows, applies it, and tells the table with typed
events (:mod:`tichu.engine.events`). Every player is asked the same way (the one port of
:mod:`tichu.engine.player`): an answer that comes at once costs no await, which keeps the
Arena's hot path fast; an answer that comes :class:`~tichu.engine.player.Later` is awaited,
and clients may interrupt meanwhile with a Tichu call or a bomb
(:meth:`GameEngine.interrupt`): a bomb makes the awaited answer stale, and so does a call
while an agent decides (it must see the call).

A game can also go on from a point it reached before (:meth:`GameEngine.resume`): a server
that restarts after a crash rebuilds its rounds by replaying them through the rules, and the
engine then asks only the decisions still open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Sequence
from typing import Protocol, TypeVar

from tichu.core.cards import indices_of, points_of
from tichu.core.combos import PASS_PLAY, Play
from tichu.core.errors import RuleViolation, Violation
from tichu.core.game import Game
from tichu.core.round import ActionKind, Decision, Phase, Round, RoundResult
from tichu.core.ruleset import RuleSet
from tichu.engine.events import (
    Event,
    GameOver,
    GameStarted,
    HandCardsDealt,
    HandsRevealed,
    PlayerAnnounced,
    PlayerOut,
    PlayerPassed,
    PlayerPlayed,
    PlayerSchupfed,
    RoundOver,
    RoundStarted,
    StartPlaying,
    TrickTaken,
    TurnChanged,
    WishFulfilled,
    WishMade,
)
from tichu.engine.player import Later, Player, Reply
from tichu.engine.views import SeatView, TableInfo, TablePhase

log = logging.getLogger(__name__)

T = TypeVar("T")


class _Stale:
    """Marker: the awaited decision was overtaken by an interrupt."""


_STALE = _Stale()


class Observer(Protocol):
    """Hears every event of the table without sitting at it (a server's journal of the game)."""

    def notify(self, event: Event) -> None:
        """Receive an event (the public part: no seat's hand)."""


class GameEngine:
    """Runs games at one table.

    :ivar players: The four players, by seat.
    :ivar rules: The rule set.
    :ivar info: Table facts beyond the round (names, host, phase, scores).
    :ivar game: The running (or last) game.
    :ivar round: The current round, or ``None`` between games.
    :ivar rounds: The finished rounds of the game (kept when ``keep_rounds``).
    """

    def __init__(self, players: Sequence[Player], rules: RuleSet | None = None, *,
                 rng: random.Random | None = None, info: TableInfo | None = None,
                 bomb_window: float = 0.0, keep_rounds: bool = False) -> None:
        """Seat the players.

        :param players: Four players, seat 0 first.
        :param rules: (Optional) The rule set; its seed seeds the shuffles.
        :param rng: (Optional) The shuffle source instead of ``rules.seed``.
        :param info: (Optional) Table facts; names are taken from the players if omitted.
        :param bomb_window: Seconds to wait for unprompted bombs before a trick is taken,
            while a player that acts unprompted (a client) is seated.
        :param keep_rounds: Keep the finished rounds for a game record.
        """
        if len(players) != 4:
            raise ValueError("a table has four seats")
        self.players = list(players)
        self.rules = rules or RuleSet()
        self._rng = rng
        self.info = info or TableInfo(player_names=[player.name for player in players])
        self.game = Game(self.rules, rng)
        self.round: Round | None = None
        self.rounds: list[Round] = []
        self.bomb_window = bomb_window
        self.keep_rounds = keep_rounds
        self._version = 0
        self._awaiting: int | None = None
        self._interrupted = asyncio.Event()
        self._may_call: list[int] = []  # seats that may still call Tichu this round (R6.1)
        self._bomb_holders: list[int] = []  # seats that may still hold a bomb
        self._observers: list[Observer] = []
        self._resuming = False  # run() goes on with the game of resume()
        self._resumed: Round | None = None  # the unfinished round it goes on with
        self._refresh_players()

    # -- seats ----------------------------------------------------------------------------

    def _refresh_players(self) -> None:
        self._listeners: list[Player | Observer] = [player for player in self.players if player.listens]
        self._listeners += self._observers
        self._waits_for_bombs = any(player.acts_unprompted for player in self.players)

    def observe(self, observer: Observer) -> None:
        """Tell ``observer`` every event from now on, after the players."""
        self._observers.append(observer)
        self._refresh_players()

    def replace_player(self, seat: int, player: Player) -> Player:
        """Put another player on a seat (an agent for a client that left, or back).

        :returns: The player that sat there.
        """
        old = self.players[seat]
        self.players[seat] = player
        self.info.player_names[seat] = player.name
        self._refresh_players()
        if self.round is not None and seat in (self.round.decision_seat, self._awaiting):
            self._version += 1  # the seat's open decision (or offer) is asked again of the new player
            self._wake()
        return old

    def _view(self, seat: int, player: Player) -> SeatView:
        """A frozen snapshot of the seat's view for one question (R8)."""
        return SeatView.of(self, seat, player.reads_table)

    # -- notifications --------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        for player in self._listeners:
            player.notify(event)

    # -- the game -------------------------------------------------------------------------

    def resume(self, finished: Sequence[Round], unfinished: Round | None) -> None:
        """Go on with a game from where it was: the next :meth:`run` books the finished rounds
        (R7.3) and plays the unfinished one on from its state, asking only the decisions still
        open, instead of starting a new game.

        :param finished: The game's finished rounds, in order.
        :param unfinished: The round being played, or ``None`` (the next is dealt).
        :raises ValueError: If a finished round is not over, or the unfinished one is.
        """
        if any(not round_.is_over for round_ in finished) or (unfinished is not None and unfinished.is_over):
            raise ValueError("finished rounds must be over and the unfinished one not")
        self.game = Game(self.rules, self._rng)
        self.rounds = []
        self.info.round_scores = []
        self.info.total = (0, 0)
        for round_ in finished:
            self._book(round_)
        self._resumed = unfinished
        self._resuming = True

    async def run(self) -> Game:
        """Play one game to its end (R7.4) and return it (from where :meth:`resume` left it)."""
        resumed, self._resumed = self._resumed, None
        if not self._resuming:
            self.game = Game(self.rules, self._rng)
            self.rounds = []
            self.info.round_scores = []
            self.info.total = (0, 0)
        self._resuming = False
        self.info.is_running = True
        if self._listeners:
            self._emit(GameStarted())
        try:
            if resumed is not None:
                await self._play_round(resumed)
            while not self.game.is_over:
                await self._play_round()
        finally:
            self.info.is_running = False
        self.info.phase = TablePhase.GAME_OVER
        if self._listeners:
            self._emit(GameOver(tuple(self.info.round_scores), (self.game.total[0], self.game.total[1]),
                                self.game.winner))
        return self.game

    async def _play_round(self, resumed: Round | None = None) -> None:
        """Play a new round, or the resumed one on from the phase it is in."""
        round_ = resumed or self.game.new_round()
        self.round = round_
        self.info.round_index = len(self.game.results)
        self._may_call = [0, 1, 2, 3]
        if round_.phase == Phase.GRAND_TICHU:
            self.info.phase = TablePhase.GRAND_TICHU
            if self._listeners:
                self._emit(RoundStarted(self.info.round_index))
                self._emit(HandCardsDealt(8))
            await self._grand_tichu(round_)
            self.info.phase = TablePhase.SCHUPF
            if self._listeners:
                self._emit(HandCardsDealt(6))
        if round_.phase == Phase.SCHUPF:
            self.info.phase = TablePhase.SCHUPF
            await self._schupf(round_)
            self.info.phase = TablePhase.PLAYING
            if self._listeners:
                assert round_.turn is not None
                self._emit(StartPlaying(round_.turn))
        self.info.phase = TablePhase.PLAYING
        self._bomb_holders = [0, 1, 2, 3]
        await self._play(round_)
        result = self._book(round_)
        self.info.phase = TablePhase.ROUND_OVER
        if self._listeners:
            self._emit(RoundOver(result.card_points, result.bonus, result.points, self.info.total,
                                 result.out_order, result.double_victory))

    def _book(self, round_: Round) -> RoundResult:
        """Book a finished round's result (R7.3) in the game and the table's facts."""
        result = round_.result()
        self.game.add_result(result)
        if self.keep_rounds:
            self.rounds.append(round_)
        self.info.round_scores = self.info.round_scores + [result.points]
        self.info.total = (self.game.total[0], self.game.total[1])
        return result

    async def _grand_tichu(self, round_: Round) -> None:
        seats = [seat for seat in range(4) if not round_.grand_decided[seat]]
        replies: list[Reply[bool]] = [self.players[seat].grand_tichu(self._view(seat, self.players[seat]))
                                      for seat in seats]
        answers: list[bool | None] = await self._all_answers(replies)
        for seat, answer in zip(seats, answers):
            announced = answer is True
            round_.decide_grand_tichu(seat, announced)
            if announced and self._listeners:
                self._emit(PlayerAnnounced(seat, True))

    async def _schupf(self, round_: Round) -> None:
        if self.rules.tichu_before_schupf:
            offer = self._offer_tichu(round_)
            while offer is not None and not await self._tichu_later(round_, offer):
                offer = self._offer_tichu(round_)  # an answer went stale: ask again (R6.1)
        seats = [seat for seat in range(4) if round_.given[seat] is None]
        replies: list[Reply[tuple[int, int, int]]] = [self.players[seat].schupf(self._view(seat, self.players[seat]))
                                                      for seat in seats]
        answers: list[tuple[int, int, int] | None] = await self._all_answers(replies)
        for seat, answer in zip(seats, answers):
            try:
                round_.schupf(seat, answer)  # type: ignore[arg-type]  # checked there: never trusted
            except (RuleViolation, TypeError, ValueError) as error:
                log.warning("seat %d pushed invalid cards (%s); pushing its lowest", seat, error)
                round_.schupf(seat, [1 << index for index in indices_of(round_.hands[seat])[:3]])
            if self._listeners:
                self._emit(PlayerSchupfed(seat))

    async def _all_answers(self, replies: list[Reply[T]]) -> list[T | None]:
        """The seats' answers to questions asked at once (hidden from each other), in the order
        of ``replies``; a failed answer is ``None``."""
        answers: list[T | None] = []
        waiting: list[tuple[int, Awaitable[T]]] = []
        for index, reply in enumerate(replies):
            if isinstance(reply, Later):
                waiting.append((index, reply.answer))
                answers.append(None)
            else:
                answers.append(reply)
        if waiting:
            results = await asyncio.gather(*(answer for _, answer in waiting), return_exceptions=True)
            for (index, _), result in zip(waiting, results):
                answers[index] = None if isinstance(result, BaseException) else result
        return answers

    # -- playing --------------------------------------------------------------------------

    async def _play(self, round_: Round) -> None:
        while not round_.is_over:
            decision = round_.decision
            if decision == Decision.PLAY:
                if round_.trick_closed:
                    if not (self._bomb_holders or self._waits_for_bombs) \
                            or not await self._offer_bombs(round_, closing=True):
                        self._take_trick(round_, None)
                    continue
                if self._may_call:
                    offer = self._offer_tichu(round_)
                    if offer is not None:
                        version = self._version
                        await self._tichu_later(round_, offer)
                        if self._version != version:
                            continue  # a client bombed or called meanwhile: look again
                if round_.trick is not None and self._bomb_holders \
                        and await self._offer_bombs(round_, closing=False):
                    continue
                await self._turn(round_)
            elif decision == Decision.WISH:
                await self._wish(round_)
            elif decision == Decision.DRAGON:
                if (self._bomb_holders or self._waits_for_bombs) \
                        and await self._offer_bombs(round_, closing=True, dragon=True):
                    continue
                await self._dragon(round_)

    async def _turn(self, round_: Round) -> None:
        seat = round_.turn
        assert seat is not None
        legal = round_.legal_plays()
        player = self.players[seat]
        reply = player.play(self._view(seat, player), legal)
        answer: object = reply
        if isinstance(reply, Later):
            answer = await self._await_decision(seat, reply.answer)
            if isinstance(answer, _Stale):
                return
        try:
            play = legal[legal.index(answer)]  # type: ignore[arg-type]  # the round's own object, not the answer
        except ValueError:
            log.warning("seat %d answered an illegal play %r; it passes or plays its first option", seat, answer)
            play = PASS_PLAY if PASS_PLAY in legal else legal[0]
        had_wish = round_.wish_open
        round_.apply_legal_play(play)
        self._after_play(round_, seat, play, had_wish, out_of_turn=False)

    def _after_play(self, round_: Round, seat: int, play: Play, had_wish: bool, *, out_of_turn: bool) -> None:
        self._version += 1
        if not self._listeners:
            return
        if not play.cards:
            self._emit(PlayerPassed(seat))
        else:
            # R7.2: the round's last play may have closed the round and the trick with it.
            taken_at_end = round_.is_over and not round_.trick_turns and round_.last_trick is not None
            trick_cards = round_.last_trick[1] if taken_at_end and round_.last_trick else round_.trick_cards
            self._emit(PlayerPlayed(seat, play, points_of(trick_cards), round_.trick_owner, out_of_turn))
            if not round_.hands[seat]:
                self._emit(PlayerOut(seat, round_.out_order.index(seat) + 1))
                self._reveal_hands(round_)
            if had_wish and not round_.wish_open:
                self._emit(WishFulfilled())
            if taken_at_end and round_.last_trick:
                self._emit(TrickTaken(round_.last_trick[0], points_of(trick_cards), None))
        if round_.turn is not None and not round_.is_over and round_.decision == Decision.PLAY:
            self._emit(TurnChanged(round_.turn))

    def _reveal_hands(self, round_: Round) -> None:
        if not self.rules.reveal_hands_when_out or round_.is_over:
            return
        hands = round_.hands
        event = HandsRevealed((hands[0], hands[1], hands[2], hands[3]))
        for seat in round_.out_order:
            player = self.players[seat]
            if player.listens:
                player.notify(event)  # R8.3: only to seats that are out

    def _offer_tichu(self, round_: Round, after: int = -1) -> tuple[int, Later[bool]] | None:
        """Offer a Tichu call (R6.1) to each seat after ``after`` that has neither called nor
        played yet, in seat order, so that each sees the calls before it; a player that acts
        unprompted (a client) calls by itself and is not asked.

        :param after: The last seat already asked in this round of offers.
        :returns: The first seat whose answer comes later, with that answer (the seats after
            it are asked by :meth:`_tichu_later` once it is there), or ``None``.
        """
        announcements, has_played = round_.announcements, round_.has_played
        for seat in list(self._may_call):
            if announcements[seat] or has_played[seat]:
                self._may_call.remove(seat)
                continue
            player = self.players[seat]
            if player.acts_unprompted or seat <= after:
                continue
            if round_.can_announce(seat):
                answer = player.offer_tichu(self._view(seat, player))
                if isinstance(answer, Later):
                    return seat, answer
                if answer:
                    round_.announce(seat)
                    if self._listeners:
                        self._emit(PlayerAnnounced(seat, False))
        return None

    async def _tichu_later(self, round_: Round, offer: tuple[int, Later[bool]]) -> bool:
        """Await a Tichu offer answered later, then offer the seats after it (R6.1). A call is
        applied only if the seat may still call; an answer made stale by an interrupt is
        dropped, and the caller offers again.

        :param offer: The seat and its answer, from :meth:`_offer_tichu`.
        :returns: Whether every seat was asked (``False``: an answer went stale).
        """
        pending: tuple[int, Later[bool]] | None = offer
        while pending is not None:
            seat, later = pending
            answer = await self._await_decision(seat, later.answer)
            if isinstance(answer, _Stale):
                return False
            if answer is True and round_.can_announce(seat):
                round_.announce(seat)
                if self._listeners:
                    self._emit(PlayerAnnounced(seat, False))
            pending = self._offer_tichu(round_, seat)
        return True

    async def _offer_bombs(self, round_: Round, *, closing: bool, dragon: bool = False) -> bool:
        """Offer a bomb (R4.3), nearest seat after the trick's owner first (not to a player
        that acts unprompted: it throws its bombs by itself).

        :param closing: The trick is about to be taken: every seat may bomb, and clients
            get :attr:`bomb_window` seconds for it (see :meth:`_window_wanted`).
        :param dragon: The closing trick is the Dragon's, which its owner may bomb to keep.
        :returns: Whether a bomb was thrown.
        """
        owner = round_.trick_owner
        assert owner is not None
        version = self._version
        holders = self._bomb_holders
        for offset in (1, 2, 3, 4):
            seat = (owner + offset) % 4
            if seat not in holders or (seat == round_.turn and not closing):
                continue
            if not round_.holds_bomb(seat):
                holders.remove(seat)  # cards only leave a hand while playing
                continue
            player = self.players[seat]
            if player.acts_unprompted:
                continue  # a client bombs by itself (interrupt), within the bomb window
            bombs = round_.bombs_for(seat)
            if bombs:
                choice = player.offer_bomb(self._view(seat, player), bombs)
                if isinstance(choice, Later):
                    later = await self._await_decision(seat, choice.answer)
                    if isinstance(later, _Stale):
                        return True  # an interrupt changed the table meanwhile: look again
                    choice, bombs = later, round_.bombs_for(seat)
                if choice is not None and choice in bombs:
                    self._throw_bomb(round_, seat, bombs[bombs.index(choice)])
                    return True
        if closing and self.bomb_window and self._window_wanted(round_, owner_too=dragon):
            await self._pause(self.bomb_window)
        return self._version != version

    def _window_wanted(self, round_: Round, *, owner_too: bool) -> bool:
        """Whether a closing trick waits the bomb window: a player that bombs by itself (a
        client) still holds cards and does not own the trick. A bomb on one's own trick gains
        nothing (the owner leads next and may lead the bomb) except to keep the Dragon's trick
        (R4.3): ``owner_too``. Who owns the trick and who is out are public, so the wait
        tells nothing of anyone's hand (R8).
        """
        owner = round_.trick_owner
        return any(player.acts_unprompted and round_.hands[seat] and (owner_too or seat != owner)
                   for seat, player in enumerate(self.players))

    def _throw_bomb(self, round_: Round, seat: int, bomb: Play) -> None:
        had_wish = round_.wish_open
        round_.bomb(seat, bomb.cards)
        self._after_play(round_, seat, bomb, had_wish, out_of_turn=True)

    def _take_trick(self, round_: Round, recipient: int | None) -> None:
        winner = round_.trick_owner
        points = points_of(round_.trick_cards)
        round_.collect_trick(recipient)
        self._trick_taken(round_, winner, points, recipient)

    def _trick_taken(self, round_: Round, winner: int | None, points: int, recipient: int | None) -> None:
        self._version += 1
        if not self._listeners:
            return
        self._emit(TrickTaken(winner, points, recipient))
        if round_.turn is not None and not round_.is_over:
            self._emit(TurnChanged(round_.turn))

    async def _choose(self, seat: int, choices: Sequence[int], reply: Reply[int], what: str) -> int | _Stale:
        """A seat's pick of one of ``choices``.

        :returns: The valid choice (an invalid one is logged and replaced by the first
            choice), or :data:`_STALE` if an interrupt overtook the question.
        """
        value: object = reply
        if isinstance(reply, Later):
            value = await self._await_decision(seat, reply.answer)
            if isinstance(value, _Stale):
                return value
        if type(value) is not int or value not in choices:  # True and 8.0 are no choice
            log.warning("seat %d answered %r for the %s; taking %d", seat, value, what, choices[0])
            return choices[0]
        return value

    async def _wish(self, round_: Round) -> None:
        seat = round_.decision_seat
        assert seat is not None
        player = self.players[seat]
        choices = round_.wish_choices()
        value = await self._choose(seat, choices, player.wish(self._view(seat, player), choices), "wish")
        if isinstance(value, _Stale):
            return
        round_.make_wish(seat, value)
        self._version += 1
        if self._listeners:
            self._emit(WishMade(value))
            if round_.turn is not None:
                self._emit(TurnChanged(round_.turn))

    async def _dragon(self, round_: Round) -> None:
        seat = round_.decision_seat
        assert seat is not None
        player = self.players[seat]
        recipients = round_.dragon_recipients()
        to = await self._choose(seat, recipients, player.give_dragon(self._view(seat, player), recipients),
                                "Dragon recipient")
        if isinstance(to, _Stale):
            return
        winner = round_.trick_owner
        points = points_of(round_.trick_cards)
        round_.give_dragon(seat, to)
        self._trick_taken(round_, winner, points, to)

    # -- waiting and interrupts -------------------------------------------------------------

    def _wake(self) -> None:
        self._interrupted.set()

    async def _pause(self, seconds: float) -> bool:
        """Sleep unless interrupted; return whether the state is still the same.

        ``asyncio.timeout``, not ``wait_for``: Python 3.11's ``wait_for`` swallows a cancellation
        that arrives together with the interrupt (a table closed right after a client's bomb
        would play on)."""
        version = self._version
        self._interrupted.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._interrupted.wait()
        return self._version == version

    async def _await_decision(self, seat: int, decision: Awaitable[T]) -> T | _Stale | None:
        """Await a decision that comes later; give up (:data:`_STALE`) if an interrupt changed
        the state meanwhile. A client's failed decision is ``None`` (the caller falls back);
        an agent's failure is a bug and fails the game."""
        version = self._version
        self._awaiting = seat
        self._interrupted.clear()
        task = asyncio.ensure_future(decision)
        waker = asyncio.ensure_future(self._interrupted.wait())
        try:
            while True:
                await asyncio.wait({task, waker}, return_when=asyncio.FIRST_COMPLETED)
                if task.done():
                    break
                self._interrupted.clear()
                waker = asyncio.ensure_future(self._interrupted.wait())
                if self._version != version:
                    task.cancel()
                    return _STALE
        finally:
            waker.cancel()
            if not task.done():
                task.cancel()  # the engine itself was cancelled (its table closed): nobody waits any more
            self._awaiting = None
        if self._version != version:
            return _STALE
        try:
            return task.result()
        except Exception as error:
            if not self.players[seat].acts_unprompted:
                raise
            log.warning("a client's decision failed: %r", error)  # it must not stop the table
            return None

    def interrupt(self, seat: int, kind: ActionKind, cards: int = 0) -> None:
        """Apply a client's unprompted Tichu call or bomb (R6.1, R4.3) at once.

        A bomb cancels the open request of the seat at turn (its answer is no longer
        wanted) and play continues after the bomber.

        :param seat: The calling or bombing seat.
        :param kind: :attr:`ActionKind.TICHU` or :attr:`ActionKind.BOMB`.
        :param cards: The bomb's card mask.
        :raises RuleViolation: If it is not allowed now; nothing changes then.
        """
        round_ = self.round
        if round_ is None or not self.info.is_running or round_.is_over:
            violation = Violation.CALL_NOT_ALLOWED if kind == ActionKind.TICHU else Violation.BOMB_NOT_ALLOWED
            raise RuleViolation(violation, "R4.3" if kind == ActionKind.BOMB else "R6.1", "no round is being played")
        if kind == ActionKind.TICHU:
            round_.announce(seat)
            if self._listeners:
                self._emit(PlayerAnnounced(seat, False))
            awaiting = self._awaiting
            if awaiting is not None and not self.players[awaiting].acts_unprompted:
                self._version += 1  # an agent deciding meanwhile is asked again, seeing the call
                self._wake()
            return
        if kind != ActionKind.BOMB:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R4", "only a Tichu call or a bomb can interrupt")
        had_wish = round_.wish_open
        round_.bomb(seat, cards)
        bomb = round_.trick
        assert bomb is not None
        if self._awaiting is not None:
            self.players[self._awaiting].request_cancelled()
        self._after_play(round_, seat, bomb, had_wish, out_of_turn=True)
        self._wake()

