"""Pickling of frozen dataclasses, the same compiled or not.

Python pickles a frozen dataclass by setting its fields on an empty instance; a class compiled
by the optional accelerator (``bin/accelerate.py``) would set them through the frozen class's
``__setattr__``, which refuses. Rebuilding the instance through its constructor works both
ways, and agents travel to the server's worker processes and the Arena's as pickles.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


def by_fields(instance: DataclassInstance) -> tuple[type[Any], tuple[Any, ...]]:
    """A ``__reduce__`` value that rebuilds ``instance`` from its fields, in their order (all
    of them positional ``__init__`` arguments, as in every frozen dataclass here)."""
    return type(instance), tuple(getattr(instance, field.name) for field in fields(instance))
