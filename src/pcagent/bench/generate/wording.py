"""How instructions are worded: the phrasings templates choose from, and how they refer to a
value an earlier sub-task produced.

People ask for the same thing in many ways ("Set an alarm at 06:35 in the Clocks app.", "Could
you add an alarm for 06:35 in the Clocks app?", "Clocks app: alarm at 06:35."), so every template
has several :class:`Phrasing` s of its own, and the composer picks one per sub-task from the
task's seeded random source: training instructions vary in wording as well as in values.

The instruction never repeats a carried value itself ("set an alarm at that time", not "at
06:35"): the agent has to read it in one application and use it in the next, which is what makes
a composed task multi-application work rather than several independent ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pcagent.bench.generate.flow import FlowValue

#: The kinds of phrasing every template has at least one of: an imperative request ("Set an
#: alarm at 06:35 ..."), a question ("Could you add an alarm ...?"), a first-person need ("I
#: need the Clocks app to ring at ...") and a terse note ("Clocks app: alarm at 06:35.").
PhrasingKind = Literal["request", "question", "need", "note"]

PHRASING_KINDS: tuple[PhrasingKind, ...] = ("request", "question", "need", "note")

#: What a sub-task that ends its task by telling its value adds to its sentence (the ``{tell}``
#: field of phrasings of templates that can report).
TELL = ", and tell me what it is"


@dataclass(frozen=True)
class Phrasing:
    """One way of wording a template's instruction: ``text`` is a :meth:`str.format` string
    whose named fields the template fills in (``"Set an alarm at {time} in the Clocks app."``).

    Every phrasing starts with a capital letter, is one sentence and names its application, so
    that fragments joined into one instruction read as one request per application; a carried
    value comes in through a field as :func:`refer_to` names it.
    """

    kind: PhrasingKind
    text: str

    def render(self, **fields: str) -> str:
        """The sentence with ``fields`` filled in (KeyError for a field left out)."""
        return sentence(self.text.format(**fields))


def refer_to(value: FlowValue) -> str:
    """``that number``, ``that time``, ``that city``, ``the result`` or a file's (or a
    document's) name."""
    if value.kind in ("file", "document", "script"):
        return value.file_name
    if value.description == "the result":
        return "the result"
    return f"that {value.kind}"


def clock_text(hour: int, minute: int) -> str:
    """24-hour ``HH:MM`` (what notes show and clock_add_alarm takes)."""
    return f"{hour:02d}:{minute:02d}"


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")
