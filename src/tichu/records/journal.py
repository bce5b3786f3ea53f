"""A running game as its deals and the actions accepted so far, and the game rebuilt from them.

A server writes down each game while it is played, so that a crash loses nothing: the
journal is a list of entries in the order they happened, each a small JSON object in the
vocabulary of records.md:

- ``{"deal": [8 labels per seat], "deal_rest": [6 labels per seat]}`` starts a round;
- ``{"seat": s, "grand_tichu": bool}`` is a seat's Grand Tichu decision (R2.1);
- ``{"seat": s, "push": [3 labels]}`` is a seat's push: to the right, partner, left (R2.3);
- every other entry is a record event (``play``, ``pass``, ``bomb``, ``tichu``, ``wish``,
  ``dragon_to``).

:class:`JournalCursor` turns the rounds' state into the entries not yet written (it compares
with what it wrote, so it never needs to know which event happened); :func:`rebuild` replays
entries through the rules (:class:`~tichu.core.round.Round`) into the finished rounds and the
one being played. Taking a closed trick is no entry: the next lead takes it (R4.2), and a
rebuilt round whose trick is closed has it taken when the game goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tichu.core.cards import format_mask, parse_mask
from tichu.core.errors import RuleViolation
from tichu.core.round import Round
from tichu.core.ruleset import RuleSet
from tichu.records.parts import JournalEntry
from tichu.records.record import event_action, event_json, json_list, json_text

#: One journal entry as read back (JSON nobody checked yet; :func:`replay_journal` checks it).
#: The entries written are :data:`~tichu.records.parts.JournalEntry`.
Entry = Mapping[str, object]


@dataclass
class JournalCursor:
    """What of a game has been written to its journal; gives the entries that are new.

    It follows one round at a time (by identity: a new round object is a new deal) and
    remembers which seats' Grand Tichu decisions and pushes, and how many events, it wrote.
    """

    _round: Round | None = None
    _grand: list[bool] = field(default_factory=lambda: [False] * 4)
    _pushed: list[bool] = field(default_factory=lambda: [False] * 4)
    _events: int = 0

    def new_entries(self, round_: Round | None) -> list[JournalEntry]:
        """The entries of ``round_`` not written yet (its deal too, for a round not seen before).

        :param round_: The round being played (or just finished), or ``None`` between games.
        :returns: The new entries, in the order they happened.
        """
        if round_ is None:
            return []
        entries: list[JournalEntry] = []
        if round_ is not self._round:
            self._round = round_
            self._grand = [False] * 4
            self._pushed = [False] * 4
            self._events = 0
            entries.append({"deal": [format_mask(mask) for mask in round_.first_deal],
                            "deal_rest": [format_mask(mask) for mask in round_.second_deal]})
        for seat in range(4):
            if round_.grand_decided[seat] and not self._grand[seat]:
                self._grand[seat] = True
                entries.append({"seat": seat, "grand_tichu": round_.announcements[seat] == 2})
        for seat, triple in enumerate(round_.given):
            if triple is not None and not self._pushed[seat]:
                self._pushed[seat] = True
                entries.append({"seat": seat, "push": [format_mask(card) for card in triple]})
        events = round_.events
        entries.extend(event_json(action) for action in events[self._events:])
        self._events = len(events)
        return entries

    def follow(self, rounds: Sequence[Round], unfinished: Round | None) -> None:
        """Take rebuilt rounds as written (a game that goes on after a restart)."""
        last = unfinished or (rounds[-1] if rounds else None)
        if last is not None:
            self._round = last
            self._grand = list(last.grand_decided)
            self._pushed = [triple is not None for triple in last.given]
            self._events = len(last.events)


class JournalFault(ValueError):
    """A journal that the rules do not replay (a bug, a lost write, a file edited by hand).

    :ivar index: The entry the rules refuse (the entries before it replay).
    """

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"entry {index}: {reason}")
        self.index = index


@dataclass
class Rebuilt:
    """A game replayed from its journal as far as the rules allow.

    :ivar finished: The finished rounds.
    :ivar unfinished: The round being played (``None`` if the last round is over or no round
        was dealt).
    :ivar fault: The first entry the rules refuse, or ``None`` if all of them replay.
    """

    finished: list[Round]
    unfinished: Round | None
    fault: JournalFault | None


def rebuild(rules: RuleSet, entries: Iterable[Entry]) -> tuple[list[Round], Round | None]:
    """Replay a game's journal through the rules.

    :param rules: The game's rules (the rounds get them without the seed, R8).
    :param entries: The journal's entries, in order.
    :returns: The finished rounds, and the round being played (``None`` if the last round
        is over or no round was dealt).
    :raises JournalFault: For an entry the rules refuse or that is malformed, with its index.
    """
    rebuilt = replay_journal(rules, entries)
    if rebuilt.fault is not None:
        raise rebuilt.fault
    return rebuilt.finished, rebuilt.unfinished


def replay_journal(rules: RuleSet, entries: Iterable[Entry]) -> Rebuilt:
    """Replay a game's journal through the rules up to its first fault (the entries after a
    fault are not looked at): what a game that cannot go on is recorded with.

    :param rules: The game's rules (the rounds get them without the seed, R8).
    :param entries: The journal's entries, in order.
    :returns: The rounds as far as they replay, and the fault if there is one.
    """
    finished: list[Round] = []
    current: Round | None = None
    round_rules = RuleSet.from_json(rules.to_json())
    for index, entry in enumerate(entries):
        try:
            if "deal" in entry:
                if current is not None:
                    return Rebuilt(finished, current,
                                   JournalFault(index, f"a deal before the round {len(finished)} ended"))
                deal = [(parse_mask(json_text(first)), parse_mask(json_text(rest)))
                        for first, rest in zip(json_list(entry["deal"]), json_list(entry["deal_rest"]), strict=False)]
                current = Round(round_rules, deal=deal)
            elif current is None:
                return Rebuilt(finished, current, JournalFault(index, "an action before a deal"))
            elif "grand_tichu" in entry:
                current.decide_grand_tichu(_seat(entry), entry["grand_tichu"] is True)
            elif "push" in entry:
                current.schupf(_seat(entry), [parse_mask(json_text(label)) for label in json_list(entry["push"])])
            else:
                current.apply(event_action(entry))
        except RuleViolation as error:
            return Rebuilt(finished, current, JournalFault(index, f"{error.rule}: {error.reason}"))
        except (KeyError, TypeError, ValueError, IndexError) as error:
            return Rebuilt(finished, current, JournalFault(index, f"malformed entry {entry!r} ({error!r})"))
        if current is not None and current.is_over:
            finished.append(current)
            current = None
    return Rebuilt(finished, current, None)


def _seat(entry: Entry) -> int:
    """An entry's seat, checked.

    :raises TypeError: For a seat that is no number.
    """
    seat = entry["seat"]
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise TypeError(f"seat {seat!r} is no number")
    return seat
