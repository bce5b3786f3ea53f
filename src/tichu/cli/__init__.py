"""The command-line tools, installed as ``[project.scripts]`` (pyproject.toml): ``tichu-server``,
``tichu-arena``, ``tichu-replay``, ``tichu-analyse``, ``tichu-import``, ``tichu-export``,
``tichu-bsw-import``, ``tichu-training-data``, ``tichu-spiel-arena`` and ``tichu-client``.

Each module has a ``main(argv) -> int`` (the exit status) and runs as ``python -m tichu.cli.NAME``
too. The top layer: it may import every other layer, and nothing imports it.
"""
