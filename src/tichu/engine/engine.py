"""The async :class:`GameEngine`: drives a game's flow over four :class:`~tichu.engine.player.Player` s.

The rules and the order of every decision live in the core's
:class:`~tichu.core.flow.GameState`; the engine asks whichever seat the state names (the
seats deciding at once all together), awaits the answers that come
:class:`~tichu.engine.player.Later` (a client over the network, an agent in a worker) with
their time limits, checks every answer against what the state allows, applies it, and tells
the table with typed events (:mod:`tichu.engine.events`). Clients may interrupt meanwhile
with a Tichu call or a bomb (:meth:`GameEngine.interrupt`): a bomb makes the awaited answer
stale, and so does a call while an agent decides (it must see the call). Before a closed
trick is taken, the engine waits its bomb window for the clients the state names.

What an answer caused, the state says (its outcomes, :mod:`tichu.core.outcomes`): the engine
tells them to the table as they come, after the play or pass itself, and infers nothing.

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

from tichu.core.cards import points_of
from tichu.core.combos import Play, classify_mask
from tichu.core.errors import RuleViolation, Violation
from tichu.core.flow import GameState
from tichu.core.game import Game
from tichu.core.outcomes import NOTHING, GameEnded, Outcomes, PlayerOut, RoundEnded, StartPlaying, TrickTaken
from tichu.core.round import Action, ActionKind, Decision, Phase, Round
from tichu.core.ruleset import RuleSet
from tichu.core.views import SeatView, TableInfo, TablePhase, follow, view_of
from tichu.engine.events import (
    Event,
    GameOver,
    GameStarted,
    HandCardsDealt,
    HandsRevealed,
    PlayerPassed,
    PlayerPlayed,
    RoundOver,
    RoundStarted,
)
from tichu.engine.player import Later, Player, Reply

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
    :ivar seed: The seed the games are dealt from, ``None`` for random deals: the owner's (the
        server's, a test's), which the store and the record keep; never in the rules, which
        every seat sees (R8).
    :ivar info: Table facts beyond the round (names, host, phase, scores).
    :ivar state: The running (or last) game's state, ``None`` before the first.
    """

    def __init__(self, players: Sequence[Player], rules: RuleSet | None = None, *, seed: int | None = None,
                 rng: random.Random | None = None, info: TableInfo | None = None,
                 bomb_window: float = 0.0, keep_rounds: bool = False) -> None:
        """Seat the players.

        :param players: Four players, seat 0 first.
        :param rules: (Optional) The rule set.
        :param seed: (Optional) Each game is shuffled from ``random.Random(seed)``.
        :param rng: (Optional) The shuffle source of every game instead of ``seed`` (a game
            resumed after a restart deals its next rounds afresh; its seed stays the record's).
        :param info: (Optional) Table facts; names are taken from the players if omitted.
        :param bomb_window: Seconds to wait for unprompted bombs before a trick is taken,
            for the clients the state names (its bomb window).
        :param keep_rounds: Keep the finished rounds for a game record.
        """
        if len(players) != 4:
            raise ValueError("a table has four seats")
        self.players = list(players)
        self.rules = rules or RuleSet()
        self.seed = seed
        self._rng = rng
        self.info = info or TableInfo(player_names=[player.name for player in players])
        self.state: GameState | None = None
        self.bomb_window = bomb_window
        self.keep_rounds = keep_rounds
        self._version = 0
        self._awaiting: int | None = None
        self._interrupted = asyncio.Event()
        self._observers: list[Observer] = []
        self._resumed: GameState | None = None  # run() goes on with the game of resume()
        self._reported: Round | None = None  # the last round whose end the table was told
        self._refresh_players()

    # -- what the table reads ---------------------------------------------------------------

    @property
    def round(self) -> Round | None:
        """The current round (of a game :meth:`resume` left too, before it runs), or ``None``
        between games."""
        state = self.state or self._resumed
        return state.round if state is not None else None

    @property
    def game(self) -> Game:
        """The running (or last) game's scores."""
        state = self.state or self._resumed
        if state is None or state.game is None:
            return self._new_game()
        return state.game

    def _new_game(self) -> Game:
        """A game of the rules, dealt from the engine's shuffle source or its seed."""
        return Game(self.rules, self._rng or random.Random(self.seed))

    @property
    def rounds(self) -> list[Round]:
        """The finished rounds of the game (kept when ``keep_rounds``)."""
        state = self.state or self._resumed
        return state.rounds if state is not None else []

    # -- seats ----------------------------------------------------------------------------

    def _refresh_players(self) -> None:
        self._listeners: list[Player | Observer] = [player for player in self.players if player.listens]
        self._listeners += self._observers

    def _prompted(self) -> list[bool]:
        return [not player.acts_unprompted for player in self.players]

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
        state = self.state
        if state is not None:
            open_seats = [open_seat for open_seat, _ in state.open_decisions()]
            self._tell(state, state.set_prompted(seat, not player.acts_unprompted))
            if seat in open_seats or seat == self._awaiting:
                self._version += 1  # the seat's open decision (or offer) is asked again of the new player
                self._wake()
        return old

    def refresh_prompted(self, seat: int) -> None:
        """The seat's player now acts unprompted, or no longer does (a person's seat handed to
        its agent for a while): offer it the Tichu calls and bombs from now on, or stop. Only a
        decision the engine awaits from this very seat alone is asked again (an offer to it lapses
        when it acts by itself again); other seats' open requests stay as they are."""
        state = self.state
        if state is None:
            return
        self._tell(state, state.set_prompted(seat, not self.players[seat].acts_unprompted))
        if seat == self._awaiting:
            self._version += 1
            self._wake()

    def _view(self, seat: int, player: Player) -> SeatView:
        """A frozen snapshot of the seat's view for one question (R8)."""
        return view_of(self.info, self.round, seat, player.reads_table)

    # -- notifications --------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        for player in self._listeners:
            player.notify(event)

    def _tell(self, state: GameState, caused: Outcomes) -> None:
        """Tell the table what an action caused, in order: the core's outcomes are its events;
        a round's end is told with its scores (:meth:`_round_over`), the game's end by :meth:`run`.
        The table's facts follow the state before play starts is told (its phase, R2.5); a trick
        taken changes the table for whoever is asked meanwhile."""
        for outcome in caused:
            if isinstance(outcome, StartPlaying):
                follow(self.info, state)
            if isinstance(outcome, RoundEnded):
                self._round_over(state)
            elif isinstance(outcome, GameEnded):
                continue
            else:
                if isinstance(outcome, TrickTaken):
                    self._version += 1
                if self._listeners:
                    self._emit(outcome)
                    if isinstance(outcome, PlayerOut) and state.round is not None:
                        self._reveal_hands(state.round)

    # -- the game -------------------------------------------------------------------------

    def resume(self, finished: Sequence[Round], unfinished: Round | None) -> None:
        """Go on with a game from where it was: the next :meth:`run` books the finished rounds
        (R7.3) and plays the unfinished one on from its state, asking only the decisions still
        open, instead of starting a new game.

        :param finished: The game's finished rounds, in order.
        :param unfinished: The round being played, or ``None`` (the next is dealt).
        :raises ValueError: If a finished round is not over, or the unfinished one is.
        """
        self._resumed = GameState.resume(self.rules, self._new_game(), finished, unfinished,
                                         prompted=self._prompted(), keep_rounds=self.keep_rounds)
        follow(self.info, self._resumed)
        self.info.is_running = True  # from now on the table shows the resumed game

    async def run(self) -> Game:
        """Play one game to its end (R7.4) and return it (from where :meth:`resume` left it)."""
        state = self._begin()
        try:
            while not state.is_over:
                await self._step(state)
            self._round_over(state)
        finally:
            self.info.is_running = False
        self.info.phase = TablePhase.GAME_OVER
        game = state.game
        assert game is not None
        if self._listeners:
            self._emit(GameOver(tuple(self.info.round_scores), (game.total[0], game.total[1]), game.winner))
        return game

    async def play_round(self) -> Round:
        """Play one round to its end (R7) and stop there: the round :meth:`resume` left open (another
        line from a stored game's position, docs/server.md), else the next one dealt. The game
        goes no further, whatever its score.

        :returns: The round played.
        """
        state = self._begin()
        try:
            while not state.is_over and not (state.round is not None and state.round.is_over):
                await self._step(state)
            self._round_over(state)
        finally:
            self.info.is_running = False
        assert state.round is not None
        return state.round

    def _begin(self) -> GameState:
        """The game to play: the one :meth:`resume` left, else a new one, whose start the table is
        told (``game_started``; whoever joins a resumed game gets its state instead)."""
        state, self._resumed = self._resumed, None
        new = state is None
        if state is None:
            state = GameState(self.rules, self._new_game(), prompted=self._prompted(),
                              keep_rounds=self.keep_rounds)
            self.info.round_scores = []
            self.info.total = (0, 0)
        self.state = state
        self._reported = None
        self.info.is_running = True
        if self._listeners and new:
            self._emit(GameStarted())
        round_ = state.round
        if round_ is not None and round_.phase == Phase.GRAND_TICHU:
            self._round_started(state)
        elif round_ is not None:
            follow(self.info, state)
        return state

    async def _step(self, state: GameState) -> None:
        """Make the decision the state waits for."""
        decision = state.decision
        if decision == Decision.DEAL:
            self._round_over(state)
            caused = state.deal()
            follow(self.info, state)
            self._tell(state, caused)
        elif decision == Decision.PLAY:
            await self._turn(state)
        elif decision == Decision.TICHU:
            await self._ask_call(state)
        elif decision == Decision.BOMB:
            if state.in_window():
                await self._window(state)
            else:
                await self._ask_bomb(state)
        elif decision == Decision.GRAND_TICHU:
            await self._grand_tichu(state)
        elif decision == Decision.SCHUPF:
            await self._schupf(state)
        elif decision == Decision.WISH:
            await self._wish(state)
        elif decision == Decision.DRAGON:
            await self._dragon(state)

    def _round_started(self, state: GameState) -> None:
        """Tell the table of a resumed game's round that is being dealt (R2.1)."""
        follow(self.info, state)
        if self._listeners:
            self._emit(RoundStarted(self.info.round_index))
            self._emit(HandCardsDealt(8))

    def _round_over(self, state: GameState) -> None:
        """Tell the table a round's result once it is booked (R7.3)."""
        round_ = state.round
        if round_ is None or not round_.is_over or self._reported is round_:
            return
        self._reported = round_
        follow(self.info, state)
        self.info.phase = TablePhase.ROUND_OVER
        if self._listeners:
            result = round_.result()
            self._emit(RoundOver(result.card_points, result.bonus, result.points, self.info.total,
                                 result.out_order, result.double_victory))

    async def _grand_tichu(self, state: GameState) -> None:
        seats = [seat for seat, _ in state.open_decisions()]
        replies: list[Reply[bool]] = [self.players[seat].grand_tichu(self._view(seat, self.players[seat]))
                                      for seat in seats]
        answers: list[bool | None] = await self._all_answers(replies)
        caused = NOTHING
        for seat, answer in zip(seats, answers):
            caused += state.decide_grand_tichu(seat, answer is True)
        follow(self.info, state)
        self._tell(state, caused)

    async def _schupf(self, state: GameState) -> None:
        seats = [seat for seat, _ in state.open_decisions()]
        replies: list[Reply[tuple[int, int, int]]] = [self.players[seat].schupf(self._view(seat, self.players[seat]))
                                                      for seat in seats]
        answers: list[tuple[int, int, int] | None] = await self._all_answers(replies)
        for seat, answer in zip(seats, answers):
            self._tell(state, self._apply_checked(state, Action(ActionKind.SCHUPF, seat, answer)))
        follow(self.info, state)

    def _apply_checked(self, state: GameState, action: Action) -> Outcomes:
        """Apply an answer; one the rules refuse is logged and replaced by the state's fallback
        (the engine never trusts a player).

        :returns: What the applied action caused."""
        try:
            return state.apply(action)
        except (RuleViolation, TypeError, ValueError) as error:
            log.warning("seat %d answered against the rules (%s); %r instead", action.seat, error,
                        state.fallback(action.seat))
            return state.apply(state.fallback(action.seat))

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

    # -- offers (the state says to whom, in which order) ---------------------------------------

    async def _ask_call(self, state: GameState) -> None:
        seat = state.decision_seat
        assert seat is not None
        player = self.players[seat]
        answer: object = player.offer_tichu(self._view(seat, player))
        if isinstance(answer, Later):
            answer = await self._await_decision(seat, answer.answer)
            if isinstance(answer, _Stale) or (state.decision, state.decision_seat) != (Decision.TICHU, seat):
                return  # the table changed meanwhile: the state says what is asked now
        self._tell(state, state.call(seat) if answer is True else state.decline(seat))

    async def _ask_bomb(self, state: GameState) -> None:
        seat = state.decision_seat
        assert seat is not None
        player = self.players[seat]
        bombs = state.offered_bombs()
        choice: object = player.offer_bomb(self._view(seat, player), bombs)
        if isinstance(choice, Later):
            choice = await self._await_decision(seat, choice.answer)
            if isinstance(choice, _Stale) or (state.decision, state.decision_seat) != (Decision.BOMB, seat):
                return
            bombs = state.offered_bombs()
        if choice is not None and choice in bombs:
            self._throw_bomb(state, seat, bombs[bombs.index(choice)].cards)
        else:
            self._tell(state, state.decline(seat))

    async def _window(self, state: GameState) -> None:
        """The bomb window (R4.3): the clients the state names may bomb the closing trick for
        :attr:`bomb_window` seconds (a bomb interrupts), then the state goes on without them."""
        if self.bomb_window and not await self._pause(self.bomb_window):
            return  # a bomb (or a new player) changed the table: the state says what is next
        if not state.in_window():
            return
        caused = NOTHING
        for seat, _ in state.open_decisions():
            caused += state.decline(seat)
        self._tell(state, caused)

    # -- the round's own decisions ---------------------------------------------------------

    async def _turn(self, state: GameState) -> None:
        seat = state.decision_seat
        assert seat is not None
        legal = state.legal_plays()
        player = self.players[seat]
        reply = player.play(self._view(seat, player), legal)
        answer: object = reply
        if isinstance(reply, Later):
            answer = await self._await_decision(seat, reply.answer)
            if isinstance(answer, _Stale):
                return
        try:
            play = legal[legal.index(answer)]  # type: ignore[arg-type]  # the state's own object, not the answer
        except ValueError:
            log.warning("seat %d answered an illegal play %r; it passes or plays its first option", seat, answer)
            fallback = state.fallback(seat)
            play = next(option for option in legal if option.cards == (fallback.value or 0))
        self._tell_play(state, seat, play, state.apply_play(play), out_of_turn=False)

    def _tell_play(self, state: GameState, seat: int, play: Play, caused: Outcomes, *, out_of_turn: bool) -> None:
        """Tell the table of a play, a pass or a bomb just applied (R4), then what it caused."""
        round_ = state.round
        assert round_ is not None
        self._version += 1
        if self._listeners:
            if not play.cards:
                self._emit(PlayerPassed(seat))
            else:
                self._emit(PlayerPlayed(seat, play, _trick_points(round_.trick_cards, caused), round_.trick_owner,
                                        out_of_turn))
        self._tell(state, caused)

    def _reveal_hands(self, round_: Round) -> None:
        if not self.rules.reveal_hands_when_out or round_.is_over:
            return
        hands = round_.hands
        event = HandsRevealed((hands[0], hands[1], hands[2], hands[3]))
        for seat in round_.out_order:
            player = self.players[seat]
            if player.listens:
                player.notify(event)  # R8.3: only to seats that are out

    def _throw_bomb(self, state: GameState, seat: int, cards: int) -> None:
        """Throw a bomb out of turn (R4.3) and tell the table.

        :raises RuleViolation: If the rules do not allow it; nothing changes then.
        """
        caused = state.bomb(seat, cards)
        combination = classify_mask(cards)
        assert combination is not None  # the rules took it as a bomb
        self._tell_play(state, seat, Play(cards, *combination), caused, out_of_turn=True)

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

    async def _wish(self, state: GameState) -> None:
        round_ = state.round
        seat = state.decision_seat
        assert seat is not None and round_ is not None
        player = self.players[seat]
        choices = round_.wish_choices()
        value = await self._choose(seat, choices, player.wish(self._view(seat, player), choices), "wish")
        if isinstance(value, _Stale):
            return
        caused = state.wish(seat, value)
        self._version += 1
        self._tell(state, caused)

    async def _dragon(self, state: GameState) -> None:
        round_ = state.round
        seat = state.decision_seat
        assert seat is not None and round_ is not None
        player = self.players[seat]
        recipients = round_.dragon_recipients()
        to = await self._choose(seat, recipients, player.give_dragon(self._view(seat, player), recipients),
                                "Dragon recipient")
        if isinstance(to, _Stale):
            return
        self._tell(state, state.give_dragon(seat, to))

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
        state = self.state
        round_ = self.round
        if state is None or round_ is None or not self.info.is_running or round_.is_over:
            violation = Violation.CALL_NOT_ALLOWED if kind == ActionKind.TICHU else Violation.BOMB_NOT_ALLOWED
            raise RuleViolation(violation, "R4.3" if kind == ActionKind.BOMB else "R6.1", "no round is being played")
        if kind == ActionKind.TICHU:
            self._tell(state, state.call(seat))
            awaiting = self._awaiting
            if awaiting is not None and not self.players[awaiting].acts_unprompted:
                self._version += 1  # an agent deciding meanwhile is asked again, seeing the call
                self._wake()
            return
        if kind != ActionKind.BOMB:
            raise RuleViolation(Violation.ACTION_NOT_ALLOWED, "R4", "only a Tichu call or a bomb can interrupt")
        awaiting = self._awaiting
        self._throw_bomb(state, seat, cards)
        if awaiting is not None:
            self.players[awaiting].request_cancelled()
        self._wake()


def _trick_points(trick_cards: int, caused: Outcomes) -> int:
    """The card points of the trick a play lies in (R1.2): the open trick's, or, when the play
    ended the round and the trick was taken with it (R7.2), the points of that trick."""
    if not trick_cards:
        for outcome in caused:
            if isinstance(outcome, TrickTaken):
                return outcome.points
    return points_of(trick_cards)
