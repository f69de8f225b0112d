"""How instructions refer to a value an earlier sub-task produced.

The instruction never repeats the value itself ("set an alarm at that time", not "at 06:35"): the
agent has to read it in one application and use it in the next, which is what makes a composed
task multi-application work rather than several independent ones.
"""

from __future__ import annotations

from pcagent.bench.generate.flow import FlowValue


def refer_to(value: FlowValue) -> str:
    """``that number``, ``that time``, ``that city``, ``the result`` or a file's name."""
    if value.kind == "file":
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
