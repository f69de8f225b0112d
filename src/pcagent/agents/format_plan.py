"""The formatting a subtask's words ask for, as the word processor's own format actions.

"Make the title bold, set the line spacing of the first two paragraphs to 1.5": each clause
names what to format (the title, the first N paragraphs of the text, the last one, paragraph
N) and how (bold, italic, underline, an alignment, a line spacing, a font size, one size step).
Asked to do it in a Decision step, the 1.5B model formatted the title and the first paragraph
together and never saved. Read off the words, each clause becomes one ``writer_format``.

Numbering follows ``writer_read``: the title is paragraph 0, so "the first two paragraphs" of
the text are 1 and 2; "the last paragraph" is the last that holds text, which needs the
document read first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_PLACES = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
#: Where one formatting clause ends and the next begins: ", " or " and " before a verb.
_CLAUSE = re.compile(
    r",\s*(?:and\s+)?|;\s*|\s+and\s+(?=(?:make|set|change|cent(?:er|re)|underline|bold|"
    r"italici[sz]e|increase|decrease|enlarge|reduce|align|justify|save)\b)",
    re.I,
)
_TITLE = re.compile(r"\b(?:its\s+|the\s+)?(?:title|heading)\b", re.I)
_FIRST_N = re.compile(r"\bfirst\s+(one|two|three|four|five|\d+)\s+paragraphs\b", re.I)
_LAST = re.compile(r"\blast\s+paragraph\b", re.I)
_NTH = re.compile(r"\b(first|second|third|fourth|fifth)\s+paragraph\b", re.I)
_NUMBERED = re.compile(r"\bparagraph\s+(\d+)\b", re.I)
_SPACING = re.compile(r"\bline\s+spacing\b[^,;]*?\b(\d+(?:\.\d+)?)\b", re.I)
_SIZE_TO = re.compile(r"\bfont\s+size\b[^,;]*?\bto\s+(\d+(?:\.\d+)?)\s*(?:pt|points?)?\b", re.I)
_LARGER = re.compile(r"\b(?:increase|enlarge|larger|bigger|raise)\b", re.I)
_SMALLER = re.compile(r"\b(?:decrease|reduce|smaller|shrink|lower)\b", re.I)
_ALIGN = {
    "center": re.compile(r"\bcent(?:er|re)(?:d|s)?\b", re.I),
    "right": re.compile(r"\b(?:right[- ]align|align\w*\b[^,;]*\bright)\b", re.I),
    "left": re.compile(r"\b(?:left[- ]align|align\w*\b[^,;]*\bleft)\b", re.I),
    "justify": re.compile(r"\bjustif(?:y|ied)\b", re.I),
}


@dataclass(frozen=True)
class FormatRequest:
    """One clause: which paragraphs ("title", "first", "last", "number") and what to set."""

    target: str
    count: int = 0
    changes: dict[str, Any] = field(default_factory=dict)

    def paragraphs(self, texts: list[str] | None) -> tuple[int, ...] | None:
        """The paragraph numbers it formats; None when that needs the document's paragraphs
        (``texts``, as ``writer_read`` numbers them) and they are not known."""
        if self.target == "title":
            return (0,)
        if self.target == "first":
            return tuple(range(1, self.count + 1))
        if self.target == "number":
            return (self.count,)
        if texts is None:
            return None
        filled = [number for number, text in enumerate(texts) if text.strip()]
        return (filled[-1],) if len(filled) > 1 else None


def _target(clause: str) -> FormatRequest | None:
    if match := _FIRST_N.search(clause):
        word = match.group(1).lower()
        return FormatRequest("first", _COUNTS.get(word) or int(word))
    if _LAST.search(clause):
        return FormatRequest("last")
    if match := _NTH.search(clause):
        return FormatRequest("number", _PLACES[match.group(1).lower()])
    if match := _NUMBERED.search(clause):
        return FormatRequest("number", int(match.group(1)))
    if _TITLE.search(clause):
        return FormatRequest("title")
    return None


def _changes(clause: str) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    if re.search(r"\bbold\b", clause, re.I):
        changes["bold"] = True
    if re.search(r"\bitalic", clause, re.I):
        changes["italic"] = True
    if re.search(r"\bunderlin", clause, re.I):
        changes["underline"] = True
    for alignment, pattern in _ALIGN.items():
        if pattern.search(clause):
            changes["alignment"] = alignment
            break
    if match := _SPACING.search(clause):
        changes["line_spacing"] = float(match.group(1))
    if re.search(r"\bfont\s+size\b|\bsize\b", clause, re.I):
        if match := _SIZE_TO.search(clause):
            changes["font_size"] = float(match.group(1))
        elif _LARGER.search(clause):
            changes["size_step"] = "larger"
        elif _SMALLER.search(clause):
            changes["size_step"] = "smaller"
    return changes


#: A clause that formats what the one before named ("make the title bold and center it").
_PRONOUN = re.compile(r"\b(?:it|them)\b", re.I)


def format_requests(description: str) -> list[FormatRequest]:
    """Each clause of ``description`` that names paragraphs and a format to give them, in
    order; a clause that says "it" or "them" formats the paragraphs the clause before named,
    in the same request ("make the title bold and center it": the title, bold and centred)."""
    requests: list[FormatRequest] = []
    named: FormatRequest | None = None
    for clause in _CLAUSE.split(description):
        target, changes = _target(clause), _changes(clause)
        if target is None and named is not None and _PRONOUN.search(clause):
            target = named
        if target is None:
            continue
        named = target
        if not changes:
            continue
        last = requests[-1] if requests else None
        if last is not None and (last.target, last.count) == (target.target, target.count):
            requests[-1] = FormatRequest(target.target, target.count, last.changes | changes)
        else:
            requests.append(FormatRequest(target.target, target.count, changes))
    return requests


def read_paragraphs(listing: str) -> list[str] | None:
    """The paragraphs of a ``writer_read`` listing ("0: Title" lines, as the run keeps it:
    "step 4, writer_read: 0: Title ..."); None when ``listing`` is not one."""
    listing = re.sub(r"^step \d+, writer_read: ", "", listing)  # as the run keeps a reading
    lines = [line for line in listing.splitlines() if line.strip()]
    numbered = [re.match(r"^(\d+): ?(.*)$", line) for line in lines]
    if not numbered or any(match is None for match in numbered):
        return None
    texts: dict[int, str] = {int(m.group(1)): m.group(2) for m in numbered if m is not None}
    if sorted(texts) != list(range(len(texts))):
        return None
    return [texts[number] for number in range(len(texts))]
