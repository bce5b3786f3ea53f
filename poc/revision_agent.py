"""One of our agents as an earlier revision plays it, seated beside this tree's agents in one
process (issue 34: "the expert against today's expert", ``poc/vs_revision.py``).

:func:`load_revision` extracts the revision's ``src/tichu`` (``git archive``) into a folder as
a package of another name (``tichu_at_<rev>``), its own imports rewritten to that name, so
both trees live in one interpreter without sharing a module. :class:`RevisionAgent` is an
:class:`~tichu.agents.agent.Agent` of this tree that asks the revision's agent: each view is
translated into the revision's types (the seat's view, its public and private state, the
plays and the rule set: the same fields in both trees since issue 33, checked field by field
when the revision loads) and each answer back into this tree's plays, taken from the legal
ones this tree offered. The revision runs as pure Python (no compiled accelerator is
extracted with it), which this tree does too when run from ``src``.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import re
import subprocess
import sys
import tarfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from tichu.agents.agent import Agent
from tichu.core.combos import Play
from tichu.core.ruleset import RuleSet
from tichu.core.views import PrivateState, PublicState, SeatView

ROOT = Path(__file__).resolve().parents[1]
#: An import of the ``tichu`` package at the start of a line.
IMPORT = re.compile(r"^(\s*)(from|import) tichu\b", re.MULTILINE)


def package_name(revision: str) -> str:
    """The package name a revision is loaded as.

    :raises ValueError: For a revision that is no commit hash or tag of letters, digits, ``-``, ``_`` and ``.``.
    """
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", revision):
        raise ValueError(f"not a revision name: {revision!r}")
    return "tichu_at_" + re.sub(r"\W", "_", revision)


def rewrite_imports(source: str, package: str) -> str:
    """A module's source with its imports of ``tichu`` renamed to ``package``."""
    return IMPORT.sub(lambda match: f"{match.group(1)}{match.group(2)} {package}", source)


def load_revision(revision: str, into: Path) -> str:
    """Extract ``src/tichu`` of ``revision`` into ``into`` as a package of its own, put ``into``
    on the import path and return the package's name.

    :raises subprocess.CalledProcessError: If git does not know the revision.
    :raises RuntimeError: If the revision's view types differ from this tree's.
    """
    archive = subprocess.run(["git", "archive", "--format=tar", revision, "src/tichu"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        files = {}
        for member in tar.getmembers():
            extracted = tar.extractfile(member) if member.isfile() else None
            if extracted is not None:
                files[Path(member.name).relative_to("src/tichu")] = extracted.read()
    return install(files, into, package_name(revision))


def install(files: Mapping[Path, bytes], into: Path, package: str) -> str:
    """Write the files of a ``tichu`` tree (by their paths inside it) into ``into`` as the
    package ``package``, their imports renamed, put ``into`` on the import path and return
    ``package``.

    :raises RuntimeError: If the tree's view types differ from this tree's.
    """
    for relative, data in files.items():
        target = into / package / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.suffix == ".py":
            data = rewrite_imports(data.decode("utf-8"), package).encode("utf-8")
        target.write_bytes(data)
    sys.path.insert(0, str(into))
    _check_types(package)
    return package


def _check_types(package: str) -> None:
    """Refuse a revision whose view types do not have this tree's fields (the translation
    copies them field by field)."""
    views = _views_module(package)
    pairs = ((PublicState, views.PublicState), (PrivateState, views.PrivateState))
    for ours, theirs in pairs:
        if [field.name for field in dataclasses.fields(ours)] != [field.name for field in dataclasses.fields(theirs)]:
            raise RuntimeError(f"{package}: {theirs.__name__} has other fields than this tree's")
    if SeatView._fields != views.SeatView._fields:
        raise RuntimeError(f"{package}: SeatView has other fields than this tree's")


def _views_module(package: str) -> ModuleType:
    """The revision's module of the seat's view (in the engine before issue 34, in the core after)."""
    for name in ("core.views", "engine.views"):
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError:
            continue
    raise RuntimeError(f"{package}: no module of the seat's view")


class RevisionAgent(Agent):
    """The revision's agent of a spec (``montecarlo:plays``), asked through translated views.

    :ivar inner: The revision's agent.
    """

    def __init__(self, package: str, spec: str, name: str, seed: int | None = None) -> None:
        """:param package: The package :func:`load_revision` returned.
        :param spec: The agent as the revision's ``tichu-arena`` names it.
        :param name: The seat's name.
        :param seed: The agent's seed.
        """
        super().__init__(name)
        registry = importlib.import_module(f"{package}.agents.registry")
        self.inner: Any = registry.make_agent(spec, name=name, seed=seed)
        combos = importlib.import_module(f"{package}.core.combos")
        self._play_type: Any = combos.Play
        self._pass: Any = combos.PASS_PLAY
        self._rules_type: Any = importlib.import_module(f"{package}.core.ruleset").RuleSet
        self._views: Any = _views_module(package)

    # -- translation -----------------------------------------------------------------------

    def _play(self, play: Play) -> Any:
        """This tree's play as the revision's (its pass the revision's own object: code may test identity)."""
        return self._pass if play.cards == 0 and play.kind == 0 else self._play_type(*play)

    def _plays(self, plays: Sequence[Play]) -> list[Any]:
        return [self._play(play) for play in plays]

    def _rules(self, rules: RuleSet) -> Any:
        return self._rules_type(**{field.name: getattr(rules, field.name) for field in dataclasses.fields(rules)})

    def _public(self, public: PublicState) -> Any:
        values = {field.name: getattr(public, field.name) for field in dataclasses.fields(public)}
        values["phase"] = self._views.TablePhase(public.phase.value)
        values["trick_turns"] = tuple((seat, self._play(play)) for seat, play in public.trick_turns)
        return self._views.PublicState(**values)

    def _private(self, private: PrivateState) -> Any:
        values = {field.name: getattr(private, field.name) for field in dataclasses.fields(private)}
        values["bombs"] = tuple(self._plays(private.bombs))
        return self._views.PrivateState(**values)

    def _view(self, view: SeatView) -> Any:
        return self._views.SeatView(
            view.seat, view.hand, None if view.trick is None else self._play(view.trick), view.trick_owner,
            view.wish, self._rules(view.rules), None if view.public is None else self._public(view.public),
            None if view.private is None else self._private(view.private))

    @staticmethod
    def _ours(answer: Any, offered: Sequence[Play]) -> Play:
        """The offered play equal to the revision's answer.

        :raises ValueError: If the revision answered a play it was not offered.
        """
        for play in offered:
            if tuple(play) == tuple(answer):
                return play
        raise ValueError(f"the revision answered {answer!r}, not one of the offered plays")

    # -- decisions -------------------------------------------------------------------------

    def decide_grand_tichu(self, view: SeatView) -> bool:
        return bool(self.inner.decide_grand_tichu(self._view(view)))

    def decide_schupf(self, view: SeatView) -> tuple[int, int, int]:
        right, partner, left = self.inner.decide_schupf(self._view(view))
        return int(right), int(partner), int(left)

    def decide_play(self, view: SeatView, legal: Sequence[Play]) -> Play:
        return self._ours(self.inner.decide_play(self._view(view), self._plays(legal)), legal)

    def decide_wish(self, view: SeatView, choices: Sequence[int]) -> int:
        return int(self.inner.decide_wish(self._view(view), list(choices)))

    def decide_dragon(self, view: SeatView, recipients: Sequence[int]) -> int:
        return int(self.inner.decide_dragon(self._view(view), list(recipients)))

    def decide_tichu(self, view: SeatView) -> bool:
        return bool(self.inner.decide_tichu(self._view(view)))

    def decide_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Play | None:
        answer = self.inner.decide_bomb(self._view(view), self._plays(bombs))
        return None if answer is None else self._ours(answer, bombs)
