"""Tichu: rules core, game engine, Arena and game records (see README.md)."""

__version__ = "0.1.0"
