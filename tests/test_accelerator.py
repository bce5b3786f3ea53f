"""The optional accelerator (``bin/accelerate.py``, :mod:`tichu.accelerator`).

``bin/test`` runs the whole suite twice: as Python, and against a copy of the checkout whose
hot modules are compiled, with ``TICHU_EXPECT_ACCELERATED=1``. The first test here makes sure
each run is what it claims to be, so that the compiled run cannot quietly test Python. The
others check the guard against stale compiled modules and the build command's bookkeeping on
made-up trees (the real build is what the compiled run tests).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.machinery
import os
import pickle
import pkgutil
from pathlib import Path

import pytest

import tichu
from tests.scripts import load_script
from tichu import accelerator
from tichu.accelerator import MODULES, StaleAccelerator, compiled_modules, manifest_text, source_of, verify
from tichu.agents.heuristic_policy import DEFAULT
from tichu.agents.mc_search import SEARCH
from tichu.agents.support.knowledge import Knowledge, SeatFacts
from tichu.core.combos import PASS_PLAY
from tichu.core.outcomes import (
    GameEnded,
    HandCardsDealt,
    PlayerAnnounced,
    PlayerOut,
    PlayerSchupfed,
    RoundEnded,
    RoundResult,
    RoundStarted,
    StartPlaying,
    TrickTaken,
    TurnChanged,
    WishFulfilled,
    WishMade,
)
from tichu.core.ruleset import RuleSet
from tichu.core.views import PrivateState, TableInfo, build_public_state


def test_the_run_is_compiled_exactly_when_it_says_so() -> None:
    """Under ``TICHU_EXPECT_ACCELERATED=1`` every module of the list is loaded compiled (and its
    manifest matches, or the import of ``tichu`` had failed); otherwise none is."""
    expected = os.environ.get("TICHU_EXPECT_ACCELERATED") == "1"
    assert compiled_modules() == (list(MODULES) if expected else [])
    assert accelerator.accelerated() is expected
    assert accelerator.MANIFEST.exists() is expected


def _tree(root: Path) -> Path:
    """A made-up source tree holding every module of the list."""
    for module in MODULES:
        path = source_of(module, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"NAME = {module!r}\n", encoding="utf-8")
    return root


def test_a_changed_source_makes_the_compiled_modules_refused(tmp_path: Path) -> None:
    """No manifest and nothing compiled: all is well. A manifest that matches passes; one
    source edited after the build is named in the refusal, which says how to fix it; a source
    deleted is refused too."""
    root = _tree(tmp_path / "src")
    manifest = tmp_path / "manifest.txt"
    verify(manifest, root)
    manifest.write_text(manifest_text(root), encoding="utf-8")
    verify(manifest, root)
    source_of("tichu.core.round", root).write_text("NAME = 'edited'\n", encoding="utf-8")
    with pytest.raises(StaleAccelerator, match=r"tichu\.core\.round.*bin/accelerate\.py"):
        verify(manifest, root)
    manifest.write_text(manifest_text(root), encoding="utf-8")
    source_of("tichu.core.cards", root).unlink()
    with pytest.raises(StaleAccelerator, match=r"tichu\.core\.cards"):
        verify(manifest, root)


def test_a_build_cut_short_or_of_another_list_is_refused(tmp_path: Path) -> None:
    """A compiled module without the manifest (a build cut short) is refused, and so is a
    manifest of other modules than the list (one dropped from it may still lie compiled)."""
    root = _tree(tmp_path / "src")
    manifest = tmp_path / "manifest.txt"
    source = source_of("tichu.core.combos", root)
    compiled = source.with_name(source.stem + importlib.machinery.EXTENSION_SUFFIXES[0])
    compiled.write_bytes(b"")
    with pytest.raises(StaleAccelerator, match="interrupted build"):
        verify(manifest, root)
    manifest.write_text(manifest_text(root) + "tichu.engine.engine 00\n", encoding="utf-8")
    with pytest.raises(StaleAccelerator, match="not the ones"):
        verify(manifest, root)


def test_the_compiled_classes_have_no_interpreted_relatives() -> None:
    """A compiled class may not extend an interpreted one, nor be extended by interpreted code:
    every class the listed modules define has only builtin or listed bases, and no class of
    any other module of the package extends one of them."""
    modules = {name: importlib.import_module(name)
               for name in ["tichu", *(info.name for info in pkgutil.walk_packages(tichu.__path__, "tichu."))]}
    compiled = [value for name in MODULES for value in vars(modules[name]).values()
                if isinstance(value, type) and value.__module__ == name]
    for cls in compiled:
        for base in cls.__mro__[1:]:
            assert base.__module__ in MODULES or not base.__module__.startswith("tichu"), (cls, base)
    for name, module in modules.items():
        if name in MODULES:
            continue
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == name:
                assert not set(value.__mro__[1:]) & set(compiled), f"{value} extends a compiled class"


def test_the_frozen_dataclasses_pickle_back_equal() -> None:
    """A compiled frozen dataclass cannot be unpickled the default way (its fields are set
    through ``__setattr__``, which refuses): each one of the listed modules rebuilds through
    its constructor (:func:`tichu.core.frozen.by_fields`). Agents carry them to worker processes."""
    frozen = [value for name in MODULES for value in vars(importlib.import_module(name)).values()
              if isinstance(value, type) and value.__module__ == name and dataclasses.is_dataclass(value)
              and value.__dataclass_params__.frozen]  # type: ignore[attr-defined]
    assert {cls.__name__ for cls in frozen} >= {"RuleSet", "Weights", "SearchOptions", "Knowledge"}
    samples = {"RuleSet": RuleSet(target_score=500, wish_optional=True), "Weights": DEFAULT, "SearchOptions": SEARCH,
               "RoundResult": RoundResult((2, 0, 3, 1), False, (35, 65), (100, 0), (135, 65), (True, None, None, None),
                                          (1, 0, 0, 0)),
               "SeatFacts": SeatFacts(14, 0, 0), "Knowledge": Knowledge(1, 2, 3, (SeatFacts(1, 2, 3),)),
               "PublicState": build_public_state(TableInfo(table_name="t", player_names=["a", "b", "c", "d"]), None),
               "PrivateState": PrivateState(2, 0b111, (1, 2, 4), None, True, (PASS_PLAY,))}
    result = samples["RoundResult"]
    assert isinstance(result, RoundResult)
    samples |= {"RoundStarted": RoundStarted(1), "HandCardsDealt": HandCardsDealt(8),
                "PlayerAnnounced": PlayerAnnounced(2, True), "PlayerSchupfed": PlayerSchupfed(3),
                "StartPlaying": StartPlaying(1), "PlayerOut": PlayerOut(0, 1), "WishMade": WishMade(7),
                "WishFulfilled": WishFulfilled(), "TrickTaken": TrickTaken(1, 25, 2), "TurnChanged": TurnChanged(3),
                "RoundEnded": RoundEnded(result), "GameEnded": GameEnded((1010, 230), 20)}  # Issue 36
    for cls in frozen:
        sample = samples[cls.__name__]
        assert pickle.loads(pickle.dumps(sample)) == sample


def test_remove_deletes_the_compiled_files_and_the_manifest_only(tmp_path: Path) -> None:
    """``bin/accelerate.py --remove`` on a tree: the extensions (the modules' and mypyc's shared
    library) and the manifest go, the sources stay."""
    script = load_script("bin/accelerate.py")
    src = _tree(tmp_path / "src")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    made = [src / f"abc__mypyc{suffix}", src / "tichu" / "core" / f"round{suffix}"]
    for path in made:
        path.write_bytes(b"")
    manifest = src / "tichu" / accelerator.MANIFEST.name
    manifest.write_text(manifest_text(src), encoding="utf-8")
    assert script.compiled_files(src) == sorted(made)
    assert script.remove(src) == 2
    assert not any(path.exists() for path in made) and not manifest.exists()
    assert all(source_of(module, src).exists() for module in MODULES)
