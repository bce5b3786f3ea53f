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
import sys
from pathlib import Path

#: The modules the accelerator compiles: the rules core, and what rollouts run at every play.
#: A compiled class may neither have an interpreted base nor be subclassed by interpreted code,
#: so each class here is used, never extended, outside this list.
MODULES = (
    "tichu.core.cards",
    "tichu.core.combos",
    "tichu.core.errors",
    "tichu.core.frozen",
    "tichu.core.game",
    "tichu.core.round",
    "tichu.core.ruleset",
    "tichu.core.seats",
    "tichu.agents.support.hand",
    "tichu.agents.support.inference",
    "tichu.agents.support.knowledge",
    "tichu.agents.support.policy",
    "tichu.agents.support.prob",
    "tichu.agents.support.rollout",
    "tichu.agents.support.situation",
    "tichu.agents.heuristic_policy",
    "tichu.agents.mc_search",
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


def digests(root: Path = SOURCE_ROOT) -> dict[str, str]:
    """The SHA-256 of each compiled module's source under ``root``, by module name."""
    return {module: hashlib.sha256(source_of(module, root).read_bytes()).hexdigest() for module in MODULES}


def manifest_text(root: Path = SOURCE_ROOT) -> str:
    """The manifest for the sources under ``root``: one ``module digest`` line per module."""
    return "".join(f"{module} {digest}\n" for module, digest in digests(root).items())


def verify(manifest: Path = MANIFEST, root: Path = SOURCE_ROOT) -> None:
    """Refuse compiled modules that no longer match their sources.

    :param manifest: The build's manifest; without it nothing was compiled and all is well.
    :param root: The folder holding the ``tichu`` package.
    :raises StaleAccelerator: When a source differs from the one that was compiled.
    """
    if not manifest.exists():
        return
    built = dict(line.split(" ", 1) for line in manifest.read_text(encoding="utf-8").splitlines() if line)
    changed = [module for module, digest in digests(root).items() if built.get(module) != digest]
    if changed:
        raise StaleAccelerator(f"compiled modules are older than their sources ({', '.join(changed)}): "
                               "run bin/accelerate.py again, or bin/accelerate.py --remove")


def compiled_modules() -> list[str]:
    """The modules of :data:`MODULES` that are loaded from a compiled extension (imports them)."""
    found = []
    for module in MODULES:
        __import__(module)
        origin = getattr(sys.modules[module], "__file__", None) or ""
        if origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            found.append(module)
    return found


def accelerated() -> bool:
    """Whether the accelerator is in use: every module of :data:`MODULES` is compiled."""
    return len(compiled_modules()) == len(MODULES)
