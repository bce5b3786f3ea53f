"""Game records (``tichu-record/1``, records.md): build, write, read, and replay through the rules."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tichu.core import errors
from tichu.core.cards import format_mask, parse_mask, points_of
from tichu.core.errors import RuleViolation
from tichu.core.game import is_game_over
from tichu.core.round import ANNOUNCE_GRAND, Action, ActionKind, Phase, Round
from tichu.core.ruleset import RuleSet
from tichu.core.seats import winning_team
from tichu.records.event_text import events_text, play_labels
from tichu.records.parts import GameRecord, JsonObject, RecordEvent, RoundRecord

FORMAT = "tichu-record/1"

_EVENT_KEYS = {"tichu": ActionKind.TICHU, "play": ActionKind.PLAY, "pass": ActionKind.PASS,
               "bomb": ActionKind.BOMB, "wish": ActionKind.WISH, "dragon_to": ActionKind.DRAGON}


def now_iso() -> str:
    """The current UTC time as records.md writes it (``2026-11-22T10:00:00Z``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def event_json(action: Action) -> RecordEvent:
    """One record event from a round's action."""
    kind, seat = action.kind, action.seat
    if kind == ActionKind.TICHU:
        return {"seat": seat, "tichu": True}
    if kind == ActionKind.PLAY:
        return {"seat": seat, "play": play_labels(action.number())}
    if kind == ActionKind.PASS:
        return {"seat": seat, "pass": True}
    if kind == ActionKind.BOMB:
        return {"seat": seat, "bomb": format_mask(action.number())}
    if kind == ActionKind.WISH:
        return {"seat": seat, "wish": action.number()}
    if kind == ActionKind.DRAGON:
        return {"seat": seat, "dragon_to": action.number()}
    raise ValueError(f"{kind!r} is no record event")


def _events_json(events: Iterable[Action]) -> list[RecordEvent]:
    """A round's events as the record writes them (:func:`event_json`), the passes and plays,
    nearly all of them, without a call each (the Arena writes every event of every game)."""
    found: list[RecordEvent] = []
    append = found.append
    passing, playing = ActionKind.PASS, ActionKind.PLAY
    for action in events:
        kind = action[0]
        if kind == passing:
            append({"seat": action[1], "pass": True})
        elif kind == playing:
            append({"seat": action[1], "play": play_labels(action.number())})
        else:
            append(event_json(action))
    return found


def round_json(round_: Round, *, events: bool = True) -> RoundRecord:
    """A round as the record's round object; an unfinished round (an aborted game) has only
    what happened so far: deal, calls, the pushes made (``null`` for a seat that has not
    pushed) and the events, without the summary.

    :param events: With the events (else ``events`` is empty: :func:`game_record_line` fills it in).
    """
    data: RoundRecord = {
        "deal": [format_mask(mask) for mask in round_.first_deal],
        "deal_rest": [format_mask(mask) for mask in round_.second_deal],
        "grand_tichu": [call == ANNOUNCE_GRAND for call in round_.announcements],
        "push": [None if triple is None else [play_labels(card) for card in triple] for triple in round_.given],
        "events": _events_json(round_.events) if events else [],
    }
    if round_.is_over:
        result = round_.result()
        data["out_order"], data["double_victory"] = list(result.out_order), result.double_victory
        data["card_points"], data["bonus"], data["score"] = list(result.card_points), list(result.bonus), \
            list(result.points)
    return data


def game_record(rounds: Sequence[Round], rules: RuleSet, players: Sequence[tuple[str, str]], *,
                record_id: str, seed: int | None = None, started_at: str | None = None,
                events: bool = True) -> GameRecord:
    """Build a game record.

    :param rounds: The game's finished rounds.
    :param rules: The rule set.
    :param players: ``(name, kind)`` per seat.
    :param record_id: A unique id.
    :param seed: (Optional) The seed the game was dealt from, from whoever ran it (the Arena,
        the server); ``None`` if it had none.
    :param started_at: (Optional) Start time; now if omitted.
    :param events: With the rounds' events (see :func:`round_json`).
    :returns: The record as a JSON-ready dict.
    """
    total = [0, 0]
    for round_ in rounds:
        points = round_.result().points
        total = [total[0] + points[0], total[1] + points[1]]
    return {
        "format": FORMAT,
        "id": record_id,
        "started_at": started_at or now_iso(),
        "seed": seed,
        "rules": rules.to_json(),
        "players": [{"name": name, "kind": kind} for name, kind in players],
        "rounds": [round_json(round_, events=events) for round_ in rounds],
        "score": total,
        "winner": winning_team(total),
    }


def record_line(record: Mapping[str, object]) -> str:
    """A record as one line of a JSON Lines file (records.md), without the newline."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def game_record_line(rounds: Sequence[Round], rules: RuleSet, players: Sequence[tuple[str, str]], *,
                     record_id: str, seed: int | None = None, started_at: str | None = None) -> str:
    """A game record as the line :func:`record_line` writes of :func:`game_record`, the same
    text, made faster: the events, nearly all of a record, are written as text
    (:func:`~tichu.records.event_text.events_text`), and only the rest goes through the JSON
    encoder (the Arena writes a record of every game it plays).

    :param rounds: The game's finished rounds.
    :param rules: The rule set.
    :param players: ``(name, kind)`` per seat.
    :param record_id: A unique id.
    :param seed: (Optional) The seed the game was dealt from (see :func:`game_record`).
    :param started_at: (Optional) Start time; now if omitted.
    """
    skeleton = record_line(game_record(rounds, rules, players, record_id=record_id, seed=seed,
                                       started_at=started_at, events=False))
    parts = skeleton.split(_NO_EVENTS)  # a string value escapes its quotes: only the rounds' keys match
    assert len(parts) == len(rounds) + 1
    pieces = [parts[0]]
    for round_, rest in zip(rounds, parts[1:]):
        pieces.append('"events":[' + events_text(round_.events) + "]")
        pieces.append(rest)
    return "".join(pieces)


_NO_EVENTS = '"events":[]'


def ended_early(record: GameRecord, unfinished: Round | None) -> GameRecord:
    """Mark a game's record as ended before the game (a server's extension, docs/server.md):
    ``winner`` null, ``aborted`` true, and the unfinished round as far as it went.

    :returns: The record, changed in place.
    """
    record["winner"] = None
    record["aborted"] = True
    if unfinished is not None and not unfinished.is_over:
        record["unfinished_round"] = round_json(unfinished)
    return record


class RecordWriter:
    """Writes records to a JSON Lines file one at a time (a context manager).

    :ivar count: Records written so far.
    """

    def __init__(self, path: str | Path, *, append: bool = False) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._file = open(path, "a" if append else "w", encoding="utf-8")
        self.count = 0

    def write(self, record: Mapping[str, object]) -> None:
        """Write one record as one line."""
        self.write_line(record_line(record))

    def write_line(self, line: str) -> None:
        """Write one record given as its line (:func:`record_line`, :func:`game_record_line`)."""
        self._file.write(line + "\n")
        self.count += 1

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def write_records(path: str | Path, records: Iterable[Mapping[str, object]], *, append: bool = False) -> int:
    """Write records as JSON Lines.

    :returns: The number written.
    """
    with RecordWriter(path, append=append) as writer:
        for record in records:
            writer.write(record)
    return writer.count


def read_records(path: str | Path, on_unreadable: Callable[[int, str], None] | None = None
                 ) -> Iterator[JsonObject]:
    """Read records from a JSON Lines file (blank lines are skipped); each is JSON that
    nobody checked yet (:func:`replay` checks it against the rules).

    :param path: The file.
    :param on_unreadable: (Optional) Told of each line that is no record, with its number and
        why (a line torn by a power cut, say), which is then skipped; without it such a line
        stops the reading with an error.
    :raises ValueError: For a line that is not a JSON object, unless ``on_unreadable`` is given.
    """
    for _, record in read_numbered_records(path, on_unreadable):
        yield record


def read_numbered_records(path: str | Path, on_unreadable: Callable[[int, str], None] | None = None
                          ) -> Iterator[tuple[int, JsonObject]]:
    """Like :func:`read_records`, each record with the number of its line (from 1)."""
    with open(path, encoding="utf-8", errors="replace") as file:
        for number, line in enumerate(file, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as error:
                if on_unreadable is None:
                    raise ValueError(f"{path}:{number}: not JSON ({error})") from error
                on_unreadable(number, f"not JSON ({error})")
                continue
            if not isinstance(record, dict):
                if on_unreadable is None:
                    raise ValueError(f"{path}:{number}: not a record object")
                on_unreadable(number, "not a record object")
                continue
            yield number, record


@dataclass(frozen=True)
class ReplayFault:
    """The first thing in a record that the rules do not allow.

    :ivar round_index: The round, from 0.
    :ivar event_index: The event within the round, or ``None`` for the deal, the calls
        before play, the push, or the round's summary.
    :ivar rule: The rule broken (rules.md), or ``"records"`` for a malformed record.
    :ivar reason: A sentence for people.
    """

    round_index: int | None
    event_index: int | None
    rule: str
    reason: str

    def __str__(self) -> str:
        where = "record" if self.round_index is None else f"round {self.round_index}"
        if self.event_index is not None:
            where += f", event {self.event_index}"
        return f"{where}: {self.rule}: {self.reason}"


class ReplayObserver:
    """Told of each stage while :func:`replay` walks a record (the replay viewer's steps,
    :mod:`tichu.records.steps`); every method does nothing here. ``round_`` is the live
    round: an observer reads it and never changes it."""

    def dealt(self, index: int, round_: Round) -> None:
        """Round ``index`` is dealt (8 cards each, before the Grand Tichu decisions)."""

    def decided(self, index: int, round_: Round) -> None:
        """Every seat decided on Grand Tichu; the rest of the cards are dealt."""

    def pushed(self, index: int, round_: Round) -> None:
        """Every seat pushed its three cards and received three."""

    def before_event(self, index: int, event_index: int, round_: Round, action: Action) -> None:
        """An event (records.md) is about to be applied."""

    def after_event(self, index: int, event_index: int, round_: Round, action: Action) -> None:
        """An event was applied."""

    def round_over(self, index: int, round_: Round, total: list[int]) -> None:
        """The round ended and its summary agrees; ``total`` is the game's score after it."""


def replay(record: Mapping[str, object], observer: ReplayObserver | None = None) -> ReplayFault | None:
    """Run a record back through the rules.

    :param record: A ``tichu-record/1`` object.
    :param observer: (Optional) Told of every stage of the walk (:class:`ReplayObserver`).
    :returns: The first violation, or ``None`` if every round replays and every score agrees.
    """
    watch = observer or ReplayObserver()
    try:
        if record.get("format") != FORMAT:
            return ReplayFault(None, None, "records", f"unknown format {record.get('format')!r}")
        rules = rules_of(record)
        total = [0, 0]
        for index, round_data in enumerate(json_list(record["rounds"])):
            if is_game_over(total, rules.target_score):
                return ReplayFault(index, None, "R7.4", "a round after the game had ended")
            found = replay_round(rules, index, json_object(round_data), watch)
            if isinstance(found, ReplayFault):
                return found
            points = found.result().points
            total = [total[0] + points[0], total[1] + points[1]]
            watch.round_over(index, found, total)
        if record["score"] != total:
            return ReplayFault(None, None, "R7.3", f"score {record['score']} but the rounds add up to {total}")
        if not is_game_over(total, rules.target_score):
            return ReplayFault(None, None, "R7.4", "the game ended before a team won")
        winner = winning_team(total)
        if record["winner"] != winner:
            return ReplayFault(None, None, "R7.4", f"winner {record['winner']} but {winner} has more points")
    except (AttributeError, KeyError, TypeError, ValueError, IndexError) as error:
        return ReplayFault(None, None, "records", f"malformed record: {error!r}")
    return None


def replay_round(rules: RuleSet, index: int, data: Mapping[str, object], observer: ReplayObserver | None = None, *,
                 partial: bool = False) -> ReplayFault | Round:
    """Replay one round of a record.

    :param rules: The game's rules.
    :param index: The round's index (for the fault and the observer).
    :param data: The record's round object.
    :param observer: (Optional) Told of every stage (:class:`ReplayObserver`).
    :param partial: Replay an aborted game's ``unfinished_round`` (docs/server.md): a seat that
        has not pushed (``null``) is skipped, and the round may end before the rules end it.
    :returns: The round (finished, or as far as a partial one went), or the first fault.
    :raises KeyError: (Or ``TypeError``, ``ValueError``...) for a malformed round object.
    """
    watch = observer or ReplayObserver()
    try:
        deal = [(parse_mask(json_text(first)), parse_mask(json_text(rest)))
                for first, rest in zip(json_list(data["deal"]), json_list(data["deal_rest"]), strict=False)]
        round_ = Round(rules, deal=deal)
        watch.dealt(index, round_)
        for seat, called in enumerate(json_list(data["grand_tichu"])):
            round_.decide_grand_tichu(seat, bool(called))
        watch.decided(index, round_)
        for seat, labels in enumerate(json_list(data["push"])):
            if labels is None and partial:
                continue
            round_.schupf(seat, [parse_mask(json_text(label)) for label in json_list(labels)])
        if round_.phase == Phase.PLAYING:
            watch.pushed(index, round_)
    except RuleViolation as error:
        return ReplayFault(index, None, error.rule, error.reason)
    for event_index, event in enumerate(json_list(data["events"])):
        try:
            action = event_action(json_object(event))
            watch.before_event(index, event_index, round_, action)
            round_.apply(action)
        except RuleViolation as error:
            return ReplayFault(index, event_index, error.rule, error.reason)
        watch.after_event(index, event_index, round_, action)
    if partial:
        return round_
    if not round_.is_over:
        return ReplayFault(index, None, "R7", "the events end before the round does")
    result = round_.result()
    checks = (("out_order", list(result.out_order)), ("double_victory", result.double_victory),
              ("card_points", list(result.card_points)), ("bonus", list(result.bonus)),
              ("score", list(result.points)))
    for key, expected in checks:
        if data[key] != expected:
            return ReplayFault(index, None, "R7", f"{key} is {data[key]} but the rules give {expected}")
    return round_


def event_action(event: Mapping[str, object]) -> Action:
    """The round's action of one record event (the inverse of :func:`event_json`).

    :raises RuleViolation: For an event without exactly one known key (rule ``"records"``), or
        whose seat or value is not of its kind's type.
    """
    seat = event["seat"]
    keys = [key for key in event if key != "seat"]
    if len(keys) != 1 or keys[0] not in _EVENT_KEYS or not isinstance(seat, int) or isinstance(seat, bool):
        raise RuleViolation(errors.Violation.ACTION_NOT_ALLOWED, "records", f"unknown event {event!r}")
    key = keys[0]
    kind = _EVENT_KEYS[key]
    value = event[key]
    if kind in (ActionKind.PLAY, ActionKind.BOMB):
        return Action(kind, seat, parse_mask(json_text(value)))
    if kind in (ActionKind.TICHU, ActionKind.PASS):
        return Action(kind, seat)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleViolation(errors.Violation.ACTION_NOT_ALLOWED, "records", f"{key} is no number in {event!r}")
    return Action(kind, seat, value)


def rules_of(record: Mapping[str, object]) -> RuleSet:
    """The rule set of a record: its ``rules`` object (absent: the defaults). The record's
    ``seed`` is checked but belongs to no rule set (a replay deals from the record).

    :raises TypeError: For a ``rules`` that is no object or a ``seed`` that is no number.
    """
    rules, seed = record.get("rules") or {}, record.get("seed")
    if not isinstance(rules, dict) or not (seed is None or _is_int(seed)):
        raise TypeError("rules must be an object and seed a number")
    return RuleSet.from_json(rules)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def json_list(value: object) -> list[object]:
    """A record's list, checked.

    :raises TypeError: For a value that is no list.
    """
    if not isinstance(value, list):
        raise TypeError(f"not a list: {value!r:.80}")
    return value


def json_object(value: object) -> Mapping[str, object]:
    """A record's object, checked.

    :raises TypeError: For a value that is no object.
    """
    if not isinstance(value, dict):
        raise TypeError(f"not an object: {value!r:.80}")
    return value


def json_text(value: object) -> str:
    """A record's string (card labels), checked.

    :raises TypeError: For a value that is no string.
    """
    if not isinstance(value, str):
        raise TypeError(f"not a string: {value!r:.80}")
    return value


def unfinished_points(record: Mapping[str, object]) -> list[int] | None:
    """The card points each team (``[team 20, team 31]``) had taken in an aborted game's
    ``unfinished_round`` (docs/server.md) when it ended: the score of the round it ended in, as
    far as it is known (issue 35, finding 4: a game ended in its first round is not "0 : 0").

    :returns: The points, or ``None`` for a record without an unfinished round, or with one that
        does not replay.
    """
    unfinished, rounds = record.get("unfinished_round"), record.get("rounds")
    if not isinstance(unfinished, dict):
        return None
    try:
        round_ = replay_round(rules_of(record), len(rounds) if isinstance(rounds, list) else 0, unfinished,
                              partial=True)
    except (AttributeError, KeyError, TypeError, ValueError, IndexError):
        return None
    if isinstance(round_, ReplayFault):
        return None
    won = [points_of(cards) for cards in round_.won]
    return [won[0] + won[2], won[1] + won[3]]
