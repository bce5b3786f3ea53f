"""Analyse game records: every decision judged by the expert's search (docs/agents.md, "Game analysis").

Example: ``tichu-analyse data/records/arena.jsonl --index 0 --seats 0,2 --json analysis.json``

Reads any record file: the Arena's JSON Lines, a server export (one JSON record, a JSON array
of them, or JSON Lines), or a Brettspielwelt log (``.tch``, imported by
:mod:`tichu.records.bsw`). Prints per game and player the decisions judged, the mean loss per
decision, the points given away, the count of each label and the five costliest decisions;
``--json`` writes the analysis document (one game: a JSON object; several: JSON Lines, one
document a line). Exit status 1 if a record does not replay.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tichu.analysis import DEFAULT_SAMPLES, RecordFault, analyse_record
from tichu.records.bsw import BswError, import_file
from tichu.records.parts import AnalysisDocument
from tichu.records.record import read_records

#: Costliest decisions printed per player.
COSTLIEST = 5


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="a record file (.jsonl, .json) or a Brettspielwelt log (.tch)")
    parser.add_argument("--seats", type=_seats, help="seats to judge, e.g. 0,2 (default: the people's seats; "
                        "all four in a record without people)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="deals per decision")
    parser.add_argument("--seed", type=int, default=0, help="seed of the judgements")
    parser.add_argument("--index", type=int, help="analyse only the record at this position of the file (from 0)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the analysis document(s) here")
    args = parser.parse_args(argv)
    if args.samples < 2:
        parser.error("--samples must be at least 2")
    return args


def _seats(text: str) -> list[int]:
    seats = [int(part) for part in text.split(",") if part.strip()]
    if not seats or any(not 0 <= seat < 4 for seat in seats):
        raise argparse.ArgumentTypeError(f"seats are 0..3, comma-separated: {text!r}")
    return seats


def load_records(path: Path) -> list[dict[str, Any]]:
    """The records of a file: a Brettspielwelt log, one JSON record, a JSON array, or JSON Lines.

    :raises ValueError: For a file that holds none of these.
    """
    if path.suffix == ".tch":
        try:
            return [dict(import_file(path))]
        except BswError as error:
            raise ValueError(f"{path}: {error}") from error
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except ValueError:
        return list(read_records(path))
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list) and all(isinstance(item, dict) for item in data):
        return data
    raise ValueError(f"{path}: neither a record nor a list of records")


def summary(document: AnalysisDocument) -> list[str]:
    """The lines printed for one analysed game."""
    lines = [f"game {document['game_id']}: {len(document['judgements'])} decisions judged "
             f"({document['method']['samples']} deals each)"]
    for player in document["players"]:
        lines.append(f"  seat {player['seat']} {player['name']}: {player['decisions']} decisions, "
                     f"mean loss {player['mean_loss']:.1f}, given away {player['given_away']:.0f}; "
                     f"{player['inaccuracies']} inaccuracies, {player['mistakes']} mistakes, "
                     f"{player['blunders']} blunders")
        mine = [judgement for judgement in document["judgements"] if judgement["seat"] == player["seat"]]
        for judgement in sorted(mine, key=lambda item: -item["loss"])[:COSTLIEST]:
            if judgement["loss"] <= 0:
                break
            chosen, best = judgement["options"][judgement["chosen"]], judgement["options"][judgement["best"]]
            lines.append(f"    step {judgement['step']} ({judgement['kind']}, round {judgement['round']}): "
                         f"{chosen['text']} {chosen['mean']:+.0f} instead of {best['text']} {best['mean']:+.0f}: "
                         f"loss {judgement['loss']:.0f} ± {judgement['loss_half_width']:.0f}"
                         + (f" [{judgement['label']}]" if judgement["label"] else ""))
    return lines


def main(argv: list[str] | None = None) -> int:
    """Analyse the records of the file; print the summaries; write the documents."""
    args = parse_args(argv)
    try:
        records = load_records(args.file)
    except (OSError, ValueError) as error:
        print(error, file=sys.stderr)
        return 1
    if args.index is not None:
        if not 0 <= args.index < len(records):
            print(f"{args.file}: no record at index {args.index} ({len(records)} records)", file=sys.stderr)
            return 1
        records = [records[args.index]]
    documents, status = [], 0
    for record in records:
        try:
            document = analyse_record(record, seats=args.seats, samples=args.samples, seed=args.seed,
                                      progress=_progress)
        except RecordFault as error:
            print(error, file=sys.stderr)
            status = 1
            continue
        documents.append(document)
        print("\n".join(summary(document)), flush=True)
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
