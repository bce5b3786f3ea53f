"""The analysis document (``tichu-analysis/1``): a record's judged decisions as JSON.

The server stores and serves it, the replay viewer shows it, ``tichu-analyse`` writes it;
docs/agents.md ("Game analysis") describes the fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from tichu.agents.support.endgame import EndgameSolver
from tichu.analysis.judge import DEFAULT_SAMPLES, ENDGAME_NODES, THRESHOLDS, Judgement, Z, judge
from tichu.analysis.points import Option, decision_points
from tichu.core.combos import Play
from tichu.core.round import Action, ActionKind
from tichu.core.seats import team_of
from tichu.records.parts import AnalysisDocument, AnalysisJudgement, AnalysisMethod, AnalysisOption, AnalysisPlayer
from tichu.records.steps import labels, record_steps

FORMAT = "tichu-analysis/1"
#: The labels, mildest first, and the player summary's count of each.
LABEL_COUNTS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}

_DIRECTIONS = ("right", "partner", "left")
_VALUE_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}


@dataclass(frozen=True)
class Method:
    """How the decisions were judged.

    :ivar agent: The expert whose search judges (``montecarlo``).
    :ivar samples: Deals per decision.
    :ivar seed: The judgements' seed.
    :ivar z: Standard errors of the intervals.
    :ivar thresholds: The labels' least losses, clear of the noise (points per round).
    """

    agent: str = "montecarlo"
    samples: int = DEFAULT_SAMPLES
    seed: int = 0
    z: float = Z
    thresholds: Mapping[str, float] = field(default_factory=lambda: dict(THRESHOLDS))

    def to_json(self) -> AnalysisMethod:
        """The document's ``method``."""
        return {"agent": self.agent, "samples": self.samples, "z": self.z, "seed": self.seed,
                "thresholds": dict(self.thresholds)}


def option_text(kind: str, option: Option) -> str:
    """What a person reads of an option: ``pass``, ``R5 G5``, ``Tichu``, ``no Tichu``,
    ``wish 7``, ``Dragon to seat 1``, ``R2 → right, G5 → partner, S3 → left``."""
    if kind in ("grand_tichu", "tichu"):
        name = "Grand Tichu" if kind == "grand_tichu" else "Tichu"
        return name if option else f"no {name}"
    if kind == "push":
        assert isinstance(option, tuple)
        return ", ".join(f"{labels(card)[0]} → {direction}" for card, direction in zip(option, _DIRECTIONS))
    if kind == "wish":
        assert isinstance(option, int)
        return f"wish {_VALUE_NAMES.get(option, str(option))}" if option else "no wish"
    if kind == "dragon":
        return f"Dragon to seat {option}"
    if option is None:
        return "no bomb"
    assert isinstance(option, Play)
    return " ".join(labels(option.cards)) if option.cards else "pass"


def option_cards(kind: str, option: Option) -> list[str]:
    """The record labels of the cards an option plays, bombs or pushes (``[]`` otherwise)."""
    if kind == "push":
        assert isinstance(option, tuple)
        return [labels(card)[0] for card in option]
    if isinstance(option, Play):
        return labels(option.cards)
    return []


def judgement_json(judgement: Judgement) -> AnalysisJudgement:
    """One judged decision of the document: options best first (``best`` is then 0)."""
    point = judgement.point
    order = sorted(range(len(point.options)), key=lambda index: (-judgement.means[index], index != judgement.best,
                                                                 index))
    options: list[AnalysisOption] = [{"text": option_text(point.kind, point.options[index]),
                "cards": option_cards(point.kind, point.options[index]),
                "mean": round(judgement.means[index], 1), "half_width": round(judgement.half_widths[index], 1)}
               for index in order]
    sign = 1 if team_of(point.seat) == 0 else -1
    advantage = point.score_before[0] - point.score_before[1] + sign * judgement.means[point.chosen]
    return {"step": point.step, "round": point.round, "seat": point.seat, "kind": point.kind,
            "options": options, "best": order.index(judgement.best), "chosen": order.index(point.chosen),
            "loss": round(judgement.loss, 1), "loss_half_width": round(judgement.loss_half_width, 1),
            "label": judgement.label, "advantage": round(advantage, 1), "samples": judgement.samples,
            "exact": judgement.exact, "line": [action_text(action) for action in judgement.line]}


def action_text(action: Action) -> str:
    """What a person reads of one action of a best line: ``seat 1: R5 G5``, ``seat 3: pass``,
    ``seat 0: bomb S9 G9 B9 R9``, ``seat 2: no bomb``, ``seat 1: Tichu``, ``seat 0: wish 7``,
    ``seat 2: Dragon to seat 1``."""
    kind, seat = action.kind, action.seat
    if kind == ActionKind.PASS:
        text = "pass"
    elif kind == ActionKind.PLAY:
        text = " ".join(labels(action.number()))
    elif kind == ActionKind.BOMB:
        text = "bomb " + " ".join(labels(action.number()))
    elif kind == ActionKind.DECLINE:
        text = "declines"
    elif kind == ActionKind.TICHU:
        text = "Tichu"
    elif kind == ActionKind.WISH:
        text = option_text("wish", action.number())
    else:
        text = option_text("dragon", action.number())
    return f"seat {seat}: {text}"


def analysis_document(record: Mapping[str, object], judgements: Sequence[Judgement],
                      method: Method) -> AnalysisDocument:
    """The analysis document of a record from its judged decisions (in the game's order).

    ``players`` has one entry per judged seat and player (who held the seat at the decision, by
    the record's ``players`` and ``seat_changes``): the decisions judged, the mean loss per
    decision, the points given away (the sum of the losses) and the count of each label.
    """
    steps, _ = record_steps(record)
    players: dict[tuple[int, str], AnalysisPlayer] = {}
    for judgement in judgements:
        seat = judgement.point.seat
        name = str(steps[judgement.point.step]["names"][seat])
        entry = players.setdefault((seat, name), {"seat": seat, "name": name, "decisions": 0, "mean_loss": 0.0,
                                                  "given_away": 0.0, "inaccuracies": 0, "mistakes": 0,
                                                  "blunders": 0})
        entry["decisions"] += 1
        entry["given_away"] += judgement.loss
        if judgement.label == "inaccuracy":
            entry["inaccuracies"] += 1
        elif judgement.label == "mistake":
            entry["mistakes"] += 1
        elif judgement.label == "blunder":
            entry["blunders"] += 1
    for entry in players.values():
        entry["mean_loss"] = round(entry["given_away"] / entry["decisions"], 1)
        entry["given_away"] = round(entry["given_away"], 1)
    return {"format": FORMAT, "game_id": record.get("id"), "method": method.to_json(),
            "players": [players[key] for key in sorted(players)],
            "judgements": [judgement_json(judgement) for judgement in judgements]}


def analyse_record(record: Mapping[str, object], *, seats: Sequence[int] | None = None, samples: int = DEFAULT_SAMPLES,
                   seed: int = 0, progress: Callable[[int, int], None] | None = None) -> AnalysisDocument:
    """Judge every decision of a record and return its analysis document.

    :param seats: (Optional) The seats to judge (:func:`~tichu.analysis.points.decision_points`).
    :param samples: Deals per decision.
    :param seed: The judgements' seed.
    :param progress: (Optional) Told ``(done, total)`` after each decision.
    :raises ~tichu.analysis.points.RecordFault: For a record that does not replay.
    """
    points = decision_points(record, seats)
    judgements = []
    endgame = EndgameSolver(ENDGAME_NODES)  # one table for the game's endgames (bounded)
    for done, point in enumerate(points, start=1):
        judgements.append(judge(point, samples=samples, seed=seed, endgame=endgame))
        if progress is not None:
            progress(done, len(points))
    return analysis_document(record, judgements, Method(samples=samples, seed=seed))


__all__ = ["FORMAT", "Method", "action_text", "analyse_record", "analysis_document", "judgement_json", "option_text"]
