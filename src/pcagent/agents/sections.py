"""A named part of something read ("the abstract"), for a subtask that says to write it
somewhere: copied as it was read, not written anew.

"Write the abstract into it": the Composer, asked for the text, wrote an abstract of its own
invention although the paper's page, read earlier, had it under the heading "Abstract".
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: "write the abstract into it", "copy the address to the mail", "put its summary below".
_COPIES = re.compile(
    r"\b(?:write|copy|put|paste|insert)\s+(?:the|its)\s+(?P<thing>[a-z][a-z -]{1,30}?)\s+"
    r"(?:into|in|to|below|under|at)\b",
    re.I,
)


def copied_part(writing: str) -> str:
    """The part of something read that ``writing`` says to write ("abstract"); "" if none."""
    match = _COPIES.search(writing)
    return match.group("thing").strip() if match else ""


def section(part: str, text: str) -> str | None:
    """The text of ``part`` in ``text``: the paragraph under a line that is its heading
    ("Abstract"), or the rest of a line that starts with it ("Abstract: ..."); None if absent."""
    lines = text.splitlines()
    inline = re.compile(rf"^\s*{re.escape(part)}\s*[:–-]\s*(\S.*)$", re.I)
    for index, line in enumerate(lines):
        if match := inline.match(line):
            return match.group(1).strip()
        if line.strip().rstrip(":").lower() != part.lower():
            continue
        body: list[str] = []
        for following in lines[index + 1 :]:
            if not following.strip():
                if body:
                    break
                continue
            body.append(following.strip())
        if body:
            return " ".join(body)
    return None


def found_section(part: str, values: Mapping[str, str]) -> str | None:
    """:func:`section` of ``part`` in the first of ``values`` that has it."""
    for value in values.values():
        found = section(part, value)
        if found:
            return found
    return None
