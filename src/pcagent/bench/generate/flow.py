"""Values that flow from one sub-task to the next in a generated task.

A template may declare an output ("the number read from the file", "the document it saved") that
a later template consumes ("compute it times 3", "mail it"). The generator knows every value, so
it can write the checkers' expected values; the instruction only names the value the way a person
would ("that number"), so the agent has to carry it over itself.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

#: What kind of value passes between two sub-tasks: a whole number, a time of day ("06:35"), a
#: city name, a file in HOME (its path relative to HOME), a document of the vocabulary's
#: articles in Documents (its path), opened by one sub-task and changed by the next, or a
#: Python script in HOME with an error in it (its path), saved by one and mended by the next.
ValueKind = Literal["number", "time", "city", "file", "document", "script"]

VALUE_KINDS: tuple[ValueKind, ...] = ("number", "time", "city", "file", "document", "script")


class FlowValue(BaseModel):
    """One value a sub-task produces for the next: its kind, its exact text (what checkers
    expect) and how an instruction refers to it ("the number of parcels waiting")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ValueKind
    text: str
    description: str

    @property
    def file_name(self) -> str:
        """The file's name without its folder (for a ``file`` value)."""
        return self.text.rsplit("/", 1)[-1]
