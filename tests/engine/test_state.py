"""What a seat knows (rules.md R8): :class:`PublicState`, :class:`PrivateState`, :class:`SeatView`
and their JSON forms (protocol.md ``public_state`` / ``private_state``)."""

from __future__ import annotations

import dataclasses
import gc
import json
import pickle
import random
import types
from collections.abc import Sequence
from typing import Any

import pytest

from tichu.agents.agent import AgentPlayer
from tichu.agents.random_agent import RandomAgent
from tichu.core.cards import parse_mask, points_of
from tichu.core.combos import BOMB, PAIR, PASS_PLAY, SINGLE, STREET, Play
from tichu.core.round import Round
from tichu.core.ruleset import RuleSet
from tichu.core.views import (
    PrivateState,
    PublicState,
    SeatView,
    TableInfo,
    TablePhase,
    build_private_state,
    build_public_state,
)
from tichu.engine.engine import GameEngine
from tichu.server.wire.protocol import cards_json, combination_json, private_state_json, public_state_json

#: protocol.md, "Notifications": the fields ``public_state`` and ``private_state`` have at least.
PUBLIC_KEYS = {"table_name", "player_names", "host_index", "is_running", "phase", "round_index",
               "current_turn_index", "count_hand_cards", "announcements", "wish_value", "trick_turns",
               "trick_owner_index", "trick_points", "points", "out_order", "played_cards", "round_scores", "total"}
PRIVATE_KEYS = {"player_index", "hand_cards", "given_schupf_cards", "received_schupf_cards"}
PHASES = {"lobby", "grand_tichu", "schupf", "playing", "round_over", "game_over"}


def _cards(value: Any) -> set[tuple[int, int]]:
    """Every ``[value, suit]`` card pair in a JSON value (score keys skipped, and ``unseen_bombs``:
    values and suits, no cards; ``tests/core/test_unseen.py`` shows it holds only what the seat saw)."""
    found: set[tuple[int, int]] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in {"round_scores", "total", "points", "count_hand_cards", "announcements", "tricks_won",
                           "count_pushed", "out_order", "player_names", "unseen_bombs"}:
                found |= _cards(item)
    elif isinstance(value, list):
        if len(value) == 2 and all(type(x) is int for x in value):
            found.add((value[0], value[1]))
        else:
            for item in value:
                found |= _cards(item)
    return found


def _set(mask: int) -> set[tuple[int, int]]:
    return {(value, suit) for value, suit in cards_json(mask)}


# -- JSON forms ----------------------------------------------------------------------------


def test_cards_json_is_value_suit_pairs_highest_first() -> None:
    """Cards travel as ``[value, suit]`` pairs (protocol.md, records.md card values and suits)."""
    assert cards_json(parse_mask("S2 RA Ph Hu Ma Dr GZ")) == [
        [16, 0], [15, 0], [14, 4], [10, 3], [2, 1], [1, 0], [0, 0]]
    assert cards_json(0) == []


@pytest.mark.parametrize(("play", "expected"), [
    ((parse_mask("Ph"), SINGLE, 1, 1), ["single", 1, 1.5]),  # R3.6: led, 1.5
    ((parse_mask("Ph"), SINGLE, 1, 14), ["single", 1, 14.5]),  # R3.6: on an Ace, 14.5
    ((parse_mask("RA"), SINGLE, 1, 14), ["single", 1, 14]),
    ((parse_mask("S5 B5"), PAIR, 2, 5), ["pair", 2, 5]),
    ((parse_mask("Ph B5"), PAIR, 2, 5), ["pair", 2, 5]),  # a Phoenix in a pair keeps an integer rank
    ((parse_mask("Ma S2 B3 G4 R5"), STREET, 5, 5), ["street", 5, 5]),
    ((parse_mask("S7 B7 G7 R7"), BOMB, 4, 7), ["bomb", 4, 7]),
])
def test_combination_json_R3_6(play: Play, expected: list[Any]) -> None:
    """A combination travels as ``[type, length, rank]``; only a Phoenix single ranks x.5 (R3.6)."""
    shown = combination_json(play)
    assert shown == expected
    assert type(shown[2]) is type(expected[2])


def test_states_without_a_round() -> None:
    """Before the first deal the public state is empty and the private state holds nothing."""
    info = TableInfo(table_name="T", player_names=["a", "b", "c", "d"], host_index=1)
    public = public_state_json(build_public_state(info, None))
    assert set(public) >= PUBLIC_KEYS
    assert public["phase"] == "lobby" and public["current_turn_index"] is None
    assert public["count_hand_cards"] == [0, 0, 0, 0] and public["trick_turns"] == []
    assert public["played_cards"] == [] and public["host_index"] == 1 and public["player_names"] == ["a", "b", "c", "d"]
    private = private_state_json(build_private_state(None, 2))
    assert private == {"player_index": 2, "hand_cards": [], "given_schupf_cards": None, "received_schupf_cards": None,
                       "may_announce": False, "bombs": [],
                       "unseen_bombs": {"four_of_a_kind": [], "straight_flush": []}}
    json.dumps(public)


def test_view_shows_the_table_rules_R5_1() -> None:
    """The rule set is public: a view shows the round's (search agents simulate with it), and
    the defaults before a round."""
    class Source:
        info = TableInfo()
        round: Round | None = None

    source = Source()
    assert SeatView.of(source, 0).rules == RuleSet()
    source.round = Round(RuleSet(wish_optional=True), rng=random.Random(1))
    assert SeatView.of(source, 0).rules.wish_optional


# -- the push (R2.3, R8.2) ----------------------------------------------------------------


def _round() -> Round:
    return Round(RuleSet(), deal=[(parse_mask("Ma S2 S3 S4 S5 S6 S7 S8"), parse_mask("S9 SZ SB SD SK SA")),
                                  (parse_mask("Hu B2 B3 B4 B5 B6 B7 B8"), parse_mask("B9 BZ BB BD BK BA")),
                                  (parse_mask("Dr G2 G3 G4 G5 G6 G7 G8"), parse_mask("G9 GZ GB GD GK GA")),
                                  (parse_mask("Ph R2 R3 R4 R5 R6 R7 R8"), parse_mask("R9 RZ RB RD RK RA"))])


def test_private_state_through_the_push_R2_3_R8_2() -> None:
    """A seat sees only its own cards: after it pushed, its given cards but nothing received until
    all four have given (R2.3); then the three received cards, from right, partner, left."""
    round_ = _round()
    for seat in range(4):
        round_.decide_grand_tichu(seat, False)
    round_.schupf(0, [parse_mask("S2"), parse_mask("S3"), parse_mask("S4")])  # to 1, 2, 3
    mine = private_state_json(build_private_state(round_, 0))
    assert mine["given_schupf_cards"] == [[2, 1], [3, 1], [4, 1]] and mine["received_schupf_cards"] is None
    assert len(mine["hand_cards"]) == 11
    theirs = private_state_json(build_private_state(round_, 1))
    assert theirs["given_schupf_cards"] is None and theirs["received_schupf_cards"] is None
    assert [2, 1] not in theirs["hand_cards"] and len(theirs["hand_cards"]) == 14  # not yet received
    assert build_public_state(TableInfo(), round_).count_pushed == (3, 0, 0, 0)  # R8.1
    round_.schupf(1, [parse_mask("B2"), parse_mask("B3"), parse_mask("B4")])
    round_.schupf(2, [parse_mask("G2"), parse_mask("G3"), parse_mask("G4")])
    round_.schupf(3, [parse_mask("R2"), parse_mask("R3"), parse_mask("R4")])
    received = private_state_json(build_private_state(round_, 0))["received_schupf_cards"]
    # from the right opponent (seat 1) its card to the left, from the partner (2) its middle card,
    # from the left opponent (3) its card to the right
    assert received == [[4, 2], [3, 3], [2, 4]]
    hand = _set(round_.hands[0])
    assert {(4, 2), (3, 3), (2, 4)} <= hand and not {(2, 1), (3, 1), (4, 1)} & hand
    assert build_public_state(TableInfo(), round_).count_pushed == (3, 3, 3, 3)


def test_states_are_immutable_copies() -> None:
    """A state is a frozen snapshot: it cannot be changed, and it does not follow the game."""
    round_ = _round()
    info = TableInfo()
    public = build_public_state(info, round_)
    private = build_private_state(round_, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        public.phase = TablePhase.LOBBY  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        private.hand_cards = 0  # type: ignore[misc]
    for seat in range(4):
        round_.decide_grand_tichu(seat, seat == 2)
    assert public.count_hand_cards == (8, 8, 8, 8) and public.announcements == (0, 0, 0, 0)
    assert private.hand_cards.bit_count() == 8
    changed = public_state_json(public)
    changed["count_hand_cards"][0] = 99
    assert public_state_json(public)["count_hand_cards"] == [8, 8, 8, 8]


# -- every view of a whole game (R8) --------------------------------------------------------


class Inspector(RandomAgent):
    reads_table = True

    """Checks its :class:`SeatView` at every decision against the round (R8)."""

    engine: GameEngine
    checks = 0

    def _inspect(self, view: SeatView, phase: str) -> None:
        type(self).checks += 1
        round_ = self.engine.round
        assert round_ is not None
        seat = view.seat
        public = view.public_state()
        private = view.private_state()
        assert isinstance(public, PublicState) and isinstance(private, PrivateState)
        public_json, private_json = public_state_json(public), private_state_json(private)
        json.dumps(public_json), json.dumps(private_json)
        assert set(public_json) >= PUBLIC_KEYS and set(private_json) >= PRIVATE_KEYS
        assert public_json["phase"] == phase and public_json["phase"] in PHASES and public_json["is_running"]
        hands = [_set(hand) for hand in round_.hands]
        # R8: the public state holds no card that is in anybody's hand ...
        assert not _cards(public_json) & set().union(*hands)
        # ... and the private state only the seat's own hand and its own push (R8.2).
        assert _set(view.hand) == hands[seat] and {tuple(card) for card in private_json["hand_cards"]} == hands[seat]
        given = round_.given[seat]
        assert private_json["given_schupf_cards"] == (None if given is None else [cards_json(c)[0] for c in given])
        received = round_.received(seat)
        assert private_json["received_schupf_cards"] == (
            None if received is None else [cards_json(c)[0] for c in received])
        others = set().union(*(hands[other] for other in range(4) if other != seat))
        leaked = _cards(private_json) & others
        allowed = _set(sum(given)) if given else set()  # the seat knows where its pushed cards went
        assert leaked <= allowed, f"private state of seat {seat} shows {leaked - allowed}"
        # R8.1 facts
        assert public.count_hand_cards == tuple(hand.bit_count() for hand in round_.hands)
        assert public.announcements == tuple(round_.announcements)
        assert public.out_order == tuple(round_.out_order)
        assert public.points == tuple(points_of(won) for won in round_.won)
        assert public.played_cards == round_.played
        assert public.trick_points == points_of(round_.trick_cards)
        assert public.round_scores == tuple(self.engine.info.round_scores)
        assert public.total == self.engine.info.total
        assert public_json["player_names"] == [player.name for player in self.engine.players]

    def decide_grand_tichu(self, view: SeatView) -> bool:
        self._inspect(view, "grand_tichu")
        assert view.hand.bit_count() == 8 and view.public_state().current_turn_index is None
        return super().decide_grand_tichu(view)

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        self._inspect(view, "schupf")
        assert view.hand.bit_count() == 14 and view.trick is None
        return super().decide_schupf(view)

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        self._inspect(view, "playing")
        public = view.public_state()
        assert public.current_turn_index == view.seat and public.count_pushed == (3, 3, 3, 3)
        round_ = self.engine.round
        assert round_ is not None
        if view.trick is None:
            assert PASS_PLAY not in legal
        else:
            assert view.trick == round_.trick and view.trick_owner == round_.trick_owner
        assert view.wish == (round_.wish_value if round_.wish_open else 0)
        assert public.wish_open == round_.wish_open
        assert all(play[0] & ~view.hand == 0 for play in legal)
        if public.trick_turns:
            assert public.trick_owner_index == round_.trick_owner
        else:
            assert public.trick_owner_index is None
        return super().decide_play(view, legal)

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        self._inspect(view, "playing")
        return super().decide_wish(view, choices)

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        self._inspect(view, "playing")
        assert view.public_state().current_turn_index == view.seat
        return super().decide_dragon(view, recipients)

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        self._inspect(view, "playing")
        return super().decide_bomb(view, bombs)




async def test_seat_views_never_show_another_hand_R8() -> None:
    """At every decision of whole games, a seat's PublicState and PrivateState (and their JSON) hold
    no card of another seat's hand and agree with the round (R8.1, R8.2)."""
    Inspector.checks = 0
    for seed in (1, 2):
        agents = [Inspector(f"I{seat}", seed * 4 + seat) for seat in range(4)]
        engine = GameEngine([AgentPlayer(agent) for agent in agents], RuleSet(), seed=seed, info=TableInfo(
            table_name="t", player_names=[
            agent.name for agent in agents]))
        for agent in agents:
            agent.engine = engine
        await engine.run()
    assert Inspector.checks > 500


async def test_public_state_between_and_after_rounds() -> None:
    """After a game the table info holds the round scores and the total (R8.1), phase ``game_over``."""
    agents = [RandomAgent(f"R{seat}", seat) for seat in range(4)]
    engine = GameEngine([AgentPlayer(agent) for agent in agents], RuleSet(target_score=300), seed=3)
    game = await engine.run()
    public = SeatView.of(engine, 0).public_state()
    assert public.phase == "game_over" and not public.is_running
    assert public.total == tuple(game.total)
    assert list(public.round_scores) == [result.points for result in game.results]
    assert public_state_json(public)["round_scores"] == [list(result.points) for result in game.results]


def test_view_on_a_lead_has_no_trick_owner() -> None:
    """protocol.md, requests: "On a lead (a new trick, also after the Dog) ``trick_combination`` and
    ``trick_owner_index`` are null". A SeatView is where they come from: on a lead its ``trick``
    is ``None``, and so must ``trick_owner`` be (not the owner of a trick already taken). Each
    view is a snapshot: a new one is taken at every point."""
    round_ = _round()
    for seat in range(4):
        round_.decide_grand_tichu(seat, False)
    round_.schupf(0, [parse_mask("S2"), parse_mask("S3"), parse_mask("S4")])
    round_.schupf(1, [parse_mask("B2"), parse_mask("B3"), parse_mask("B4")])
    round_.schupf(2, [parse_mask("G2"), parse_mask("G3"), parse_mask("G4")])
    round_.schupf(3, [parse_mask("R2"), parse_mask("R3"), parse_mask("R4")])

    class Source:
        info = TableInfo()

    source = Source()
    source.round = round_  # type: ignore[attr-defined]
    def view() -> SeatView:  # a snapshot of this moment
        return SeatView.of(source, 0)  # type: ignore[arg-type]

    assert round_.turn == 0 and view().trick is None and view().trick_owner is None  # first lead
    round_.play(0, parse_mask("SA"))
    assert view().trick is not None and view().trick_owner == 0
    for seat in (1, 2, 3):
        round_.play(seat, 0)
    round_.collect_trick()
    assert round_.turn == 0 and view().trick is None
    assert view().trick_owner is None, "a taken trick's owner is shown on a new lead"


def test_a_view_is_a_frozen_picklable_snapshot_R8() -> None:
    """A SeatView is taken at one moment and never changes after: the round going on leaves it
    as it was, it cannot be changed, and it pickles whole, so an agent may decide from it in
    another thread or process (R8: it still holds only what the seat may see)."""
    round_ = _round()
    for seat in range(4):
        round_.decide_grand_tichu(seat, False)
    for seat in range(4):
        hand = round_.hands[seat]
        low = [hand & -hand, 0, 0]
        low[1] = (hand & ~low[0]) & -(hand & ~low[0])
        low[2] = (hand & ~low[0] & ~low[1]) & -(hand & ~low[0] & ~low[1])
        round_.schupf(seat, low)

    class Source:
        info = TableInfo(table_name="t")

    source = Source()
    source.round = round_  # type: ignore[attr-defined]
    leader = round_.turn
    assert leader is not None
    before = SeatView.of(source, leader)  # type: ignore[arg-type]
    copy = pickle.loads(pickle.dumps(before))
    assert copy == before and copy.public_state() == before.public_state()
    with pytest.raises(AttributeError):
        before.hand = 0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        before.public_state().wish_value = 5  # type: ignore[misc]
    round_.apply_legal_play(round_.legal_plays()[0])
    assert before == copy, "the round went on and the snapshot changed"
    assert SeatView.of(source, leader) != before  # type: ignore[arg-type]
    others = [round_.hands[seat] for seat in range(4) if seat != leader]
    assert not any(hand & before.hand for hand in others)


def test_a_view_without_the_table_refuses_to_read_it() -> None:
    """A player that does not read the table (a random agent) gets a view without the public and
    private state, which then say so instead of answering wrongly."""
    round_ = _round()

    class Source:
        info = TableInfo()

    source = Source()
    source.round = round_  # type: ignore[attr-defined]
    view = SeatView.of(source, 1, reads_table=False)  # type: ignore[arg-type]
    assert view.hand == round_.hands[1] and view.public is None and view.private is None
    for read in (view.public_state, view.private_state):
        with pytest.raises(ValueError, match="without the table"):
            read()


#: A seed no card mask, count or score of a game can equal (they stay far below 2**56).
_SEED = 0x5EED_0F_DEA1_5EED


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references, classes and modules left out."""
    seen, found, todo = set[int](), list[object](), [root]
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, (type, types.ModuleType, types.FunctionType)):
            continue
        seen.add(id(item))
        found.append(item)
        todo.extend(gc.get_referents(item))
    return found


async def test_no_seat_can_reach_the_seed_of_the_shuffles_R8() -> None:
    """Issue 36: the seed deals every hand, so it is the engine's (its owner's), not the
    rules'. Nothing a seated agent is handed (its frozen views, R8) reaches the seed or the
    shuffles' source, while the same seed deals the same game again."""
    views: list[SeatView] = []

    class Watcher(RandomAgent):
        def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
            views.append(view)
            return super().decide_play(view, legal)

    def engine() -> GameEngine:
        players = [AgentPlayer(Watcher(f"W{seat}", seat)) for seat in range(4)]
        return GameEngine(players, RuleSet(target_score=200, wish_optional=True), seed=_SEED, keep_rounds=True)

    first, again = engine(), engine()
    await first.run()
    await again.run()
    assert views and first.seed == _SEED
    assert [round_.first_deal for round_ in first.rounds] == [round_.first_deal for round_ in again.rounds]
    reached = [item for view in views[::50] for item in _reachable(view)]
    assert not [item for item in reached if isinstance(item, random.Random) or item == _SEED]
    assert not [item for item in reached if isinstance(item, (GameEngine, Round))]


def test_a_fulfilled_wish_is_no_wish_on_the_wire() -> None:
    """protocol.md: ``public_state.wish_value`` 0 means no open wish; once the wish is fulfilled
    (R5.4) it is 0 again, and ``wish_open`` says the same."""
    lobby = build_public_state(TableInfo(table_name="t"), None)
    open_wish = public_state_json(dataclasses.replace(lobby, wish_value=8, wish_open=True))
    fulfilled = public_state_json(dataclasses.replace(lobby, wish_value=8, wish_open=False))
    assert (open_wish["wish_value"], open_wish["wish_open"]) == (8, True)
    assert (fulfilled["wish_value"], fulfilled["wish_open"]) == (0, False)
