"""A date a program writes that nobody gave: neither the instruction nor an earlier step's
value writes it, in any spelling (:func:`pcagent.text.same_date_written`).

Such a date is a doubt (the Manager's own knowledge of a holiday or an event is no look-up),
and its doubt names ``web_search``, so that the re-ask shows a remembered program that looks a
value up: told only "look it up first", the 1.5B model wrote the two dates again, or a screen
step reading files nobody had (a rewording of pc05, 2026-12-04).
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.plan import Doubt
from pcagent.agents.program import SLOT
from pcagent.text import same_date_written

UNGIVEN_DATE = "neither the instruction nor an earlier step writes this date: look it up first"
#: The skills the doubt names: those that look a value up.
LOOKUPS = ("web_search",)


def ungiven_date(value: object, given: Sequence[str]) -> bool:
    """Whether ``value`` is a literal date (no slot) that no text of ``given`` writes."""
    literal = isinstance(value, str) and not SLOT.search(value)
    return bool(literal) and not any(same_date_written(str(value), t) for t in given)


def date_doubt(step_id: str, name: str, value: object) -> Doubt:
    """The doubt of the date ``value`` of parameter ``name`` of step ``step_id``."""
    return Doubt(step_id, f"{name}={value!r}: {UNGIVEN_DATE}", skills=LOOKUPS)
