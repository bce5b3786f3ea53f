"""The package's metadata in a checkout (issue 26, item 4), the fast half of ``tests/test_wheel.py``:
one version, every command an importable ``main``, the page found as package data."""

from __future__ import annotations

import importlib
import inspect
import tomllib
from pathlib import Path

import pytest

import tichu
from tichu.cli import server
from tichu.server.http.site import WEB_DIR, web_dir

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_is_written_once() -> None:
    """pyproject.toml reads the version from ``tichu.__version__`` and writes none itself."""
    assert "version" not in PROJECT["project"] and "version" in PROJECT["project"]["dynamic"]
    assert PROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "tichu.__version__"}


def test_tichu_server_version_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        server.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.split()[-1] == tichu.__version__


def test_every_command_is_a_main_of_tichu_cli() -> None:
    """Each ``[project.scripts]`` entry names a ``main(argv=None) -> int`` of :mod:`tichu.cli`."""
    scripts: dict[str, str] = PROJECT["project"]["scripts"]
    assert {"tichu-server", "tichu-arena", "tichu-replay", "tichu-analyse"} <= set(scripts)
    for name, target in scripts.items():
        module_name, function = target.split(":")
        assert module_name.startswith("tichu.cli.") and function == "main", name
        if module_name in ("tichu.cli.spiel_arena", "tichu.cli.training_data"):
            continue  # their extras (spiel, learn) may be missing here; tests/learn runs them
        main = getattr(importlib.import_module(module_name), function)
        assert list(inspect.signature(main).parameters) == ["argv"], name


def test_the_page_is_the_package_resource_web() -> None:
    """In a checkout ``src/tichu/web`` links to the top-level ``web/`` (in the accelerator's copy
    of the checkout it is a copy of it), and that is the folder served."""
    assert WEB_DIR == web_dir() == (ROOT / "src" / "tichu" / "web").resolve()
    served = {path.relative_to(WEB_DIR) for path in WEB_DIR.rglob("*") if path.is_file()}
    assert served == {path.relative_to(ROOT / "web") for path in (ROOT / "web").rglob("*") if path.is_file()}
    assert (WEB_DIR / "index.html").read_bytes() == (ROOT / "web" / "index.html").read_bytes()
