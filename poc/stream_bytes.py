"""Bytes a seat receives in a whole game: the frames of golden streams, as JSON and as the
browsers take them (permessage-deflate, the compression kept from frame to frame).

Usage::

    git show main:tests/data/golden_stream.txt > /tmp/before.txt
    python -m poc.stream_bytes /tmp/before.txt tests/data/golden_stream.txt

Written for issue 36 (the state with every event, docs/benchmarks.md "Issue 36: state to the clients").
"""

from __future__ import annotations

import argparse
import json
import zlib
from pathlib import Path

#: The bytes each deflated message ends with, which permessage-deflate leaves out (RFC 7692, 7.2.1).
_TAIL = 4


def frames(path: Path) -> list[str]:
    """The WebSocket frames of a golden stream (the records after them left out), as compact JSON."""
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return [json.dumps(row, separators=(",", ":")) for row in rows if "type" in row and "payload" in row]


def deflated(texts: list[str]) -> int:
    """Bytes of the frames deflated one after the other with one compressor, as a socket does."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return sum(len(compressor.compress(text.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)) - _TAIL
               for text in texts)


def main() -> None:
    """Print the frames, their bytes of JSON and their bytes deflated, per stream."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("streams", nargs="+", type=Path)
    for path in parser.parse_args().streams:
        texts = frames(path)
        print(f"{path}: {len(texts)} frames, {sum(map(len, texts))} bytes of JSON, {deflated(texts)} bytes deflated")


if __name__ == "__main__":
    main()
