"""The specifications in ``docs/`` define what the code cites (issue 26 item 5).

A clone alone must explain itself: every rule number cited in ``src/`` and ``tests/`` (``R4.3``)
is defined in ``docs/rules.md``, every message type and notification the server sends or
accepts is named in ``docs/protocol.md`` or ``docs/server.md``, every error code is listed in
``docs/protocol.md``, and ``docs/records.md`` names the record format and every card label.

The server's message names are found by reading its source (any module under
``src/tichu/server/``, so the test keeps working as the package is cut into sub-packages); a
floor of names that must be found stops a refactor from making that search silently empty.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from tichu.core.cards import format_mask
from tichu.records.record import FORMAT
from tichu.server.codes import ErrorCode

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: Files whose text may cite a rule.
CITING_SUFFIXES = frozenset({".py", ".js", ".json", ".txt", ".md"})

#: A rule number: a section (``R4``) or a rule (``R4.3``, ``R3.5a``).
RULE_NUMBER = re.compile(r"\bR\d+(?:\.\d+)*[a-z]?\b")
#: A card label (docs/records.md), in this project's notation or Brettspielwelt's (``R10``).
CARD_LABEL = re.compile(r"(?:[SBGR](?:[2-9ZBDKA]|10)|Hu|Ma|Dr|Ph)")
#: How docs/rules.md defines a number: a section heading or a rule's list item.
RULE_DEFINITION = re.compile(r"^(?:## (R\d+) |- \*\*(R\d+(?:\.\d+)*[a-z]?)\*\*)", re.MULTILINE)


_QUOTES = frozenset({'"', "'", "`"})


def _is_card_label(text: str, start: int, end: int) -> bool:
    """Whether the bare ``R<n>`` at ``text[start:end]`` reads as a red card's label.

    ``R9`` is the red 9 (and ``R10`` Brettspielwelt's red 10): such a token is a label when it
    is quoted (also in backticks), or when a neighbouring word is a label too
    (``"RA RK R10 R9"``).
    """
    before, after = text[:start], text[end:]
    if before[-1:] in _QUOTES or after[:1] in _QUOTES:
        return True
    previous = re.search(r"(?:^|\s)(\S+)\s+$", before)
    following = re.match(r"\s+(\S+)", after)
    neighbours = [match.group(1).strip("\"'`") for match in (previous, following) if match]
    return any(CARD_LABEL.fullmatch(word) for word in neighbours)


def cited_rules(text: str) -> set[str]:
    """The rule numbers a text cites; a bare ``R<n>`` that reads as a card label is none.

    :param text: Source or documentation text.
    :returns: The numbers, such as ``{"R4", "R4.3"}``.
    """
    found: set[str] = set()
    for match in RULE_NUMBER.finditer(text):
        number = match.group()
        if "." in number or not _is_card_label(text, match.start(), match.end()):
            found.add(number)
    return found


def defined_rules(text: str) -> list[str]:
    """The rule numbers a rules text defines, in order (duplicates kept).

    :param text: The text of a rules.md.
    :returns: The numbers of its section headings and rule items.
    """
    return [match.group(1) or match.group(2) for match in RULE_DEFINITION.finditer(text)]


def undefined(cited: Iterable[str], defined: Iterable[str]) -> list[str]:
    """The cited numbers that are not defined, sorted."""
    return sorted(set(cited) - set(defined))


def _citing_files() -> list[Path]:
    return [path for folder in ("src", "tests") for path in sorted((ROOT / folder).rglob("*"))
            if path.suffix in CITING_SUFFIXES and path.is_file() and "__pycache__" not in path.parts]


def test_every_cited_rule_is_defined_in_docs() -> None:
    defined = defined_rules((DOCS / "rules.md").read_text(encoding="utf-8"))
    where: dict[str, str] = {}
    for path in _citing_files():
        for number in cited_rules(path.read_text(encoding="utf-8", errors="replace")):
            where.setdefault(number, str(path.relative_to(ROOT)))
    missing = undefined(where, defined)
    assert not missing, "cited but not defined in docs/rules.md: " + ", ".join(
        f"{number} ({where[number]})" for number in missing)
    assert {"R4.3", "R3.6", "R8.3"} <= set(where), "the search for citations finds too little"


def test_rules_are_defined_once_and_in_their_section() -> None:
    defined = defined_rules((DOCS / "rules.md").read_text(encoding="utf-8"))
    assert len(defined) == len(set(defined)), "a rule number is defined twice"
    assert [number for number in defined if "." not in number] == [f"R{section}" for section in range(1, 9)]
    section = ""
    for number in defined:
        if "." in number:
            assert number.split(".")[0] == section, f"{number} stands in section {section}"
        else:
            section = number


def test_docs_rules_has_the_numbers_of_the_shared_spec(shared_dir: Path) -> None:
    """The rules moved into docs/ keep every number of ``shared/spec/rules.md`` and add none."""
    spec = shared_dir / "spec" / "rules.md"
    if not spec.is_file():
        pytest.skip(f"{spec} is gone: docs/rules.md is the only copy")
    headings_and_items = re.findall(r"^(?:## (R\d+) |- (R\d+(?:\.\d+)*[a-z]?) )", spec.read_text(encoding="utf-8"),
                                    re.MULTILINE)
    shared = {heading or item for heading, item in headings_and_items}
    assert set(defined_rules((DOCS / "rules.md").read_text(encoding="utf-8"))) == shared


def test_citations_and_labels_are_told_apart() -> None:
    text = ('a bomb out of turn (R4.3); read as high as they go (R3.5a); see R8, R7.\n'
            '(2)Cleo RA RK RD RB R10 R9 R8 R7\n'
            'parse_cards("R9") and ``"R10 Ph Ma"``; for bad in ("R1", "R11"):')
    assert cited_rules(text) == {"R4.3", "R3.5a", "R8", "R7"}


def test_a_rule_cited_but_not_defined_is_reported() -> None:
    defined = defined_rules("## R1 Cards and seats\n\n- **R1.1** 56 cards.\n")
    assert defined == ["R1", "R1.1"]
    assert undefined(cited_rules("a bomb (R4.3), the cards (R1.1, R1)"), defined) == ["R4.3"]


# -- the protocol -------------------------------------------------------------------------------

_NAME = r"[a-z]+(?:_[a-z]+)*"
#: Where the server's source names a message type, a request's action or a notification's event.
_MESSAGE_NAME_PATTERNS = (
    re.compile(rf"\b(?:notification|_broadcast|_tell_listeners|_ask)\(\s*\"({_NAME})\""),
    re.compile(rf"\breturn\s+\"({_NAME})\",\s*\{{"),
    re.compile(rf"\bTYPE:\s*ClassVar\[str\]\s*=\s*\"({_NAME})\""),
)
#: A message's ``"type"``; the same key in a JSON Schema (``"type": "object"``) is no message.
_TYPE_KEY = re.compile(rf"\"type\":\s*\"({_NAME})\"")
_JSON_SCHEMA_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
#: The dispatch of incoming messages by type (``def _dispatch`` or ``def dispatch``), and a
#: branch of it.
_DISPATCH = re.compile(r"^(?:async )?def _?dispatch\(.*?(?=^\S|\Z)", re.MULTILINE | re.DOTALL)
_DISPATCH_BRANCH = re.compile(rf"\bkind\s*==\s*\"({_NAME})\"")
#: Collections of names: the client's message types, and the ``Literal[...]`` of a typed
#: message's type, event or action.
_NAME_SET_PATTERNS = (
    re.compile(r"\bCLIENT_TYPES\s*=\s*frozenset\(\{([^}]*)\}\)"),
    re.compile(r"\b\w*(?:[Tt]ype|[Ee]vent|[Aa]ction)\s*[:=]\s*Literal\[([^\]]*)\]"),
)
#: Names the search must find, so that a refactor cannot make it silently find nothing.
_FLOOR = frozenset({"leave", "response", "ping", "pong", "request", "error", "notification", "bomb", "play",
                    "give_dragon_away", "player_played", "trick_taken", "request_cancelled", "game_over",
                    "chat", "lobby_state", "private_state_changed", "spectate_started"})


def server_message_names(sources: Iterable[str]) -> set[str]:
    """The message types, request actions and notification events named in server source.

    :param sources: The texts of the server's modules.
    :returns: The names.
    """
    names: set[str] = set()
    for text in sources:
        for pattern in _MESSAGE_NAME_PATTERNS:
            names.update(pattern.findall(text))
        names.update(set(_TYPE_KEY.findall(text)) - _JSON_SCHEMA_TYPES)
        for body in _DISPATCH.findall(text):
            names.update(_DISPATCH_BRANCH.findall(body))
        for pattern in _NAME_SET_PATTERNS:
            for group in pattern.findall(text):
                names.update(re.findall(rf"\"({_NAME})\"", group))
    return names


def _named_in(name: str, texts: Iterable[str]) -> bool:
    return any(f"`{name}`" in text for text in texts)


def test_every_message_the_server_handles_is_in_the_docs() -> None:
    sources = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "src" / "tichu" / "server").rglob("*.py"))]
    names = server_message_names(sources)
    assert names >= _FLOOR, f"the search for message names misses {sorted(_FLOOR - names)}: update its patterns"
    docs = [(DOCS / name).read_text(encoding="utf-8") for name in ("protocol.md", "server.md")]
    missing = sorted(name for name in names if not _named_in(name, docs))
    assert not missing, f"named by the server but in neither docs/protocol.md nor docs/server.md: {missing}"


def test_the_search_reads_every_way_a_name_is_written() -> None:
    source = '''
CLIENT_TYPES = frozenset({"leave", "chat"})
def _dispatch(table, peer, kind, payload):
    if kind == "ping":
        peer.send({"type": "pong"})
        schema = {"type": "object"}
        self._broadcast("seat_taken_back", player_index=seat)
        return "player_passed", {"player_index": seat}
        self._ask(
            "give_dragon_away", {"opponent_indexes": []})
    TYPE: ClassVar[str] = "hand_over"
RequestAction = Literal["schupf", "wish"]
Mode = Literal["quiet"]
def read(kind):
    if kind == "float":
        return 0.0
'''
    assert server_message_names([source]) == {"leave", "chat", "ping", "pong", "seat_taken_back", "player_passed",
                                              "give_dragon_away", "hand_over", "schupf", "wish"}
    assert not _named_in("seat_taken_back", ["`seat_taken_backwards`", "seat_taken_back"])


def test_every_error_code_is_in_protocol_md() -> None:
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    missing = [code.name for code in ErrorCode
               if not re.search(rf"\|\s*{int(code)}\s*\|\s*`{code.name}`\s*\|", text)]
    assert not missing, f"error codes not in docs/protocol.md's table: {missing}"


# -- the records --------------------------------------------------------------------------------

def test_records_md_names_the_format_and_every_label_letter() -> None:
    text = (DOCS / "records.md").read_text(encoding="utf-8")
    assert f"`{FORMAT}`" in text
    labels = format_mask((1 << 56) - 1).split()
    assert len(set(labels)) == 56
    assert "`2`..`9`" in text
    for label in labels:
        parts = [label] if label in {"Hu", "Ma", "Dr", "Ph"} else [label[0], label[1]]
        assert all(f"`{part}`" in text for part in parts if not part.isdigit()), label
