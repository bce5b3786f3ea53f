#!/usr/bin/env python3
"""Compile the hot modules with mypyc (the optional accelerator, extra ``accel``).

Usage:

- ``bin/accelerate.py``: compile :data:`tichu.accelerator.MODULES` in place; the Arena, the
  agents and the server then run them compiled (about twice the speed, docs/benchmarks.md).
- ``bin/accelerate.py --remove``: delete the compiled modules; everything runs as Python.
- ``bin/accelerate.py --into DIR``: copy the checkout into ``DIR`` and compile there, leaving
  this checkout as it is (``bin/test`` tests such a copy; the benchmarks time one).

Needs ``pip install -e .[accel]`` (mypy, which brings mypyc) and a C compiler with the
Python headers. The build runs in a scratch copy of ``src`` and takes a minute or two; only
the compiled modules and the manifest (:data:`tichu.accelerator.MANIFEST`) come back.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _accelerator_module() -> ModuleType:
    """``tichu/accelerator.py`` loaded by its path: importing the ``tichu`` package would run
    its check and refuse the stale compiled modules this command is about to rebuild."""
    spec = importlib.util.spec_from_file_location("_tichu_accelerator", ROOT / "src" / "tichu" / "accelerator.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_accelerator = _accelerator_module()
MODULES: tuple[str, ...] = _accelerator.MODULES
MANIFEST: Path = _accelerator.MANIFEST
manifest_text: Callable[[Path], str] = _accelerator.manifest_text
source_of: Callable[[str, Path], Path] = _accelerator.source_of

#: What a copy leaves out: the environment, what a build or a test run leaves behind, and the
#: checkout's generated ``data`` (only at the top: ``tests/data`` stays). The history comes
#: along: some tests and benchmarks check an earlier revision out of it.
_LEFT_OUT = shutil.ignore_patterns(".venv", "node_modules", "build", "dist", "__pycache__", "*.so", "_accelerated.txt",
                                   "*.egg-info", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis",
                                   ".coverage*")


def _left_out(folder: str, names: list[str]) -> set[str]:
    """The names of ``folder`` a copy leaves out (for :func:`shutil.copytree`)."""
    left = set(_LEFT_OUT(folder, names))
    if Path(folder).resolve() == ROOT:
        left.add("data")
    return left


#: The endings of compiled extensions, of any Python version (a build of an earlier Python
#: must go too) and on Windows.
_EXTENSION_ENDINGS = ("*.so", "*.pyd")


def compiled_files(src: Path) -> list[Path]:
    """The compiled extensions under ``src``: the modules' and mypyc's shared library."""
    found: list[Path] = []
    for ending in _EXTENSION_ENDINGS:
        found += src.glob(f"*__mypyc*{ending[1:]}")
        found += (src / "tichu").rglob(ending)
    return sorted(set(found))


def remove(src: Path) -> int:
    """Delete the compiled modules and the manifest under ``src``; how many files went."""
    files = compiled_files(src)
    for path in files:
        path.unlink()
    manifest = src / MANIFEST.relative_to(ROOT / "src")
    if manifest.exists():
        manifest.unlink()
    return len(files)


def build(src: Path) -> list[Path]:
    """Compile the modules of ``src`` in a scratch copy and put the extensions beside their sources.

    :param src: A folder holding the ``tichu`` package (this checkout's ``src`` or a copy's).
    :returns: The extension files written under ``src``.
    :raises subprocess.CalledProcessError: When mypyc or the C compiler fails.
    """
    remove(src)
    try:
        with tempfile.TemporaryDirectory(prefix="tichu-accelerate-") as scratch:
            work = Path(scratch) / "src"
            shutil.copytree(src, work, ignore=_left_out)
            sources = [str(source_of(module, Path("."))) for module in MODULES]
            subprocess.run([sys.executable, "-m", "mypyc", *sources], cwd=work, check=True,
                           stdout=subprocess.DEVNULL)
            manifest = manifest_text(work)  # of the very sources compiled, not of later edits
            written = []
            for built in compiled_files(work):
                target = src / built.relative_to(work)
                shutil.copy2(built, target)
                written.append(target)
    except BaseException:
        remove(src)  # no half a build: Python again, as the message says
        raise
    (src / MANIFEST.relative_to(ROOT / "src")).write_text(manifest, encoding="utf-8")
    return written


def copy_checkout(target: Path) -> Path:
    """Copy this checkout (its working files and its history) into ``target``; its ``src``."""
    shutil.copytree(ROOT, target, ignore=_left_out, dirs_exist_ok=True)
    (target / "data").mkdir(exist_ok=True)
    return target / "src"


def main(argv: list[str] | None = None) -> int:
    """Build in place, into a copy, or remove; say what was done."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--remove", action="store_true", help="delete the compiled modules")
    group.add_argument("--into", type=Path, metavar="DIR", help="copy the checkout into DIR and compile there")
    args = parser.parse_args(argv)
    if args.remove:
        print(f"removed {remove(ROOT / 'src')} compiled files; the modules run as Python")
        return 0
    src = copy_checkout(args.into) if args.into else ROOT / "src"
    try:
        written = build(src)
    except (subprocess.CalledProcessError, OSError) as error:
        print(f"bin/accelerate.py: the build failed ({error}); everything still runs as Python. "
              "It needs `pip install -e .[accel]` and a C compiler with the Python headers.", file=sys.stderr)
        return 1
    print(f"compiled {len(MODULES)} modules into {len(written)} files under {src}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
