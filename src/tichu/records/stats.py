"""Statistics of one game per seat, computed from its record alone (records.md; docs/ratings.md).

:func:`game_stats` is a pure function: the store keeps its result per game and seat (table
``game_players``), and a player's statistics are the sums over their games.

Who a seat is: a person by their name (``kind`` ``"human"``), an agent by its kind
(``"agent:montecarlo"``), so that every Monte Carlo agent adds to one line whatever its seat's
display name. That identity is the *player key*; names are not accounts (anyone can play under
any name on a home server), and the key keeps the door open for accounts later.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tichu.core.cards import parse_mask
from tichu.core.combos import BOMB, classify_mask
from tichu.core.seats import TEAM_NAMES

#: records.md's ``players[].kind`` of a person.
HUMAN = "human"


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


def is_finished(record: dict[str, Any]) -> bool:
    """Whether a record is of a game played to its end (a winner, not aborted): only those rate."""
    return not record.get("aborted") and record.get("winner") in (20, 31)


def game_stats(record: dict[str, Any]) -> list[SeatStats]:
    """Each seat's statistics of one game.

    Only finished rounds count (an aborted game's ``unfinished_round`` does not). A call is made
    when its seat goes out first (R6). A bomb is a ``bomb`` event or a ``play`` whose cards are
    a bomb (R3.7).

    :param record: A ``tichu-record/1`` object.
    :returns: Four entries, by seat.
    :raises ValueError: For a record without four players or with malformed rounds.
    """
    try:
        players = [(str(player["name"]), str(player["kind"])) for player in record["players"]]
        if len(players) != 4:
            raise ValueError(f"{len(players)} players")
        counts = [dict.fromkeys(("rounds", "tichu_calls", "tichu_made", "grand_calls", "grand_made",
                                 "double_victories", "team_points", "bombs"), 0) for _ in range(4)]
        for round_ in record.get("rounds") or []:
            _add_round(round_, counts)
    except (KeyError, TypeError, IndexError, AttributeError) as error:
        raise ValueError(f"malformed record: {error!r}") from error
    winner = record.get("winner") if is_finished(record) else None
    return [SeatStats(seat=seat, name=name, kind=kind, key=player_key(name, kind), team=TEAM_NAMES[seat % 2],
                      won=None if winner is None else winner == TEAM_NAMES[seat % 2], **counts[seat])
            for seat, (name, kind) in enumerate(players)]


def _add_round(round_: dict[str, Any], counts: list[dict[str, int]]) -> None:
    out_order = list(round_["out_order"])
    first = out_order[0] if out_order else None
    called = {seat for seat, grand in enumerate(round_.get("grand_tichu") or []) if grand}
    for event in round_.get("events") or []:
        seat = int(event["seat"])
        if event.get("tichu"):
            counts[seat]["tichu_calls"] += 1
            counts[seat]["tichu_made"] += seat == first
        elif "bomb" in event or ("play" in event and _is_bomb(str(event["play"]))):
            counts[seat]["bombs"] += 1
    for seat in called:
        counts[seat]["grand_calls"] += 1
        counts[seat]["grand_made"] += seat == first
    score = list(round_["score"])
    for seat in range(4):
        team = seat % 2
        counts[seat]["rounds"] += 1
        counts[seat]["team_points"] += int(score[team])
        counts[seat]["double_victories"] += bool(round_.get("double_victory")) and first is not None \
            and first % 2 == team


def _is_bomb(labels: str) -> bool:
    found = classify_mask(parse_mask(labels))
    return found is not None and found[0] == BOMB
