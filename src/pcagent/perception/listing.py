"""Marks as prompt text: a compact listing, the common verbose baseline, and relevance pruning.

The compact listing spends one short line per mark::

    7 toggle "Bold" checked @607,107

number, role (abbreviated), label, ``=value`` when there is one, states, and the centre point in
screen pixels: everything a model needs to pick and click, and nothing it has to skip (no size, no
class names, no description column, no empty fields). Long text is cut with its length noted, so a
model knows there is more (text selection reads the full text itself).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pcagent.env.observation import Element
from pcagent.perception.marks import Mark
from pcagent.text import single_spaced, word_parts

#: Short role names; roles not listed are printed as they are.
ROLE_ABBREVIATIONS = {
    "push button": "button",
    "toggle button": "toggle",
    "radio button": "radio",
    "check box": "checkbox",
    "menu item": "item",
    "check menu item": "checkitem",
    "radio menu item": "radioitem",
    "combo box": "combo",
    "list item": "listitem",
    "password text": "password",
    "spin button": "spin",
    "page tab": "tab",
    "table cell": "cell",
    "table column header": "colheader",
    "table row header": "rowheader",
    "tree item": "treeitem",
    "paragraph": "para",
    "status bar": "status",
    "document text": "document",
    "document web": "webpage",
    "document spreadsheet": "sheet",
}
#: Characters of a label or value shown before cutting.
MAX_TEXT = 80
LISTING_HEADER = 'marks: number role "label" =value states @x,y (centre, screen pixels)'


def _quote(text: str) -> str:
    text = single_spaced(text)
    if len(text) > MAX_TEXT:
        text = f"{text[:MAX_TEXT]}…(+{len(text) - MAX_TEXT} chars)"
    return '"' + text.replace('"', "'") + '"'


def mark_line(mark: Mark) -> str:
    """One mark as one line of the compact listing."""
    parts = [str(mark.number), ROLE_ABBREVIATIONS.get(mark.role, mark.role)]
    if mark.source == "ocr":
        parts[1] = "ocrtext"
    if mark.label:
        parts.append(_quote(mark.label))
    if mark.value:
        parts.append("=" + _quote(mark.value))
    parts.extend(mark.states)
    x, y = mark.center
    parts.append(f"@{x},{y}")
    return " ".join(parts)


_LISTING_LINE = re.compile(
    r'^(?P<number>\d+) (?P<role>[a-z]+)(?: "(?P<label>[^"]*)")?(?: ="(?P<value>[^"]*)")?'
    r".*@(?P<x>\d+),(?P<y>\d+)$"
)


@dataclass(frozen=True)
class ListedMark:
    """One line of a compact listing: its number, abbreviated role, label, value and centre."""

    number: int
    role: str
    label: str
    x: int
    y: int
    value: str = ""


def parse_listing(listing: str) -> list[ListedMark]:
    """The marks of a compact listing (:func:`compact_listing`, read back from a record or a
    prompt); lines that are not marks (the header) are skipped."""
    marks = []
    for line in listing.splitlines():
        match = _LISTING_LINE.match(line.strip())
        if match is not None:
            marks.append(
                ListedMark(
                    number=int(match["number"]),
                    role=match["role"],
                    label=match["label"] or "",
                    x=int(match["x"]),
                    y=int(match["y"]),
                    value=match["value"] or "",
                )
            )
    return marks


def listed_label(mark: Mark) -> str:
    """A mark's label as the listing shows it, without the quotes ("" for an unlabelled mark)."""
    return _quote(mark.label)[1:-1] if mark.label else ""


def element_targets(marks: Sequence[Mark]) -> dict[str, Mark]:
    """The names by which ``click_element`` may name each labelled mark: its label as listed,
    or, for a label listed more than once, the label, " #" and the mark's number.

    A small model copies a label it reads far more reliably than it picks the right number or
    coordinates (benchmarks/grounding.py measures both), and constrained decoding can hold it to
    these names."""
    counts: dict[str, int] = {}
    for mark in marks:
        label = listed_label(mark)
        if label:
            counts[label] = counts.get(label, 0) + 1
    targets: dict[str, Mark] = {}
    for mark in marks:
        label = listed_label(mark)
        if label:
            targets[label if counts[label] == 1 else f"{label} #{mark.number}"] = mark
    return targets


def compact_listing(marks: Sequence[Mark], header: bool = True) -> str:
    """The marks as prompt text, one line each, in their numbered order."""
    lines = [LISTING_HEADER] if header else []
    lines.extend(mark_line(mark) for mark in marks)
    return "\n".join(lines)


def baseline_listing(elements: Sequence[Element]) -> str:
    """The verbose format common in desktop-agent benchmarks, for comparison: one tab-separated
    row per accessibility node with tag, name, text, class, description, position and size."""
    lines = ["tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)"]
    for element in elements:
        box = element.box
        lines.append(
            "\t".join(
                [
                    element.role,
                    element.name,
                    element.text.replace("\n", "\\n"),
                    element.app,
                    "",
                    f"({box.x}, {box.y})",
                    f"({box.width}, {box.height})",
                ]
            )
        )
    return "\n".join(lines)


# --- relevance pruning ---------------------------------------------------------------------------

#: Words that say nothing about which element is meant.
_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "and",
        "or",
        "with",
        "into",
        "from",
        "by",
        "is",
        "it",
        "this",
        "that",
        "then",
        "my",
        "your",
        "please",
        "open",
        "click",
        "press",
        "select",
        "type",
        "enter",
        "write",
        "set",
        "make",
        "use",
    ]
)
#: Instruction words that point at kinds of elements rather than at labels.
_ROLE_HINTS: dict[str, frozenset[str]] = {
    "type": frozenset(
        {"entry", "text", "document text", "paragraph", "combo box", "password text"}
    ),
    "write": frozenset({"entry", "text", "document text", "paragraph"}),
    "enter": frozenset({"entry", "text", "combo box", "password text"}),
    "search": frozenset({"entry", "combo box"}),
    "menu": frozenset({"menu", "menu item"}),
    "tab": frozenset({"page tab"}),
    "cell": frozenset({"table cell"}),
    "link": frozenset({"link"}),
    "paragraph": frozenset({"paragraph"}),
}


def _words(text: str) -> set[str]:
    return {word.lower() for word in word_parts(text)}


def relevance(mark: Mark, query: str) -> float:
    """How likely ``mark`` is what an instruction about ``query`` needs: word overlap with its
    label and value (prefix matches count half), a bonus for role hints, and a small bonus for
    focused and dialog-like elements, which the next step usually involves."""
    query_words = _words(query) - _STOP_WORDS
    text_words = _words(f"{mark.label} {mark.value}")
    score = 0.0
    for word in query_words:
        if word in text_words:
            score += 2.0
        elif len(word) >= 3 and any(t.startswith(word) or word.startswith(t) for t in text_words):
            score += 1.0
    lowered = query.lower()
    for hint, roles in _ROLE_HINTS.items():
        if hint in lowered and mark.role in roles:
            score += 0.5
    if "focused" in mark.states:
        score += 0.3
    return score


def prune_marks(marks: Sequence[Mark], query: str, limit: int = 20) -> list[Mark]:
    """The ``limit`` marks most relevant to ``query``, in their original order and with their
    original numbers (so they still match the Set-of-Mark image).

    Small local models pick far better from about twenty elements than from two hundred. Ties
    keep reading order, so with a query that matches nothing the first marks are kept.
    """
    if limit <= 0:
        raise ValueError("limit must be positive")
    if len(marks) <= limit:
        return list(marks)
    ranked = sorted(marks, key=lambda mark: (-relevance(mark, query), mark.number))
    chosen = {mark.number for mark in ranked[:limit]}
    return [mark for mark in marks if mark.number in chosen]
