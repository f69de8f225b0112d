"""Bounds on what constrained decoding lets a model write.

A small model decoding at temperature 0 can fall into a repetition loop inside one string or
one list ("(2025 - 1776) * 365 - (2025 - 1776) * 365 - ...") and spend its whole output budget
there; the reply is then cut off, re-asked and cut off again. llama.cpp turns ``maxLength`` and
``maxItems`` into grammar bounds, but a string with a ``pattern`` is decoded from the pattern
alone (its ``maxLength`` is not part of the grammar). So every string of a reply schema must
have a bounded pattern or a ``maxLength``, and every list a ``maxItems``: a loop then ends at the
bound, and the reply stays a complete JSON object that validation and the agents' own checks can
judge.

:func:`bounded` adds generous bounds where a schema has none (what is sent to the backend, not
what the model is shown); :func:`unbounded_parts` lists what no bound covers, for tests: a
pattern with an open quantifier has to be rewritten where it is declared.
"""

from __future__ import annotations

import copy
import re
from typing import Any

#: Characters a plain string may hold when its schema names no limit. Long texts (a composed
#: document) come from a model's own text field with its own bound, or by reference.
TEXT_LIMIT = 4000
#: Items a list may hold when its schema names no limit.
ITEMS_LIMIT = 60

#: ``+``, ``*`` and ``{n,}`` outside a character class: a pattern the grammar cannot bound.
_OPEN_QUANTIFIER = re.compile(r"(?<!\\)(?:[+*]|\{\d+,\})")
_CLASS = re.compile(r"\[(?:\\.|[^\]\\])*\]")


def open_pattern(pattern: str) -> bool:
    """Whether ``pattern`` lets a string grow without end (a quantifier with no upper bound)."""
    return bool(_OPEN_QUANTIFIER.search(_CLASS.sub("", pattern)))


def bounded(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` in which every plain string has a ``maxLength`` and every list a
    ``maxItems``; the bounds a schema already names are kept."""
    copied = copy.deepcopy(schema)
    _bound(copied)
    return copied


def unbounded_parts(schema: dict[str, Any], path: str = "") -> list[str]:
    """The paths in ``schema`` where decoding could go on forever: a string with neither a
    ``maxLength`` nor a closed pattern, a list without ``maxItems``."""
    found: list[str] = []
    if isinstance(schema, dict):
        kind = schema.get("type")
        if "pattern" in schema and open_pattern(str(schema["pattern"])):
            found.append(f"{path or '/'}: pattern {schema['pattern']}")
        elif kind == "string" and not _closed_string(schema):
            found.append(f"{path or '/'}: string without maxLength")
        if kind == "array" and "maxItems" not in schema:
            found.append(f"{path or '/'}: list without maxItems")
        for key, value in schema.items():
            found += unbounded_parts(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            found += unbounded_parts(value, f"{path}[{index}]")
    return found


def _closed_string(schema: dict[str, Any]) -> bool:
    return any(key in schema for key in ("maxLength", "enum", "const", "pattern"))


def _bound(node: Any) -> None:
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "string" and not _closed_string(node):
            node["maxLength"] = TEXT_LIMIT
        if kind == "array" and "maxItems" not in node:
            node["maxItems"] = ITEMS_LIMIT
        for value in node.values():
            _bound(value)
    elif isinstance(node, list):
        for value in node:
            _bound(value)
