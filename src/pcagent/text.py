"""Small pure helpers over strings that several layers share: white space made single, text made
comparable (case, spacing and accents ignored), a label shortened for a narrow place, the
first line of an error's message.

They sit at the bottom of the stack so that the perception layer, the application interfaces,
the skills and the run loop compare and shorten text the same way instead of each keeping its
own copy. Nothing here reads an instruction to decide anything: these only put text in a form.
"""

from __future__ import annotations

import unicodedata


def single_spaced(text: str) -> str:
    """``text`` with every run of white space (newlines too) made one space, and trimmed."""
    return " ".join(text.split())


def comparable(text: str) -> str:
    """``text`` as a person compares it: single-spaced and case folded."""
    return single_spaced(text).casefold()


def contains(haystack: str, needle: str) -> bool:
    """Whether ``needle`` is in ``haystack``, ignoring case and runs of white space."""
    return comparable(needle) in comparable(haystack)


def without_accents(text: str) -> str:
    """``text`` with its accents and other combining marks removed ("Léon" -> "Leon"), so that
    what a person types without them still matches."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def folded(text: str) -> str:
    """``text`` as a person compares a name: single-spaced, case folded and without accents
    ("São Paulo" and "sao  paulo" come out the same)."""
    return comparable(without_accents(text))


def first_line(error: BaseException) -> str:
    """The first line of ``error``'s message (its type's name when it has none): libraries such
    as Playwright and Ray put a call log or a traceback after the line that says what failed."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def shortened(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
