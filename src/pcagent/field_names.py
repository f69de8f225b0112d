"""Values handed from one record to another under the names both give them.

A run's state passes through several typed records (the checkpoint, a step's context, a step's
work and its stored record) that name the same things the same way; each hand-over copies what
the two share by name and says only what differs, so a field added to both travels without a
line more.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import Any

from pydantic import BaseModel


def field_names(kind: type) -> tuple[str, ...]:
    """The fields of a dataclass or a pydantic model, in declaration order."""
    if dataclasses.is_dataclass(kind):
        return tuple(one.name for one in dataclasses.fields(kind))
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return tuple(kind.model_fields)
    raise TypeError(f"{kind.__name__} is neither a dataclass nor a pydantic model")


def shared_values(source: object, target: type, *, besides: Collection[str] = ()) -> dict[str, Any]:
    """``source``'s field values for the fields of ``target`` named like them, but those in
    ``besides`` (what the caller gives otherwise)."""
    own = set(field_names(type(source)))
    return {
        name: getattr(source, name)
        for name in field_names(target)
        if name in own and name not in besides
    }
