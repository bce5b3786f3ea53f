"""Tichu: rules core, game engine, Arena and game records (see README.md)."""

from tichu.accelerator import verify as _verify_accelerator

__version__ = "0.1.0"

_verify_accelerator()
