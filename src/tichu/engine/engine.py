"""The async :class:`GameEngine`: runs a game over four :class:`~tichu.engine.player.Player` s.

The rules live in :class:`~tichu.core.round.Round`; the engine asks the players, checks
every answer against what the round allows, applies it, and tells the table. Agents are
called synchronously (no await on the Arena's hot path); clients are awaited, and may
interrupt with a Tichu call or a bomb at any time (:meth:`GameEngine.interrupt`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Sequence
from typing import Any

from tichu.agents.agent import Agent
from tichu.core.cards import indices_of, points_of
from tichu.core.combos import BOMB, PASS_PLAY, Play
from tichu.core.errors import RuleViolation, Violation
from tichu.core.game import Game
from tichu.core.round import ActionKind, Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.engine.player import Event, Player
from tichu.engine.views import SeatView, TableInfo, cards_json, combination_json

log = logging.getLogger(__name__)


class GameEngine:
    """Runs games at one table.

    :ivar players: The four players, by seat.
    :ivar rules: The rule set.
    :ivar info: Table facts beyond the round (names, host, phase, scores).
    :ivar game: The running (or last) game.
    :ivar round: The current round, or ``None`` between games.
    :ivar rounds: The finished rounds of the game (kept when ``keep_rounds``).
    :ivar views: One :class:`SeatView` per seat.
    """

    def __init__(self, players: Sequence[Player], rules: RuleSet | None = None, *,
                 rng: random.Random | None = None, info: TableInfo | None = None,
                 bomb_window: float = 0.0, agent_delay: float = 0.0, keep_rounds: bool = False,
                 cooperative: bool = False) -> None:
        """Seat the players.

        :param players: Four players, seat 0 first.
        :param rules: (Optional) The rule set; its seed seeds the shuffles.
        :param rng: (Optional) The shuffle source instead of ``rules.seed``.
        :param info: (Optional) Table facts; names are taken from the players if omitted.
        :param bomb_window: Seconds to wait for bombs from clients before a trick is taken.
        :param agent_delay: Seconds agents pause before acting while clients are seated.
        :param keep_rounds: Keep the finished rounds for a game record.
        :param cooperative: Let other tasks run before every agent's play, so that a table of
            agents never holds up a server's other tables (the Arena runs without).
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
        self.views = [SeatView(self, seat) for seat in range(4)]
        self.bomb_window = bomb_window
        self.agent_delay = agent_delay
        self.keep_rounds = keep_rounds
        self.cooperative = cooperative
        self._version = 0
        self._awaiting: int | None = None
        self._interrupted = asyncio.Event()
        self._refresh_players()

    # -- seats ----------------------------------------------------------------------------

    def _refresh_players(self) -> None:
        self._listeners = [player for player in self.players if player.listens]
        self._agents: list[Agent | None] = [player if isinstance(player, Agent) else None
                                            for player in self.players]
        self._has_clients = None in self._agents

    def replace_player(self, seat: int, player: Player) -> Player:
        """Put another player on a seat (an agent for a client that left, or back).

        :result: The player that sat there.
        """
        old = self.players[seat]
        self.players[seat] = player
        self.info.player_names[seat] = player.name
        self._refresh_players()
        if self.round is not None and self.round.decision_seat == seat:
            self._version += 1  # the seat's open decision is asked again of the new player
            self._wake()
        return old

    # -- notifications --------------------------------------------------------------------

    def _emit(self, name: str, **context: Any) -> None:
        if self._listeners:
            event = Event(name, context)
            for player in self._listeners:
                player.notify(event)

    def _emit_to(self, seat: int, name: str, **context: Any) -> None:
        player = self.players[seat]
        if player.listens:
            player.notify(Event(name, context))

    # -- the game -------------------------------------------------------------------------

    async def run(self) -> Game:
        """Play one game to its end (R7.4) and return it."""
        self.game = Game(self.rules, self._rng)
        self.rounds = []
        self.info.is_running = True
        self.info.round_scores = []
        self.info.total = (0, 0)
        self._emit("game_started")
        try:
            while not self.game.is_over:
                await self._play_round()
        finally:
            self.info.is_running = False
        self.info.phase = "game_over"
        self._emit("game_over", game_score=[[score[0] for score in self.info.round_scores],
                                            [score[1] for score in self.info.round_scores]],
                   total=list(self.game.total), winner=self.game.winner)
        return self.game

    async def _play_round(self) -> None:
        round_ = self.game.new_round()
        self.round = round_
        self.info.round_index = len(self.game.results)
        self.info.phase = "grand_tichu"
        self._emit("round_started", round_index=self.info.round_index)
        self._emit("hand_cards_dealt", count=8)
        await self._grand_tichu(round_)
        self.info.phase = "schupf"
        self._emit("hand_cards_dealt", count=6)
        await self._schupf(round_)
        self.info.phase = "playing"
        self._emit("start_playing", start_player_index=round_.turn)
        await self._play(round_)
        result = round_.result()
        self.game.add_result(result)
        if self.keep_rounds:
            self.rounds.append(round_)
        self.info.round_scores = self.info.round_scores + [result.points]
        self.info.total = (self.game.total[0], self.game.total[1])
        self.info.phase = "round_over"
        self._emit("round_over", card_points=list(result.card_points), bonus=list(result.bonus),
                   points=list(result.points), total=list(self.game.total),
                   out_order=list(result.out_order), is_double_victory=result.double_victory)

    async def _grand_tichu(self, round_: Round) -> None:
        answers = await self._ask_all(lambda player, view: player.grand_tichu(view),
                                      lambda agent, view: agent.decide_grand_tichu(view))
        for seat, answer in enumerate(answers):
            announced = answer is True
            round_.decide_grand_tichu(seat, announced)
            if announced:
                self._emit("player_announced", player_index=seat, grand=True)

    async def _schupf(self, round_: Round) -> None:
        if self.rules.tichu_before_schupf:
            self._offer_tichu(round_)
        answers = await self._ask_all(lambda player, view: player.schupf(view),
                                      lambda agent, view: agent.decide_schupf(view))
        for seat, answer in enumerate(answers):
            try:
                round_.schupf(seat, answer)
            except (RuleViolation, TypeError, ValueError) as error:
                log.warning("seat %d pushed invalid cards (%s); pushing its lowest", seat, error)
                round_.schupf(seat, [1 << index for index in indices_of(round_.hands[seat])[:3]])
            self._emit("player_schupfed", player_index=seat)

    async def _ask_all(self, ask: Any, decide: Any) -> list[Any]:
        """Ask the four seats at once (their decisions are hidden from each other)."""
        answers: list[Any] = [None] * 4
        waiting = []
        for seat, agent in enumerate(self._agents):
            if agent is not None:
                answers[seat] = decide(agent, self.views[seat])
            else:
                waiting.append(seat)
        if waiting:
            results = await asyncio.gather(*(ask(self.players[seat], self.views[seat]) for seat in waiting),
                                           return_exceptions=True)
            for seat, result in zip(waiting, results):
                answers[seat] = None if isinstance(result, BaseException) else result
        return answers

    # -- playing --------------------------------------------------------------------------

    async def _play(self, round_: Round) -> None:
        while not round_.is_over:
            decision = round_.decision
            if decision == Decision.PLAY:
                if round_.trick_closed:
                    if not await self._offer_bombs(round_, closing=True):
                        self._take_trick(round_, None)
                    continue
                self._offer_tichu(round_)
                if round_.trick is not None and await self._offer_bombs(round_, closing=False):
                    continue
                await self._turn(round_)
            elif decision == Decision.WISH:
                await self._wish(round_)
            elif decision == Decision.DRAGON:
                if await self._offer_bombs(round_, closing=True):
                    continue
                await self._dragon(round_)

    async def _turn(self, round_: Round) -> None:
        seat = round_.turn
        assert seat is not None
        legal = round_.legal_plays()
        agent = self._agents[seat]
        if agent is not None and self.cooperative and agent.thinks_long:
            answer = await self._think_in_thread(agent, seat, legal)
            if answer is _STALE:
                return
            play = answer
        elif agent is not None:
            if self._has_clients and self.agent_delay:
                if not await self._pause(self.agent_delay):
                    return
            elif self.cooperative:
                version = self._version
                await asyncio.sleep(0)
                if version != self._version:
                    return
            play = agent.decide_play(self.views[seat], legal)
        else:
            answer = await self._await_decision(seat, self.players[seat].play(self.views[seat], legal))
            if answer is _STALE:
                return
            play = answer
        if play not in legal:
            log.warning("seat %d answered an illegal play %r; it passes or plays its first option", seat, play)
            play = PASS_PLAY if PASS_PLAY in legal else legal[0]
        had_wish = round_.wish_open
        round_.apply_legal_play(play)
        self._after_play(round_, seat, play, had_wish, out_of_turn=False)

    async def _think_in_thread(self, agent: Agent, seat: int, legal: list[Play]) -> Any:
        """Let a searching agent decide in a worker thread, so that the server's other tables
        and clients are served meanwhile; an interrupt during the search makes it stale.
        With clients seated, the search counts towards :attr:`agent_delay` (the rest is
        paused), so people can follow the play either way.

        :result: The play, or :data:`_STALE` if a Tichu call or bomb changed the state.
        """
        version = self._version
        started = time.monotonic()
        try:
            play = await asyncio.to_thread(agent.decide_play, self.views[seat], legal)
        except Exception:
            if version != self._version:
                return _STALE  # it read a state that an interrupt was changing
            raise
        left = self.agent_delay - (time.monotonic() - started) if self._has_clients else 0.0
        if left > 0 and not await self._pause(left):
            return _STALE
        return _STALE if version != self._version else play

    def _after_play(self, round_: Round, seat: int, play: Play, had_wish: bool, *, out_of_turn: bool) -> None:
        self._version += 1
        if not self._listeners:
            return
        if not play[0]:
            self._emit("player_passed", player_index=seat)
        else:
            # R7.2: the round's last play may have closed the round and the trick with it.
            taken_at_end = round_.is_over and not round_.trick_turns and round_.last_trick is not None
            trick_cards = round_.last_trick[1] if taken_at_end and round_.last_trick else round_.trick_cards
            self._emit("player_played", turn=[seat, cards_json(play[0]), combination_json(play)],
                       trick_points=points_of(trick_cards), trick_owner_index=round_.trick_owner,
                       is_bomb=play[1] == BOMB, out_of_turn=out_of_turn)
            if not round_.hands[seat]:
                place = round_.out_order.index(seat) + 1
                self._emit("player_out", player_index=seat, place=place)
                self._reveal_hands(round_)
            if had_wish and not round_.wish_open:
                self._emit("wish_fulfilled")
            if taken_at_end and round_.last_trick:
                self._emit("trick_taken", player_index=round_.last_trick[0], points=points_of(trick_cards),
                           dragon_recipient=None)
        if round_.turn is not None and not round_.is_over and round_.decision == Decision.PLAY:
            self._emit("player_turn_changed", current_turn_index=round_.turn)

    def _reveal_hands(self, round_: Round) -> None:
        if not self.rules.reveal_hands_when_out or round_.is_over:
            return
        hands = [cards_json(hand) for hand in round_.hands]
        for seat in round_.out_order:
            self._emit_to(seat, "hands_revealed", hands=hands)  # R8.3: only to seats that are out

    def _offer_tichu(self, round_: Round) -> None:
        announcements, has_played = round_.announcements, round_.has_played
        for seat, agent in enumerate(self._agents):
            if agent is None or announcements[seat] or has_played[seat]:
                continue
            if round_.can_announce(seat) and agent.decide_tichu(self.views[seat]):
                round_.announce(seat)
                self._emit("player_announced", player_index=seat, grand=False)

    async def _offer_bombs(self, round_: Round, *, closing: bool) -> bool:
        """Offer agents a bomb (R4.3), nearest seat after the trick's owner first.

        :param closing: The trick is about to be taken: every seat may bomb, and clients
            get :attr:`bomb_window` seconds for it.
        :result: Whether a bomb was thrown.
        """
        owner = round_.trick_owner
        assert owner is not None
        version = self._version
        for offset in (1, 2, 3, 4):
            seat = (owner + offset) % 4
            agent = self._agents[seat]
            if agent is None or not round_.holds_bomb(seat) or (seat == round_.turn and not closing):
                continue
            bombs = round_.bombs_for(seat)
            if bombs:
                choice = agent.decide_bomb(self.views[seat], bombs)
                if choice is not None and choice in bombs:
                    self._throw_bomb(round_, seat, choice)
                    return True
        if closing and self._has_clients and self.bomb_window:
            await self._pause(self.bomb_window)
        return self._version != version

    def _throw_bomb(self, round_: Round, seat: int, bomb: Play) -> None:
        had_wish = round_.wish_open
        round_.bomb(seat, bomb[0])
        self._after_play(round_, seat, bomb, had_wish, out_of_turn=True)

    def _take_trick(self, round_: Round, recipient: int | None) -> None:
        winner = round_.trick_owner
        points = points_of(round_.trick_cards)
        round_.collect_trick(recipient)
        self._trick_taken(round_, winner, points, recipient)

    def _trick_taken(self, round_: Round, winner: int | None, points: int, recipient: int | None) -> None:
        self._version += 1
        self._emit("trick_taken", player_index=winner, points=points, dragon_recipient=recipient)
        if round_.turn is not None and not round_.is_over:
            self._emit("player_turn_changed", current_turn_index=round_.turn)

    async def _choose(self, seat: int, choices: Sequence[int], decide: Any, ask: Any, what: str) -> Any:
        """Ask a seat to pick one of ``choices`` (an agent at once, a client awaited).

        :result: The valid choice (an invalid one is logged and replaced by the first
            choice), or :data:`_STALE` if an interrupt overtook the question.
        """
        agent = self._agents[seat]
        if agent is not None:
            value = decide(agent, self.views[seat], choices)
        else:
            value = await self._await_decision(seat, ask(self.players[seat], self.views[seat], choices))
            if value is _STALE:
                return _STALE
        if not _is_choice(value, choices):
            log.warning("seat %d answered %r for the %s; taking %d", seat, value, what, choices[0])
            value = choices[0]
        return value

    async def _wish(self, round_: Round) -> None:
        seat = round_.decision_seat
        assert seat is not None
        value = await self._choose(seat, round_.wish_choices(), lambda agent, view, options: agent.decide_wish(
            view, options), lambda player, view, options: player.wish(view, options), "wish")
        if value is _STALE:
            return
        round_.make_wish(seat, value)
        self._version += 1
        self._emit("wish_made", wish_value=value)
        if round_.turn is not None:
            self._emit("player_turn_changed", current_turn_index=round_.turn)

    async def _dragon(self, round_: Round) -> None:
        seat = round_.decision_seat
        assert seat is not None
        to = await self._choose(seat, round_.dragon_recipients(), lambda agent, view, options: agent.decide_dragon(
            view, options), lambda player, view, options: player.give_dragon(view, options), "Dragon recipient")
        if to is _STALE:
            return
        winner = round_.trick_owner
        points = points_of(round_.trick_cards)
        round_.give_dragon(seat, to)
        self._trick_taken(round_, winner, points, to)

    # -- waiting and interrupts -------------------------------------------------------------

    def _wake(self) -> None:
        self._interrupted.set()

    async def _pause(self, seconds: float) -> bool:
        """Sleep unless interrupted; return whether the state is still the same."""
        version = self._version
        self._interrupted.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._interrupted.wait(), seconds)
        return self._version == version

    async def _await_decision(self, seat: int, decision: Any) -> Any:
        """Await a client's decision; give up (:data:`_STALE`) if an interrupt changed the state."""
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
            self._awaiting = None
        if self._version != version:
            return _STALE
        try:
            return task.result()
        except Exception as error:  # a player's failure must not stop the table
            log.warning("a player's decision failed: %r", error)
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
            self._emit("player_announced", player_index=seat, grand=False)
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


def _is_choice(value: object, choices: Sequence[int]) -> bool:
    """Whether an answer is one of the integer options (``True`` and ``8.0`` are not)."""
    return type(value) is int and value in choices


class _Stale:
    """Marker: the awaited decision was overtaken by an interrupt."""


_STALE: Any = _Stale()
