"""The parts of a game record (``tichu-record/1``, records.md), of the server's journal of a
running game and of the replay viewer's steps, as ``TypedDict``\\ s.

The builders (:mod:`tichu.records.record`, :mod:`tichu.records.journal`,
:mod:`tichu.records.steps`) return these types. A record that is *read* (a file, an upload,
the store) is JSON nobody checked yet: the readers take it as :data:`JsonObject` (or any
``Mapping``) and check each value as they use it, refusing a malformed one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict, Union

#: A JSON value of whatever kind.
JsonValue = Union[dict[str, "JsonValue"], list["JsonValue"], str, int, float, bool, None]  # noqa: UP007
#: A JSON object as read, before its values are checked.
JsonObject = dict[str, JsonValue]


class TichuEvent(TypedDict):
    """``{"seat", "tichu": true}``: a Tichu call (R6.1)."""

    seat: int
    tichu: bool


class PlayEvent(TypedDict):
    """``{"seat", "play": "labels"}``: a play at one's turn."""

    seat: int
    play: str


#: ``{"seat", "pass": true}`` (``pass`` is a Python keyword, hence the functional form).
PassEvent = TypedDict("PassEvent", {"seat": int, "pass": bool})


class BombEvent(TypedDict):
    """``{"seat", "bomb": "labels"}``: a bomb out of turn (R4.3)."""

    seat: int
    bomb: str


class WishEvent(TypedDict):
    """``{"seat", "wish": value}`` (R5.1)."""

    seat: int
    wish: int


class DragonEvent(TypedDict):
    """``{"seat", "dragon_to": seat}`` (R4.5)."""

    seat: int
    dragon_to: int


#: One event of a round.
RecordEvent = TichuEvent | PlayEvent | PassEvent | BombEvent | WishEvent | DragonEvent


class RoundRecord(TypedDict):
    """A round: deal, calls, pushes, events and (when it ended) its summary."""

    deal: list[str]
    deal_rest: list[str]
    grand_tichu: list[bool]
    push: list[list[str] | None]
    events: list[RecordEvent]
    out_order: NotRequired[list[int]]
    double_victory: NotRequired[bool]
    card_points: NotRequired[list[int]]
    bonus: NotRequired[list[int]]
    score: NotRequired[list[int]]


class PlayerEntry(TypedDict):
    """A seat's player: name and kind (``human`` or an agent's kind)."""

    name: str
    kind: str


class SeatChange(TypedDict):
    """A seat's new occupant during a game (docs/server.md): from this round's event on."""

    seat: int
    round: int
    event: int
    name: str
    kind: str
    reason: str


class EndedBy(TypedDict):
    """Whose leaving ended a game early (docs/server.md)."""

    seat: int
    name: str


class GameRecord(TypedDict):
    """A game record; the last keys are the server's extensions (docs/server.md)."""

    format: str
    id: str
    started_at: str
    seed: int | None
    #: The rule settings (records.md); open, as a reader ignores keys it does not know.
    rules: dict[str, JsonValue]
    players: list[PlayerEntry]
    rounds: list[RoundRecord]
    score: list[int]
    winner: int | None
    table: NotRequired[str]
    aborted: NotRequired[bool]
    unfinished_round: NotRequired[RoundRecord]
    seat_changes: NotRequired[list[SeatChange]]
    ended_by: NotRequired[EndedBy]


class DealEntry(TypedDict):
    """A journal's deal: per seat the first 8 and the last 6 cards."""

    deal: list[str]
    deal_rest: list[str]


class GrandTichuEntry(TypedDict):
    """A journal's Grand Tichu decision of one seat."""

    seat: int
    grand_tichu: bool


class PushEntry(TypedDict):
    """A journal's push of one seat (to right, partner, left)."""

    seat: int
    push: list[str]


#: One entry of a running game's journal: a deal, a decision before play, or a round's event.
JournalEntry = DealEntry | GrandTichuEntry | PushEntry | RecordEvent


class TrickTurn(TypedDict):
    """A play of the open trick in a step."""

    seat: int
    cards: list[str]


class StepFields(TypedDict, total=False):
    """The fields of a step that depend on its kind."""

    value: int | list[int]
    push: list[list[str]]
    cards: list[str]
    points: int
    combo: str | None
    rank: int
    round_score: list[int]
    card_points: list[int]
    bonus: list[int]
    double_victory: bool
    tichu_success: list[bool | None]


class Step(TypedDict):
    """One step of the replay viewer: what happened (``kind``, its own fields) and the table after it."""

    kind: str
    round: int
    trick: int
    seat: int | None
    hands: list[list[str]]
    trick_turns: list[TrickTurn]
    trick_owner: int | None
    turn: int | None
    wish: int
    wish_open: bool
    calls: list[int]
    out_order: list[int]
    won_points: list[int]
    tricks_won: list[int]
    score: list[int]
    names: list[str]
    value: NotRequired[int | list[int]]
    push: NotRequired[list[list[str]]]
    cards: NotRequired[list[str]]
    points: NotRequired[int]
    combo: NotRequired[str | None]
    rank: NotRequired[int]
    round_score: NotRequired[list[int]]
    card_points: NotRequired[list[int]]
    bonus: NotRequired[list[int]]
    double_victory: NotRequired[bool]
    tichu_success: NotRequired[list[bool | None]]


class RecordSummary(TypedDict):
    """What a list of records shows of one: values as the record has them (an uploaded record's
    are not checked: any JSON)."""

    id: object
    started_at: object
    players: list[object]
    score: object
    winner: object
    rounds: int | None


class Fault(TypedDict):
    """A replay's first fault."""

    round: int | None
    event: int | None
    rule: str
    reason: str


class ReplayDocument(RecordSummary):
    """The replay viewer's document of a record."""

    player_kinds: list[object]
    rules: Mapping[str, object]
    aborted: bool
    steps: list[Step]
    ended_by: Mapping[str, object] | None
    fault: Fault | None


class AnalysisOption(TypedDict):
    """One option of a judged decision (``tichu-analysis/1``): what it is and its expected points."""

    text: str
    cards: list[str]
    mean: float
    half_width: float


class AnalysisJudgement(TypedDict):
    """One judged decision of an analysis document; ``options`` best first (docs/agents.md)."""

    step: int
    round: int
    seat: int
    kind: str
    options: list[AnalysisOption]
    best: int
    chosen: int
    loss: float
    loss_half_width: float
    label: str | None
    advantage: float
    samples: int
    exact: NotRequired[bool]  # absent in documents written before exact endgames: not exact
    line: NotRequired[list[str]]


class AnalysisPlayer(TypedDict):
    """A judged seat's player in an analysis document: their decisions and losses."""

    seat: int
    name: str
    decisions: int
    mean_loss: float
    given_away: float
    inaccuracies: int
    mistakes: int
    blunders: int


class AnalysisMethod(TypedDict):
    """How an analysis document's decisions were judged."""

    agent: str
    samples: int
    z: float
    seed: int
    thresholds: dict[str, float]


class AnalysisDocument(TypedDict):
    """An analysis document (``tichu-analysis/1``, docs/agents.md "Game analysis"); here, beside
    the record's parts, because the game store keeps it (the records layer does not import the
    analysis that writes it)."""

    format: str
    #: The record's ``id`` as the record has it (the analysis replays a record, not its id).
    game_id: object
    method: AnalysisMethod
    players: list[AnalysisPlayer]
    judgements: list[AnalysisJudgement]
