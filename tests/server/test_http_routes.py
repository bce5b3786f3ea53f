"""Every module of ``tichu.server.http`` follows one route convention (``tichu.server.http``).

Each has ``add_routes(app)`` and nothing else that registers routes; ``ROUTES`` lists them all,
the site's last; the application :func:`create_app` builds serves every route they add; and no
module keeps an application key of its own (the keys are in ``tichu.server.keys``).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

from aiohttp import web

import tichu.server.http as http_package
from tichu.server.app import create_app
from tichu.server.config import Settings
from tichu.server.http import ROUTES

HTTP_DIR = Path(http_package.__file__).parent


def _modules() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules([str(HTTP_DIR)]))


def convention_problems(folder: Path) -> list[str]:
    """What breaks the convention in the modules of ``folder``, as ``file: what``."""
    problems: list[str] = []
    for path in sorted(folder.glob("*.py")):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
        adder = functions.get("add_routes")
        if adder is None or [arg.arg for arg in adder.args.args] != ["app"]:
            problems.append(f"{path.name}: no add_routes(app)")
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "AppKey":
                problems.append(f"{path.name}:{node.lineno}: an application key outside tichu.server.keys")
            if isinstance(node, ast.Attribute) and node.attr == "router":
                outer = next((f for f in functions.values() if f.lineno <= node.lineno <= (f.end_lineno or 0)), None)
                if outer is None or outer.name != "add_routes":
                    problems.append(f"{path.name}:{node.lineno}: routes added outside add_routes")
    return problems


def test_every_http_module_has_add_routes_and_no_other_way() -> None:
    assert convention_problems(HTTP_DIR) == []


def test_routes_lists_every_module_the_site_last() -> None:
    listed = [inspect.getmodule(add).__name__.rsplit(".", 1)[1] for add in ROUTES]  # type: ignore[union-attr]
    assert sorted(listed) == _modules()
    assert listed[-1] == "site"
    for name in _modules():
        module = importlib.import_module(f"tichu.server.http.{name}")
        assert list(inspect.signature(module.add_routes).parameters) == ["app"]


def test_the_app_serves_every_route_the_modules_add(tmp_path: Path) -> None:
    wanted: set[tuple[str, str]] = set()
    for add in ROUTES:
        alone = web.Application()
        add(alone)
        wanted |= {(route.method, route.resource.canonical) for route in alone.router.routes()
                   if route.resource is not None}
    app = create_app(Settings(data_dir=tmp_path))
    served = {(route.method, route.resource.canonical) for route in app.router.routes() if route.resource is not None}
    assert wanted and wanted <= served
    assert ("GET", "/ws") in served


def test_the_check_finds_a_module_off_the_convention(tmp_path: Path) -> None:
    """A deliberately bad folder: a module registering through ``register(app, key)`` with a key
    of its own, and one adding a route at import."""
    (tmp_path / "old.py").write_text(
        "from aiohttp import web\n"
        "_KEY = web.AppKey('k', str)\n"
        "def register(app, key):\n"
        "    app.router.add_get('/x', None)\n", encoding="utf-8")
    (tmp_path / "fine.py").write_text(
        "def add_routes(app):\n    app.router.add_get('/y', None)\n", encoding="utf-8")
    assert convention_problems(tmp_path) == [
        "old.py: no add_routes(app)",
        "old.py:2: an application key outside tichu.server.keys",
        "old.py:4: routes added outside add_routes",
    ]
