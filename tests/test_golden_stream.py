"""The wire and the records of fixed-seed games stay byte for byte what they were.

``tests/data/golden_stream.txt`` was written by ``tests/data/make_golden_stream.py --out`` before the
"clean edges" refactoring (issue 9); a change that alters a message, an error, a record
or an agent's decision shows here. Rewrite it only for a change meant to alter them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_table_stream_and_records_are_unchanged() -> None:
    module = load_script("tests/data/make_golden_stream.py")
    expected = (ROOT / "tests" / "data" / "golden_stream.txt").read_text(encoding="utf-8").splitlines()
    lines = module.golden_lines()
    assert len(lines) == len(expected)
    for number, (got, want) in enumerate(zip(lines, expected), start=1):
        assert got == want, f"line {number} differs"
