"""Analyse game records: every decision judged by the expert's search (docs/agents.md, "Game analysis").

Example: ``tichu-analyse data/records/arena.jsonl --index 0 --seats 0,2 --json analysis.json``

Reads any record file: the Arena's JSON Lines, a server export (one JSON record, a JSON array
of them, or JSON Lines), or a Brettspielwelt log (``.tch``, imported by
:mod:`tichu.records.bsw`). Prints per game and player the decisions judged, the mean loss per
decision, the points given away, the count of each label and the five costliest decisions,
each with the position it was made in (and, where the endgame was solved exactly, "exact"
and the best line);
``--json`` writes the analysis document (one game: a JSON object; several: JSON Lines, one
document a line). Exit status 1 if a record does not replay.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tichu.analysis import DEFAULT_SAMPLES, RecordFault, analyse_record
from tichu.cli.arguments import BSW_SUFFIX, existing_file, integer
from tichu.cli.errors import CommandError, CommandParser, content_problem, run_command
from tichu.records.bsw import import_file
from tichu.records.parts import AnalysisDocument, AnalysisJudgement, Step
from tichu.records.record import read_records
from tichu.records.steps import record_steps

#: Costliest decisions printed per player.
COSTLIEST = 5


def parser() -> CommandParser:
    """The command line's parser."""
    parser = CommandParser("tichu-analyse", __doc__)
    parser.add_argument("file", type=existing_file, help="a record file (.jsonl, .json) or a Brettspielwelt log (.tch)")
    parser.add_argument("--seats", type=_seats, help="seats to judge, e.g. 0,2 (default: the people's seats; "
                        "all four in a record without people)")
    parser.add_argument("--samples", type=integer(2), default=DEFAULT_SAMPLES,
                        help=f"deals per decision, at least 2 (default {DEFAULT_SAMPLES})")
    parser.add_argument("--seed", type=int, default=0, help="seed of the judgements")
    parser.add_argument("--index", type=integer(0),
                        help="analyse only the record at this position of the file (from 0)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the analysis document(s) here")
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line."""
    return parser().parse_args(argv)


def _seats(text: str) -> list[int]:
    try:
        seats = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        seats = []
    if not seats or any(not 0 <= seat < 4 for seat in seats):
        raise argparse.ArgumentTypeError(f"seats are 0..3, comma-separated: {text!r}")
    return seats


def load_records(path: Path) -> list[dict[str, Any]]:
    """The records of a file: a Brettspielwelt log, one JSON record, a JSON array, or JSON Lines.

    :raises ValueError: For a file that holds none of these, or no text (the message names the file).
    """
    try:
        if path.suffix == BSW_SUFFIX:
            return [dict(import_file(path))]
        text = path.read_text(encoding="utf-8")
    except ValueError as error:  # a log that breaks a rule or is not text (UnicodeDecodeError)
        raise ValueError(f"{path}: {content_problem(error)}") from error
    try:
        data = json.loads(text)
    except ValueError:
        return list(read_records(path))
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list) and all(isinstance(item, dict) for item in data):
        return data
    raise ValueError(f"{path}: neither a record nor a list of records")


def summary(document: AnalysisDocument, steps: Sequence[Step] | None = None) -> list[str]:
    """The lines printed for one analysed game: per player its totals and costliest decisions,
    each with its loss (``exact`` where a two-seat endgame was solved, else ``± half width``;
    a sampled loss without spread, ``± ?``: a half width of 0 there measures nothing),
    the position before it (with the record's ``steps``) and an exact judgement's best line."""
    lines = [f"game {document['game_id']}: {len(document['judgements'])} decisions judged "
             f"({document['method']['samples']} deals each where sampled)"]
    for player in document["players"]:
        lines.append(f"  seat {player['seat']} {player['name']}: {player['decisions']} decisions, "
                     f"mean loss {player['mean_loss']:.1f}, given away {player['given_away']:.0f}; "
                     f"{player['inaccuracies']} inaccuracies, {player['mistakes']} mistakes, "
                     f"{player['blunders']} blunders")
        mine = [judgement for judgement in document["judgements"] if judgement["seat"] == player["seat"]]
        for judgement in sorted(mine, key=lambda item: -item["loss"])[:COSTLIEST]:
            if judgement["loss"] <= 0:
                break
            lines += _decision_lines(judgement, steps)
    return lines


def _decision_lines(judgement: AnalysisJudgement, steps: Sequence[Step] | None) -> list[str]:
    """One listed decision: what was chosen against the best, the loss, the position, the line."""
    chosen, best = judgement["options"][judgement["chosen"]], judgement["options"][judgement["best"]]
    noise = "exact" if judgement.get("exact") else f"± {judgement['loss_half_width']:.0f}" \
        if judgement["loss_half_width"] > 0 else "± ? (no spread over the deals: not established)"
    lines = [f"    step {judgement['step']} ({judgement['kind']}, round {judgement['round']}): "
             f"{chosen['text']} {chosen['mean']:+.0f} instead of {best['text']} {best['mean']:+.0f}: "
             f"loss {judgement['loss']:.0f} {noise}" + (f" [{judgement['label']}]" if judgement["label"] else "")]
    if steps is not None and 0 <= judgement["step"] < len(steps):
        lines.append("      " + position_text(steps, judgement["step"], judgement["seat"], judgement["kind"]))
    if judgement.get("line"):
        lines.append("      best line: " + "; ".join(judgement.get("line", [])))
    return lines


def position_text(steps: Sequence[Step], step: int, seat: int, kind: str) -> str:
    """The position in which a seat decided: its hand, the open trick and who is out, as
    the record's steps show it before the decision's step (a Tichu not called: at its step)."""
    shown = steps[step]
    if step > 0 and (shown["seat"] == seat or kind in ("grand_tichu", "push")):
        shown = steps[step - 1]
    trick = ", ".join(f"seat {turn['seat']} {' '.join(turn['cards'])}" for turn in shown["trick_turns"]) or "none"
    out = ", ".join(f"seat {other}" for other in shown["out_order"]) or "nobody"
    return f"hand {' '.join(shown['hands'][seat]) or '(none)'}; trick: {trick}; out: {out}"


def main(argv: list[str] | None = None) -> int:
    """Analyse the records of the file; print the summaries; write the documents."""
    return run_command(parser(), argv, analyse)


def analyse(args: argparse.Namespace) -> int:
    """Judge the records; 1 if one does not replay."""
    try:
        records = load_records(args.file)
    except ValueError as error:
        raise CommandError(str(error)) from error
    if args.index is not None:
        if args.index >= len(records):
            raise CommandError(f"{args.file}: no record at index {args.index} ({len(records)} records)")
        records = [records[args.index]]
    documents, status = [], 0
    for record in records:
        try:
            document = analyse_record(record, seats=args.seats, samples=args.samples, seed=args.seed,
                                      progress=_progress)
        except RecordFault as error:
            print(f"tichu-analyse: {error}", file=sys.stderr)
            status = 1
            continue
        documents.append(document)
        print("\n".join(summary(document, record_steps(record)[0])), flush=True)
    if args.json is not None:
        if len(documents) == 1:
            args.json.write_text(json.dumps(documents[0], ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        else:
            args.json.write_text("".join(json.dumps(document, ensure_ascii=False) + "\n" for document in documents),
                                 encoding="utf-8")
    return status


def _progress(done: int, total: int) -> None:
    """Show the progress on a terminal (nothing when stderr is a file or a pipe)."""
    if sys.stderr.isatty():
        print(f"\r{done}/{total} decisions", end="\n" if done == total else "", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
