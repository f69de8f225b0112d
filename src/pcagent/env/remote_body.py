"""Reading a request body of ``pcagent serve`` as JSON, for any bytes a client may send.

``json.loads`` fails in more ways than :class:`json.JSONDecodeError`: bytes that are not UTF-8
(:class:`UnicodeDecodeError`), an integer of more digits than Python converts (4300 by default,
a :class:`ValueError`), nesting deeper than the interpreter's recursion limit
(:class:`RecursionError`). It also accepts what no action needs and later steps cannot handle:
nesting a few hundred levels deep (too deep for pydantic to report the error), unpaired
surrogates (``"\\ud800"``, which no UTF-8 text, the audit log included, can hold) and the
non-standard ``NaN`` and ``Infinity``. :func:`parse_json_body` turns every one of them into one
:class:`UnreadableBody`, which the server answers with a JSON 422.
"""

from __future__ import annotations

import json
from typing import Any

#: Deepest nesting of arrays and objects accepted; an action or a window is three levels deep.
MAX_DEPTH = 32


class UnreadableBody(ValueError):
    """The body is not JSON this server reads; the message says why, for the client."""


def _refuse_constant(name: str) -> Any:
    raise UnreadableBody(f"the body holds {name}, which is not JSON (RFC 8259)")


def parse_json_body(body: bytes) -> Any:
    """The JSON value of ``body``; :class:`UnreadableBody` for anything else, with the reason."""
    try:
        value = json.loads(body, parse_constant=_refuse_constant)
    except UnreadableBody:
        raise
    except RecursionError:
        raise UnreadableBody(
            f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)"
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise UnreadableBody(f"the body is not JSON: {error}") from None
    except ValueError as error:  # an integer longer than Python converts
        raise UnreadableBody(f"the body holds a number too long to read ({error})") from None
    _check_value(value)
    return value


def _check_value(value: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and strings (keys included) that are not
    text; walks without recursion, so any depth json accepted is safe here."""
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            _check_text(item)
            continue
        if not isinstance(item, dict | list):
            continue
        if depth >= MAX_DEPTH:
            raise UnreadableBody(f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)")
        if isinstance(item, dict):
            for key, member in item.items():
                _check_text(key)
                pending.append((member, depth + 1))
        else:
            pending.extend((member, depth + 1) for member in item)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UnreadableBody(
            "the body holds an unpaired surrogate (a \\ud800-\\udfff escape alone), "
            "which is not text"
        ) from None
