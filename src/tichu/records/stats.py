"""Statistics of one game per seat, computed from its record alone (records.md; docs/ratings.md).

:func:`game_stats` is a pure function: the store keeps its result per game and seat (table
``game_players``), and a player's statistics are the sums over their games.

Who a seat is: a person by their name (``kind`` ``"human"``), an agent by its kind
(``"agent:montecarlo"``), so that every Monte Carlo agent adds to one line whatever its seat's
display name. That identity is the *player key*; names are not accounts (anyone can play under
any name on a home server), and the key keeps the door open for accounts later.

A seat's player is the first person who held it (``players``, or a ``joined`` entry of the
record's ``seat_changes``; docs/server.md), else the agent that began it. Only that player's
*stint* counts: the rounds it began and the calls and bombs it made while it held the seat. A
substitute agent's moves count for nobody, and a person who left the game for good (a ``left``
change, or the record's ``ended_by``) has no result for it but is marked :attr:`SeatStats.left`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tichu.core.cards import parse_mask
from tichu.core.combos import BOMB, classify_mask
from tichu.core.seats import TEAM_NAMES
from tichu.records.record import json_list, json_object

#: records.md's ``players[].kind`` of a person.
HUMAN = "human"
#: A place in a game: the round's index and how many of its events came before (a seat change's).
Place = tuple[int, int]
#: After every place of a game.
_END: Place = (1 << 30, 0)


def player_key(name: str, kind: str) -> str:
    """Whom a seat's statistics and rating belong to: a person's name, or an agent's kind.

    :param name: The seat's name in the record.
    :param kind: Its ``kind`` (``"human"`` or ``"agent:<name>"``).
    :returns: ``name`` for a person, ``kind`` for an agent.
    """
    return kind if kind.startswith("agent:") else name


@dataclass(frozen=True)
class SeatStats:
    """What one seat did in one game.

    :ivar seat: The seat (0..3).
    :ivar name: Its name in the record.
    :ivar kind: ``"human"`` or ``"agent:<name>"``.
    :ivar key: :func:`player_key` of name and kind.
    :ivar team: 20 (seats 0 and 2) or 31 (seats 1 and 3).
    :ivar won: Whether its team won; ``None`` for a game ended early (aborted).
    :ivar rounds: Finished rounds played.
    :ivar tichu_calls: Plain Tichu calls.
    :ivar tichu_made: Of those, the ones it made (out first).
    :ivar grand_calls: Grand Tichu calls.
    :ivar grand_made: Of those, the ones it made.
    :ivar double_victories: Rounds its team won by a double victory.
    :ivar team_points: Its team's points over the finished rounds (card points and bonuses).
    :ivar bombs: Bombs it played (out of turn or at its turn).
    :ivar left: Whether the seat's player left the game for good before its end.
    :ivar whole: Whether the seat's player held the seat through the whole game (no change).
    """

    seat: int
    name: str
    kind: str
    key: str
    team: int
    won: bool | None
    rounds: int
    tichu_calls: int
    tichu_made: int
    grand_calls: int
    grand_made: int
    double_victories: int
    team_points: int
    bombs: int
    left: bool = False
    whole: bool = True


def is_finished(record: Mapping[str, object]) -> bool:
    """Whether a record is of a game played to its end (a winner, not aborted): only those rate."""
    return not record.get("aborted") and record.get("winner") in (20, 31)


def game_stats(record: Mapping[str, object]) -> list[SeatStats]:
    """Each seat's statistics of one game: its player's (see the module's docstring).

    Only finished rounds count (an aborted game's ``unfinished_round`` does not), and of them the
    rounds the seat's player began. A call is made when its seat goes out first (R6). A bomb is a
    ``bomb`` event or a ``play`` whose cards are a bomb (R3.7).

    :param record: A ``tichu-record/1`` object.
    :returns: Four entries, by seat.
    :raises ValueError: For a record without four players or with malformed rounds or seat changes.
    """
    try:
        players = [(str(json_object(player)["name"]), str(json_object(player)["kind"]))
                   for player in json_list(record["players"])]
        if len(players) != 4:
            raise ValueError(f"{len(players)} players")
        stints = [_stint(seat, players[seat], record) for seat in range(4)]
        counts = [dict.fromkeys(("rounds", "tichu_calls", "tichu_made", "grand_calls", "grand_made",
                                 "double_victories", "team_points", "bombs"), 0) for _ in range(4)]
        for index, round_ in enumerate(json_list(record.get("rounds") or [])):
            _add_round(index, json_object(round_), counts, stints)
    except (KeyError, TypeError, IndexError, AttributeError) as error:
        raise ValueError(f"malformed record: {error!r}") from error
    winner = record.get("winner") if is_finished(record) else None
    return [SeatStats(seat=seat, name=stint.name, kind=stint.kind, key=player_key(stint.name, stint.kind),
                      team=TEAM_NAMES[seat % 2],
                      won=None if winner is None or stint.left else winner == TEAM_NAMES[seat % 2],
                      left=stint.left, whole=stint.whole, **counts[seat])
            for seat, stint in enumerate(stints)]


@dataclass(frozen=True)
class _Stint:
    """Who a seat's player is and from where to where in the game it held the seat."""

    name: str
    kind: str
    start: Place
    end: Place
    left: bool

    @property
    def whole(self) -> bool:
        return self.start == (0, 0) and self.end == _END

    def holds(self, place: Place) -> bool:
        return self.start <= place < self.end


def _stint(seat: int, starter: tuple[str, str], record: Mapping[str, object]) -> _Stint:
    """The seat's player (the first person at it, else its first agent) and its stint."""
    changes = [(_int(change["round"]), _int(change["event"]), str(change["name"]), str(change["kind"]),
                str(change["reason"])) for change in map(json_object, json_list(record.get("seat_changes") or []))
               if _int(change["seat"]) == seat]
    name, kind = starter
    start: Place = (0, 0)
    following = changes
    if kind != HUMAN:
        joined = [index for index, change in enumerate(changes) if change[3] == HUMAN]
        if joined:
            first = changes[joined[0]]
            name, kind, start = first[2], first[3], (first[0], first[1])
            following = changes[joined[0] + 1:]
    end = next(((change[0], change[1]) for change in following), _END)
    ended_by = record.get("ended_by")
    left = kind == HUMAN and (any(change[4] == "left" for change in following[:1])
                              or (isinstance(ended_by, dict) and ended_by.get("seat") == seat and end == _END))
    return _Stint(name, kind, start, end, left)


def _add_round(index: int, round_: Mapping[str, object], counts: list[dict[str, int]], stints: list[_Stint]) -> None:
    out_order = [_int(seat) for seat in json_list(round_["out_order"])]
    first = out_order[0] if out_order else None
    called = {seat for seat, grand in enumerate(json_list(round_.get("grand_tichu") or [])) if grand}
    for position, event in enumerate(map(json_object, json_list(round_.get("events") or []))):
        seat = _int(event["seat"])
        if not stints[seat].holds((index, position)):
            continue
        if event.get("tichu"):
            counts[seat]["tichu_calls"] += 1
            counts[seat]["tichu_made"] += seat == first
        elif "bomb" in event or ("play" in event and _is_bomb(str(event["play"]))):
            counts[seat]["bombs"] += 1
    score = json_list(round_["score"])
    for seat in range(4):
        if not stints[seat].holds((index, 0)):
            continue  # a round the seat's player did not begin is not theirs
        if seat in called:
            counts[seat]["grand_calls"] += 1
            counts[seat]["grand_made"] += seat == first
        team = seat % 2
        counts[seat]["rounds"] += 1
        counts[seat]["team_points"] += _int(score[team])
        counts[seat]["double_victories"] += bool(round_.get("double_victory")) and first is not None \
            and first % 2 == team


def _int(value: object) -> int:
    """A record's number, checked (as ``int()`` reads it: a number or its text).

    :raises TypeError: For anything else.
    """
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"not a number: {value!r:.80}")


def _is_bomb(labels: str) -> bool:
    found = classify_mask(parse_mask(labels))
    return found is not None and found[0] == BOMB
