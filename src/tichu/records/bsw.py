"""Brettspielwelt (BSW) Tichu logs (``.tch``) as game records (``tichu-record/1``, records.md).

A ``.tch`` file is one game; every round in it is four sections, each opened by a
dashed header line or a keyword::

    ---------------Gr.Tichukarten------------------
    (0)name RK BK R10 S10 S9 B9 G8 B3            the 8 cards seen before Grand Tichu (R2.1)
    ---------------Startkarten------------------
    (0)name RK BK SK GB R10 ... Ma               all 14 cards, before the push
    Grosses Tichu: (1)name                       a Grand Tichu call (R6.2)
    Schupfen:
    (0)name gibt: other: B3 - other: RK - other: B5 -     the push (R2.3)
    BOMBE: (2)name (3)name                       the seats holding a bomb after the push
    ---------------Rundenverlauf------------------
    (0)name: Ma                                  a play (at turn, or a bomb out of turn)
    Wunsch:5                                     the Mah Jong's wish; no line: no wish
    (1)name passt.                               a pass
    Tichu: (2)name                               a Tichu call (R6.1)
    Drache an: (0)name                           the Dragon trick's recipient (R4.5)
    Ergebnis: 25 - 75                            the round's points, team 20 - team 31

``(i)`` is the seat, in playing order, so seats 0 and 2 and seats 1 and 3 are partners
(R1.3); names may be missing there (``(1) BA ...``) and a seat's player may change
within a game. Cards are our labels (records.md) except that the 10 is written
``10`` instead of ``Z``. Files are UTF-8 (names with umlauts) or, failing that, Windows-1252.

BSW logs the turn coming back to a trick's owner, who then takes the trick, as a pass of
the owner; that is no pass in our rules: it is dropped, and the trick is taken then, so
that no bomb can land on it after (R4.2, R4.3; a Dragon trick waits for its gift). Whether a play is made at the
seat's turn or is a bomb thrown out of turn is decided by running a
:class:`~tichu.core.round.Round` alongside the log, which also checks every line
against the rules and the ``Ergebnis`` against our scoring (R7).

Where BSW's rules differ from rules.md, the difference is a :class:`RuleSet` flag, and
:func:`import_game` names in the record the flags a game needs (:data:`FLAG_FOR_RULE`).
The logs show one difference:

- the Mah Jong player may wish nothing (``wish_optional``, R5.1): BSW then writes no
  ``Wunsch`` line, and the record gets the event ``wish: 0``.

The ``BOMBE`` line names the seats that hold a bomb once the pushed cards are received
(not before the push); the import checks it. Tichu calls appear in the ``Rundenverlauf``
only, before the caller's first card, which R2.4 and R6.1 allow.

Records carry the players as ``human`` with their names from the log (a seat whose
player changed lists the names in order, joined by ``" / "``), ``seed`` null, the id
``bsw-<file name without suffix>``, and, since the logs carry no date, the fixed
``started_at`` :data:`STARTED_AT` (``1970-01-01T00:00:00Z``), so that an import is
deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Literal

from tichu.core.cards import parse_mask
from tichu.core.errors import RuleViolation
from tichu.core.round import Decision, Round
from tichu.core.ruleset import RuleSet
from tichu.records.parts import GameRecord
from tichu.records.record import game_record

#: ``started_at`` of every imported record: the logs carry no date.
STARTED_AT = "1970-01-01T00:00:00Z"
#: The flag that lifts each rule of rules.md where BSW's rules differ.
FLAG_FOR_RULE: dict[str, str] = {"R5.1": "wish_optional"}

_HEADER = re.compile(r"^-+(Gr\.Tichukarten|Startkarten|Rundenverlauf)-+$")
_SEAT = r"\((\d)\)"
_HAND = re.compile(_SEAT + r"(\S*) (.*)$")
_GRAND = re.compile(r"^Grosses Tichu: " + _SEAT + r"(.*)$")
_GIVE = re.compile(_SEAT + r"(.*?) gibt: (.*)$")
_BOMBS = re.compile(r"^BOMBE:((?: " + _SEAT + r"\S*)+) ?$")
_PASS = re.compile(_SEAT + r"(.*) passt\.$")
_PLAY = re.compile(_SEAT + r"(.*?): (.*)$")
_TICHU = re.compile(r"^Tichu: " + _SEAT + r"(.*)$")
_WISH = re.compile(r"^Wunsch:(\S+)$")
_DRAGON = re.compile(r"^Drache an: " + _SEAT + r"(.*)$")
_RESULT = re.compile(r"^Ergebnis: (-?\d+) - (-?\d+)$")
_VALUE_NAMES = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
                "B": 11, "D": 12, "K": 13, "A": 14}
_VALUE_LABELS = {name: "Z" if name == "10" else name for name in _VALUE_NAMES}
_SPECIAL_LABELS = frozenset({"Hu", "Ma", "Dr", "Ph"})


class BswError(ValueError):
    """A log line that cannot be read, or that the rules do not allow.

    :ivar line: The line number in the file, from 1.
    :ivar rule: The rule broken (rules.md), or ``"format"`` for a line that cannot be read.
    :ivar reason: A sentence for people.
    :ivar round_index: The round, from 0, where known.
    """

    def __init__(self, line: int, rule: str, reason: str, round_index: int | None = None) -> None:
        where = f"line {line}" if round_index is None else f"round {round_index}, line {line}"
        super().__init__(f"{where}: {rule}: {reason}")
        self.line = line
        self.rule = rule
        self.reason = reason
        self.round_index = round_index


MoveKind = Literal["play", "pass", "tichu", "wish", "dragon"]


@dataclass(frozen=True)
class Move:
    """One line of the ``Rundenverlauf``.

    :ivar line: Its line number.
    :ivar kind: ``"play"``, ``"pass"``, ``"tichu"``, ``"wish"`` or ``"dragon"``.
    :ivar seat: The seat acting; for a wish or a Dragon gift the seat of the last play.
    :ivar value: The cards' mask of a play, the wished value (0 for none), the Dragon
        trick's recipient; 0 otherwise.
    """

    line: int
    kind: MoveKind
    seat: int
    value: int = 0


@dataclass
class BswRound:
    """One round as the log writes it.

    :ivar line: The line number of its first header.
    :ivar names: Per seat the player's name ("" where the log leaves it out).
    :ivar first: Per seat the mask of the first 8 cards.
    :ivar start: Per seat the mask of the 14 cards before the push.
    :ivar grand: Per seat whether it called Grand Tichu.
    :ivar gifts: Per seat the ``Schupfen`` line's ``(recipient's name, card mask)`` pairs.
    :ivar push: Per seat the single-card masks given to seats i+1, i+2, i+3 (from
        ``gifts`` once the names are known, at the ``Rundenverlauf``).
    :ivar bomb_holders: The seats of the ``BOMBE`` line.
    :ivar moves: The ``Rundenverlauf``.
    :ivar result: The ``Ergebnis`` as ``(team 20, team 31)``, ``None`` until read.
    :ivar result_line: The line number of the ``Ergebnis``.
    """

    line: int
    names: list[str] = field(default_factory=lambda: [""] * 4)
    first: list[int] = field(default_factory=lambda: [0] * 4)
    start: list[int] = field(default_factory=lambda: [0] * 4)
    grand: list[bool] = field(default_factory=lambda: [False] * 4)
    gifts: list[list[tuple[str, int]]] = field(default_factory=lambda: [[] for _ in range(4)])
    push: list[tuple[int, int, int] | None] = field(default_factory=lambda: [None] * 4)
    bomb_holders: tuple[int, ...] = ()
    moves: list[Move] = field(default_factory=list)
    result: tuple[int, int] | None = None
    result_line: int = 0


def decode(data: bytes) -> str:
    """Return a log's text: UTF-8 (a byte order mark dropped) if it is valid UTF-8, else Windows-1252."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def parse_cards(text: str) -> int:
    """Return the mask of BSW's card labels (``"R10 Ph Ma"``).

    :param text: Labels separated by spaces.
    :returns: The mask.
    :raises ValueError: For an unknown label or a card given twice.
    """
    labels = []
    for token in text.split():
        if token in _SPECIAL_LABELS:
            labels.append(token)
        elif token[:1] in ("S", "B", "G", "R") and token[1:] in _VALUE_LABELS:
            labels.append(token[0] + _VALUE_LABELS[token[1:]])
        else:
            raise ValueError(f"unknown card {token!r}")
    try:
        return parse_mask(" ".join(labels))
    except RuleViolation as error:
        raise ValueError(error.reason) from error


def parse_log(text: str) -> list[BswRound]:
    """Read the rounds of a log.

    :param text: The file's text.
    :returns: The rounds in order, each with its ``Ergebnis``.
    :raises BswError: (rule ``"format"``) for a line that cannot be read where it stands.
    """
    rounds: list[BswRound] = []
    section = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        try:
            header = _HEADER.match(line)
            if header or line == "Schupfen:":
                section = header.group(1) if header else line
                if section == "Gr.Tichukarten":
                    _check_complete(rounds, number)
                    rounds.append(BswRound(number))
                elif not rounds or rounds[-1].result is not None:
                    raise ValueError(f"{section} outside a round")
                elif section == "Rundenverlauf":
                    _resolve_push(rounds[-1])
                continue
            if not rounds or rounds[-1].result is not None:
                raise ValueError("line outside a round")
            _parse_line(rounds[-1], section, number, line)
        except ValueError as error:
            raise BswError(number, "format", f"{error} in {line!r}") from error
    _check_complete(rounds, len(text.splitlines()))
    return rounds


def _check_complete(rounds: list[BswRound], number: int) -> None:
    if rounds and rounds[-1].result is None:
        raise BswError(number, "format", f"the round of line {rounds[-1].line} has no Ergebnis")


def _parse_line(round_: BswRound, section: str, number: int, line: str) -> None:
    if section == "Gr.Tichukarten":
        _parse_hand(round_, round_.first, line)
    elif section == "Startkarten":
        grand = _GRAND.match(line)
        if grand:
            round_.grand[_seat(round_, grand)] = True
        else:
            _parse_hand(round_, round_.start, line)
    elif section == "Schupfen:":
        _parse_push(round_, line)
    elif section == "Rundenverlauf":
        _parse_move(round_, number, line)
    else:
        raise ValueError("line before the first section")


def _seat(round_: BswRound, match: re.Match[str]) -> int:
    """The seat of a ``(i)name`` match; remembers the name, which must not change within a round."""
    seat = int(match.group(1))
    if seat > 3:
        raise ValueError(f"no seat {seat}")
    name = match.group(2).strip()
    if name and round_.names[seat] not in ("", name):
        raise ValueError(f"seat {seat} is {round_.names[seat]!r} in this round, not {name!r}")
    if name:
        round_.names[seat] = name
    return seat


def _parse_hand(round_: BswRound, hands: list[int], line: str) -> None:
    match = _HAND.match(line)
    if not match:
        raise ValueError("expected (seat)name cards")
    seat = _seat(round_, match)
    if hands[seat]:
        raise ValueError(f"seat {seat} listed twice")
    hands[seat] = parse_cards(match.group(3))


def _parse_push(round_: BswRound, line: str) -> None:
    bombs = _BOMBS.match(line)
    if bombs:
        round_.bomb_holders = tuple(int(seat) for seat in re.findall(_SEAT, bombs.group(1)))
        return
    match = _GIVE.match(line)
    if not match:
        raise ValueError("expected a push or BOMBE line")
    seat = _seat(round_, match)
    given = match.group(3)
    parts = given[:-1].split(" - ") if given.endswith("-") else []
    if len(parts) != 3 or round_.gifts[seat]:
        raise ValueError("a seat pushes once, three cards, each as 'name: card -'")
    for part in parts:
        name, _, card = part.rpartition(": ")
        mask = parse_cards(card.strip())
        if mask.bit_count() != 1:
            raise ValueError(f"one card per seat, not {card!r}")
        round_.gifts[seat].append((name.strip(), mask))


def _resolve_push(round_: BswRound) -> None:
    """Order each seat's pushed cards by their recipients' names: to seats i+1, i+2, i+3."""
    for seat, gifts in enumerate(round_.gifts):
        cards = [0, 0, 0]
        for name, mask in gifts:
            if not name or round_.names.count(name) != 1:
                raise ValueError(f"no single seat named {name!r}")
            offset = (round_.names.index(name) - seat) % 4
            if offset == 0 or cards[offset - 1]:
                raise ValueError(f"{name!r} cannot receive a card from seat {seat}")
            cards[offset - 1] = mask
        round_.push[seat] = (cards[0], cards[1], cards[2]) if gifts else None


def _parse_move(round_: BswRound, number: int, line: str) -> None:
    result = _RESULT.match(line)
    if result:
        round_.result = (int(result.group(1)), int(result.group(2)))
        round_.result_line = number
    else:
        round_.moves.append(_move(round_, number, line))


def _move(round_: BswRound, number: int, line: str) -> Move:
    """The move of a ``Rundenverlauf`` line other than the ``Ergebnis``."""
    if match := _PASS.match(line):
        return Move(number, "pass", _seat(round_, match))
    if match := _TICHU.match(line):
        return Move(number, "tichu", _seat(round_, match))
    if match := _DRAGON.match(line):
        return Move(number, "dragon", _last_player(round_), _seat(round_, match))
    if match := _WISH.match(line):
        if match.group(1) not in _VALUE_NAMES:
            raise ValueError(f"unknown wish {match.group(1)!r}")
        return Move(number, "wish", _last_player(round_), _VALUE_NAMES[match.group(1)])
    if match := _PLAY.match(line):
        return Move(number, "play", _seat(round_, match), parse_cards(match.group(3)))
    raise ValueError("unknown line")


def _last_player(round_: BswRound) -> int:
    for move in reversed(round_.moves):
        if move.kind == "play":
            return move.seat
    raise ValueError("no play before this line")


def import_round(data: BswRound, rules: RuleSet) -> Round:
    """Play a parsed round through the rules.

    :param data: The round as parsed.
    :param rules: The rule set.
    :returns: The finished round, whose events are the record's (records.md).
    :raises BswError: At the first line the rules do not allow, for a ``BOMBE`` line that
        does not name the seats holding a bomb, or for an ``Ergebnis`` that differs from
        our scoring (R7).
    """
    round_ = _dealt(data, rules)
    for index, move in enumerate(data.moves):
        try:
            _apply(round_, move)
            if round_.decision == Decision.WISH and not _is_wish(data.moves, index + 1):
                round_.make_wish(move.seat, 0)  # no Wunsch line: no wish (R5.1)
        except RuleViolation as error:
            raise BswError(move.line, error.rule, error.reason) from error
    if not round_.is_over:
        raise BswError(data.result_line, "R7", "the log ends the round before the rules do")
    points = round_.result().points
    if points != data.result:
        raise BswError(data.result_line, "R7", f"Ergebnis {data.result} but the rules give {points}")
    return round_


def _dealt(data: BswRound, rules: RuleSet) -> Round:
    """The round after the deal, the Grand Tichu calls and the push."""
    try:
        round_ = Round(rules, deal=[(first, start & ~first) for first, start in zip(data.first, data.start)])
        for seat in range(4):
            round_.decide_grand_tichu(seat, data.grand[seat])
        for seat, cards in enumerate(data.push):
            if cards is None:
                raise BswError(data.line, "R2.3", f"seat {seat} pushes no cards")
            round_.schupf(seat, cards)
    except RuleViolation as error:
        raise BswError(data.line, error.rule, error.reason) from error
    holders = tuple(seat for seat in range(4) if round_.holds_bomb(seat))
    if holders != data.bomb_holders:
        raise BswError(data.line, "format", f"BOMBE names seats {data.bomb_holders}, bombs are held by {holders}")
    return round_


def _is_wish(moves: list[Move], index: int) -> bool:
    return index < len(moves) and moves[index].kind == "wish"


def _apply(round_: Round, move: Move) -> None:
    """Apply one line of the ``Rundenverlauf`` (see the module docstring for the owner's pass)."""
    if move.kind == "pass":
        if not (round_.trick_closed and move.seat == round_.trick_owner):
            round_.pass_turn(move.seat)
        elif round_.decision == Decision.PLAY:
            round_.collect_trick()  # the owner takes the trick (R4.2): no bomb can land on it now
    elif move.kind == "play":
        if round_.decision == Decision.PLAY and move.seat == round_.turn:
            round_.play(move.seat, move.value)
        else:
            round_.bomb(move.seat, move.value)
    elif move.kind == "tichu":
        round_.announce(move.seat)
    elif move.kind == "wish":
        round_.make_wish(move.seat, move.value)
    else:
        round_.give_dragon(move.seat, move.value)


def import_game(text: str, record_id: str) -> GameRecord:
    """Import a log as a game record, under the rules it needs.

    Starting from the default rules, every violation of a rule that a BSW flag lifts
    (:data:`FLAG_FOR_RULE`) sets that flag and the import starts again, so the record
    names exactly the flags the game needs.

    :param text: The log's text.
    :param record_id: The record's id.
    :returns: The ``tichu-record/1`` record.
    :raises BswError: For a line that cannot be read or that no flag makes legal.
    """
    rounds = parse_log(text)
    rules, finished = import_rounds(rounds)
    return game_record(finished, rules, [(name, "human") for name in player_names(rounds)],
                       record_id=record_id, started_at=STARTED_AT)


def import_rounds(rounds: list[BswRound], rules: RuleSet | None = None) -> tuple[RuleSet, list[Round]]:
    """Play a game's rounds through the rules, setting the flags they need (:func:`import_game`).

    :param rounds: The parsed rounds.
    :param rules: (Optional) The rules to start from; the defaults if omitted.
    :returns: The rule set with the needed flags, and the finished rounds.
    :raises BswError: At the first line that no flag makes legal, with the round's index.
    """
    rules = rules or RuleSet()
    try:
        return rules, [_import_indexed(index, data, rules) for index, data in enumerate(rounds)]
    except BswError as error:
        flag = _flag_lifting(error, rules)
    return import_rounds(rounds, replace(rules, **{flag: True}))


def _flag_lifting(error: BswError, rules: RuleSet) -> str:
    """The flag, not yet set, that lifts the rule an error breaks; re-raises the error if none does."""
    flag = FLAG_FOR_RULE.get(error.rule)
    if flag is None or getattr(rules, flag):
        raise error
    return flag


def _import_indexed(index: int, data: BswRound, rules: RuleSet) -> Round:
    try:
        return import_round(data, rules)
    except BswError as error:
        raise BswError(error.line, error.rule, error.reason, index) from error


def import_file(path: str | Path) -> GameRecord:
    """Import one ``.tch`` file; the record's id is ``bsw-`` and the file name without suffix.

    :raises BswError: As :func:`import_game`.
    :raises OSError: If the file cannot be read.
    """
    path = Path(path)
    return import_game(decode(path.read_bytes()), f"bsw-{path.stem}")


def player_names(rounds: list[BswRound]) -> list[str]:
    """Per seat the players' names in the order they played, joined by ``" / "``."""
    names: list[list[str]] = [[] for _ in range(4)]
    for data in rounds:
        for seat, name in enumerate(data.names):
            if name and name not in names[seat]:
                names[seat].append(name)
    return [" / ".join(seat_names) for seat_names in names]


def flags_needed(rules: Mapping[str, object]) -> list[str]:
    """The names of a record's rule settings that differ from the defaults (rules.md).

    :param rules: A record's ``rules`` object.
    :returns: The names, in the order of :class:`RuleSet`'s fields.
    """
    default = RuleSet()
    return [item.name for item in fields(RuleSet)
            if item.name in rules and rules[item.name] != getattr(default, item.name)]
