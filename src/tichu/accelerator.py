"""The optional accelerator: the hot modules compiled from their own sources by mypyc.

The rules core and the heuristic policy (what every engine turn and every rollout runs) are
plain typed Python. ``bin/accelerate.py`` compiles exactly these sources, unchanged, into C
extension modules placed beside them; Python then loads an extension before a source of the
same name. Nothing else changes: a plain ``pip install`` (the Raspberry Pi, any platform
without a C compiler) runs the very same code as Python, and both ways pass the same tests.

A compiled module does not follow later edits of its source. So the build writes a manifest
(:data:`MANIFEST`) with a digest of each compiled source, and :func:`verify`, called when the
``tichu`` package is imported, refuses to run compiled modules whose sources have changed
since: stale rules must never play silently. The manifest is plain text (one ``module digest``
per line), so that this module needs nothing but the standard library.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
from collections.abc import Sequence
from pathlib import Path

#: The modules the accelerator compiles: the rules core, and what rollouts run at every play.
#: A compiled class may neither have an interpreted base nor be subclassed by interpreted code,
#: so each class here is used, never extended, outside this list.
MODULES = (
    "tichu.core.cards",
    "tichu.core.combos",
    "tichu.core.errors",
    "tichu.core.flow",
    "tichu.core.frozen",
    "tichu.core.game",
    "tichu.core.outcomes",
    "tichu.core.round",
    "tichu.core.ruleset",
    "tichu.core.seats",
    "tichu.core.views",
    "tichu.core.worlds",
    "tichu.agents.support.hand",
    "tichu.agents.support.inference",
    "tichu.agents.support.knowledge",
    "tichu.agents.support.policy",
    "tichu.agents.support.prob",
    "tichu.agents.support.rollout",
    "tichu.agents.support.situation",
    "tichu.agents.support.worlds",
    "tichu.agents.heuristic_policy",
    "tichu.agents.mc_search",
    "tichu.agents.driver",
    "tichu.records.event_text",
)
#: The folder that holds the ``tichu`` package (``src``).
SOURCE_ROOT = Path(__file__).resolve().parents[1]
#: Written by ``bin/accelerate.py`` beside the compiled modules; absent without them.
MANIFEST = Path(__file__).resolve().with_name("_accelerated.txt")


class StaleAccelerator(ImportError):
    """Compiled modules whose sources changed after they were compiled."""


def source_of(module: str, root: Path = SOURCE_ROOT) -> Path:
    """The source file of a module of :data:`MODULES` under ``root``."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def digests_of(modules: Sequence[str], root: Path = SOURCE_ROOT) -> dict[str, str]:
    """The SHA-256 of each module's source under ``root``, by module name."""
    return {module: hashlib.sha256(source_of(module, root).read_bytes()).hexdigest() for module in modules}


def manifest_text(root: Path = SOURCE_ROOT) -> str:
    """The manifest for the sources under ``root``: one ``module digest`` line per module of
    :data:`MODULES` (the build takes it from the very sources it compiled)."""
    return "".join(f"{module} {digest}\n" for module, digest in digests_of(MODULES, root).items())


def _compiled_beside(module: str, root: Path) -> bool:
    """Whether a compiled extension of ``module`` lies beside its source under ``root``."""
    source = source_of(module, root)
    return any(source.with_name(source.stem + suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def verify(manifest: Path = MANIFEST, root: Path = SOURCE_ROOT) -> None:
    """Refuse compiled modules that may not match their sources.

    :param manifest: The build's manifest.
    :param root: The folder holding the ``tichu`` package.
    :raises StaleAccelerator: When a compiled module lies there without a manifest (an
        interrupted build), when the manifest lists other modules than :data:`MODULES`, or
        when a source is missing or differs from the one that was compiled.
    """
    advice = "run bin/accelerate.py again, or bin/accelerate.py --remove"
    if not manifest.exists():
        if any(_compiled_beside(module, root) for module in MODULES):
            raise StaleAccelerator(f"compiled modules without the build's manifest (an interrupted build?): {advice}")
        return
    built = dict(line.split(" ", 1) for line in manifest.read_text(encoding="utf-8").splitlines() if line)
    if set(built) != set(MODULES):
        raise StaleAccelerator(f"the compiled modules are not the ones tichu.accelerator lists: {advice}")
    changed = [module for module in MODULES
               if not source_of(module, root).exists() or digests_of([module], root)[module] != built[module]]
    if changed:
        raise StaleAccelerator(f"compiled modules are older than their sources ({', '.join(changed)}): {advice}")


def compiled_modules() -> list[str]:
    """The modules of :data:`MODULES` that Python loads from a compiled extension (found, not
    imported: only their packages are)."""
    found = []
    for module in MODULES:
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
        if origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            found.append(module)
    return found


def accelerated() -> bool:
    """Whether the accelerator is in use: every module of :data:`MODULES` is compiled."""
    return len(compiled_modules()) == len(MODULES)
