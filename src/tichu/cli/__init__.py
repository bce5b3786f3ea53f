"""The command-line tools, installed as ``[project.scripts]`` (pyproject.toml): ``tichu-server``,
``tichu-arena``, ``tichu-replay``, ``tichu-analyse``, ``tichu-import``, ``tichu-export``,
``tichu-bsw-import``, ``tichu-training-data``, ``tichu-spiel-arena`` and ``tichu-client``.

Each module has a ``main(argv) -> int`` (the exit status) and runs as ``python -m tichu.cli.NAME``
too. The top layer: it may import every other layer, and nothing imports it. Every command fails
the same way (:mod:`tichu.cli.errors`, with the argument types of :mod:`tichu.cli.arguments`):
a bad argument is one line and exit status 2, a failure while it runs one line and status 1,
a traceback only with ``--debug``.
"""
