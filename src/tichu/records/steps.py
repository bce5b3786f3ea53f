"""A game record replayed step by step through the rules, for the replay viewer.

:func:`record_steps` walks a record with :func:`tichu.records.record.replay` (one walk for
the checker and the viewer) and turns every stage into a JSON-ready **step**: the deal, the
rest of the deal with the Grand Tichu calls, the push, each Tichu call, play, pass, bomb,
wish and Dragon gift, each trick taken, and each round's end with its scores. Each step
carries the whole open position after it (all four hands, the trick, the wish, the calls,
who is out, the points), so a viewer can jump to any step without replaying anything:
the rules live here, in Python, once.

A step (a dict, cards as record labels, docs/server.md):

``kind``
    ``deal``, ``grand_tichu``, ``push``, ``tichu``, ``play``, ``pass``, ``bomb``, ``wish``,
    ``dragon``, ``trick`` (the open trick goes to ``seat``), ``round_end``.
``round``, ``trick``
    The round (from 0) and the trick of the round (from 1; 0 before the first play).
``seat``
    Who acts (``null`` for the deal and the round's end).
``cards``, ``combo``
    The cards played, bombed or taken; ``combo`` names a play's combination (``single``,
    ``pair``, ``triple``, ``stair``, ``fullhouse``, ``street``, ``bomb``, ``dog``) and
    ``rank`` its rank (R3.8; a single Phoenix's is 1).
``value``
    The wished value, the Dragon's receiver, or for ``grand_tichu`` the seats that called.
``points``
    On ``trick`` and ``dragon``: the card points of the cards taken.
``push``
    On ``push``: per seat the three cards given (to right, partner, left).
``hands``, ``trick_turns``, ``trick_owner``, ``turn``
    The four hands after the step, the open trick's plays (``{"seat", "cards"}``), its
    owner, and whose turn it is.
``wish``, ``wish_open``, ``calls``, ``out_order``, ``won_points``, ``tricks_won``
    The wish and whether it is open, per seat 0/1/2 (none, Tichu, Grand Tichu), the seats
    out, per seat the card points and tricks taken so far.
``score``
    The game's ``[team 20, team 31]`` score before this round, or after it on ``round_end``;
    a ``round_end`` also has ``round_score``, ``card_points``, ``bonus``, ``double_victory``.
``names``
    Who held each seat at this step: the record's ``players``, changed by its ``seat_changes``
    (docs/server.md: a person who left, the agent that finished for them, a person who joined).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Unpack

from tichu.core.cards import DOG, format_mask, points_of
from tichu.core.combos import CombinationType, classify_mask
from tichu.core.round import Action, ActionKind, Round
from tichu.records.parts import RecordSummary, ReplayDocument, Step, StepFields
from tichu.records.record import ReplayFault, ReplayObserver, replay, replay_round, rules_of

#: Told of each step as :func:`record_steps` makes it: its index, the step, and the round as it
#: stands after the step (the live round, or a copy for a trick taken: read it, never change it).
StepHook = Callable[[int, Step, Round], None]

#: Steps one record may make at most (a record file is a client's upload; a real game has a
#: few thousand).
MAX_STEPS = 20_000

_KINDS = {ActionKind.TICHU: "tichu", ActionKind.PLAY: "play", ActionKind.PASS: "pass",
          ActionKind.BOMB: "bomb", ActionKind.WISH: "wish", ActionKind.DRAGON: "dragon"}


class TooManySteps(Exception):
    """A record with more steps than :data:`MAX_STEPS`."""


def labels(mask: int) -> list[str]:
    """The record labels of a card mask, highest first (``[]`` for none)."""
    text = format_mask(mask)
    return text.split(" ") if text else []


def combo_of(mask: int) -> tuple[str | None, int]:
    """The name of the combination these cards make (``dog`` for the Dog; ``None`` for no
    combination) and its rank (R3.8: the value of a pair, the top of a street...)."""
    if mask == DOG:
        return "dog", 0
    play = classify_mask(mask)
    if play is None:
        return None, 0
    return CombinationType(play[0]).name.lower(), play[2]


class _Steps(ReplayObserver):
    """Collects the steps while :func:`replay` walks a record."""

    def __init__(self, max_steps: int, names: list[str], changes: list[tuple[int, int, int, str]],
                 on_step: StepHook | None = None) -> None:
        self.steps: list[Step] = []
        self.on_step = on_step
        self.max_steps = max_steps
        self.score = [0, 0]
        self.trick = 0
        self.names = names
        self.changes = changes  # (round, event, seat, name) in order
        self.event = 0  # how many events of the round came before the next step

    def _names(self, round_index: int) -> list[str]:
        names = list(self.names)
        for change_round, change_event, seat, name in self.changes:
            if (change_round, change_event) <= (round_index, self.event):
                names[seat] = name
        return names

    def _add(self, kind: str, round_index: int, round_: Round, seat: int | None = None,
             **fields: Unpack[StepFields]) -> None:
        if len(self.steps) >= self.max_steps:
            raise TooManySteps(f"more than {self.max_steps} steps")
        self.steps.append({
            "kind": kind, "round": round_index, "trick": self.trick, "seat": seat, **fields,
            "hands": [labels(hand) for hand in round_.hands],
            "trick_turns": [{"seat": owner, "cards": labels(play.cards)} for owner, play in round_.trick_turns],
            "trick_owner": round_.trick_owner if round_.trick_turns else None,
            "turn": round_.decision_seat,
            "wish": round_.wish_value, "wish_open": round_.wish_open,
            "calls": list(round_.announcements), "out_order": list(round_.out_order),
            "won_points": [points_of(cards) for cards in round_.won],
            "tricks_won": list(round_.tricks_won),
            "score": list(self.score), "names": self._names(round_index),
        })
        if self.on_step is not None:
            self.on_step(len(self.steps) - 1, self.steps[-1], round_)

    def dealt(self, index: int, round_: Round) -> None:
        self.trick = 0
        self.event = 0
        self._add("deal", index, round_)

    def decided(self, index: int, round_: Round) -> None:
        called = [seat for seat, call in enumerate(round_.announcements) if call]
        self._add("grand_tichu", index, round_, value=called)

    def pushed(self, index: int, round_: Round) -> None:
        given = [[] if triple is None else [labels(card)[0] for card in triple] for triple in round_.given]
        self._add("push", index, round_, push=given)

    def before_event(self, index: int, event_index: int, round_: Round, action: Action) -> None:
        self.event = event_index
        if action.kind == ActionKind.PLAY and round_.trick_closed and round_.trick_owner is not None:
            # The next lead takes the closed trick first (Round.apply_legal_play): show it taken.
            taken = round_.clone()
            cards = taken.trick_cards
            receiver = taken.collect_trick().winner
            self._add("trick", index, taken, receiver, cards=labels(cards), points=points_of(cards))

    def after_event(self, index: int, event_index: int, round_: Round, action: Action) -> None:
        kind, seat, value = action
        if kind in (ActionKind.PLAY, ActionKind.BOMB):
            self.trick = sum(round_.tricks_won) + 1
            combo, rank = combo_of(action.number())
            self._add(_KINDS[kind], index, round_, seat, cards=labels(action.number()), combo=combo, rank=rank)
        elif kind == ActionKind.DRAGON:
            cards = round_.last_trick[1] if round_.last_trick else 0
            self._add("dragon", index, round_, seat, value=action.number(), cards=labels(cards),
                      points=points_of(cards))
        elif kind == ActionKind.WISH:
            self._add("wish", index, round_, seat, value=action.number())
        else:
            self._add(_KINDS[kind], index, round_, seat)

    def round_over(self, index: int, round_: Round, total: list[int]) -> None:
        self.event = len(round_.events)
        result = round_.result()
        self.score = list(total)
        self._add("round_end", index, round_, round_score=list(result.points),
                  card_points=list(result.card_points), bonus=list(result.bonus),
                  double_victory=result.double_victory, tichu_success=list(result.tichu_success))


def record_steps(record: Mapping[str, object], max_steps: int = MAX_STEPS,
                 on_step: StepHook | None = None) -> tuple[list[Step], ReplayFault | None]:
    """Replay a record through the rules, step by step.

    :param record: A ``tichu-record/1`` object.
    :param max_steps: (Optional) The most steps to make; more is a fault (rule ``"records"``).
    :param on_step: (Optional) Told of each step as it is made, with the round as it stands
        after it (:data:`StepHook`).
    :returns: The steps (up to the first violation), and the violation or ``None``. An
        aborted game (``aborted``, docs/server.md) has the steps of its ``unfinished_round``
        too, as far as it went; its fault is then rule R7.4 in that round.
    """
    collector = _Steps(max_steps, *_seats(record), on_step=on_step)
    try:
        fault = replay(record, collector)
        unfinished = record.get("unfinished_round")
        if (fault is not None and fault.rule == "R7.4" and fault.round_index is None and record.get("aborted")
                and isinstance(unfinished, dict)):
            fault = _unfinished_steps(record, unfinished, collector)
    except TooManySteps as error:
        fault = ReplayFault(None, None, "records", str(error))
    return collector.steps, fault


def _seats(record: Mapping[str, object]) -> tuple[list[str], list[tuple[int, int, int, str]]]:
    """The names of the record's ``players`` and its valid ``seat_changes`` as ``(round, event,
    seat, name)`` (a malformed entry is left out: the replay shows the record, not its flaws)."""
    players = record.get("players")
    names = [str(player.get("name", "")) if isinstance(player, dict) else ""
             for player in (players if isinstance(players, list) else [])][:4]
    names += [""] * (4 - len(names))
    changes = []
    raw = record.get("seat_changes")
    for change in raw if isinstance(raw, list) else []:
        if not isinstance(change, dict):
            continue
        seat, round_index, event = change.get("seat"), change.get("round"), change.get("event")
        if isinstance(seat, int) and isinstance(round_index, int) and isinstance(event, int) and 0 <= seat < 4:
            changes.append((round_index, event, seat, str(change.get("name", ""))))
    return names, changes


def _unfinished_steps(record: Mapping[str, object], unfinished: Mapping[str, object],
                      collector: _Steps) -> ReplayFault:
    """The steps of an aborted game's unfinished round (docs/server.md), as far as it went."""
    rounds = record.get("rounds")
    index = len(rounds) if isinstance(rounds, list) else 0
    try:
        rules = rules_of(record)
        found = replay_round(rules, index, unfinished, collector, partial=True)
    except (AttributeError, KeyError, TypeError, ValueError, IndexError) as error:
        return ReplayFault(index, None, "records", f"malformed unfinished round: {error!r}")
    if isinstance(found, ReplayFault):
        return found
    return ReplayFault(index, None, "R7.4", "the game ended early, in this round")


def record_summary(record: Mapping[str, object]) -> RecordSummary:
    """What a list of records shows of one: id, start, players, score, winner, rounds."""
    players = record.get("players")
    names = [player.get("name") if isinstance(player, dict) else None
             for player in (players if isinstance(players, list) else [])]
    rounds = record.get("rounds")
    return {"id": record.get("id"), "started_at": record.get("started_at"), "players": names,
            "score": record.get("score"), "winner": record.get("winner"),
            "rounds": len(rounds) if isinstance(rounds, list) else None}


def replay_document(record: Mapping[str, object], max_steps: int = MAX_STEPS) -> ReplayDocument:
    """The replay viewer's document of a record: its summary, players, rules, steps and fault.

    :returns: ``{"id", "started_at", "players", "score", "winner", "rounds", "player_kinds",
        "rules", "aborted", "ended_by", "steps", "fault"}`` (``fault``: ``null`` or ``{"round",
        "event", "rule", "reason"}``; ``ended_by``: the record's, or ``null``).
    """
    steps, fault = record_steps(record, max_steps)
    players = record.get("players")
    kinds = [player.get("kind") if isinstance(player, dict) else None
             for player in (players if isinstance(players, list) else [])]
    rules, ended_by = record.get("rules"), record.get("ended_by")
    return {
        **record_summary(record), "player_kinds": kinds, "rules": rules if isinstance(rules, dict) else {},
        "aborted": bool(record.get("aborted")), "steps": steps,
        "ended_by": ended_by if isinstance(ended_by, dict) else None,
        "fault": None if fault is None else {"round": fault.round_index, "event": fault.event_index,
                                              "rule": fault.rule, "reason": fault.reason},
    }
