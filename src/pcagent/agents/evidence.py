"""Whether a reported value could have come from what the run saw.

The Progress agent reports a subtask's values without seeing the screen: it is told the action
and its effect, and a small model fills the value in from nothing (a memo's "10:15" became
"2023-04-01T10:00:00", and the next subtask set an alarm from it). A value it reports is kept
only when the text it was read from supports it: the value itself, or every number in it, or
every word of it, appears in that text (the listing the step saw, what the last action read,
the instruction, the values already known). A computed value ("one hour before") is the
Decision agent's to report, with ``answer``, which is not checked here.

The task's own words are evidence only for short values: a small model also "reports" the
question as its answer (``second_event = The second event of the morning``,
``labour_day = International Labour Day 2025``), which the instruction supports word by word, and
the next subtask then had nothing to act on. A value of several words and numbers, all of them
the task's, is such a restatement (:func:`restates`), and is kept only when the desktop showed
it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pcagent.text import comparable, lines_holding, same_date_written

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset({"the", "and", "for", "with", "of", "a", "an", "in", "to"})


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def plain_words(text: str) -> list[str]:
    """The words of ``text``, lower-case, stemmed, without the commonest little words."""
    return [_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP]


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = re.compile(r"[^\W\d_]+")
_DIGITS = re.compile(r"\d+")


def _plain(number: str) -> str:
    """A number without separators and leading zeros: "1,275" and "1275", "08" and "8" agree."""
    return re.sub(r"[.,]", "", number).lstrip("0") or "0"


def _numbers_in(text: str) -> set[str]:
    """Every number of ``text``, whole ("11.03.2025") and by its digit runs (11, 3, 2025)."""
    found = {_plain(number) for number in _NUMBER.findall(text)}
    return found | {_plain(run) for run in _DIGITS.findall(text)}


def supported(value: str, evidence: str) -> bool:
    """Whether ``value`` appears in ``evidence``: as a whole (case and spacing aside), or, for a
    value with numbers, each of its numbers there, whole or digit run by digit run (so "10:15"
    is supported by "10:15  Team meeting" and "2023-04-01" is not), or, for a value without
    numbers, each of its words."""
    wanted, seen = comparable(value), comparable(evidence)
    if not wanted:
        return False
    if wanted in seen or same_date_written(value, evidence):
        return True
    numbers = _NUMBER.findall(wanted)
    if numbers:
        present = _numbers_in(seen)
        return all(
            _plain(number) in present
            or all(_plain(run) in present for run in _DIGITS.findall(number))
            for number in numbers
        )
    words = _WORD.findall(wanted)
    present_words = set(_WORD.findall(seen))
    return bool(words) and all(word in present_words for word in words)


#: Fewest words and numbers a value must have before the task's own words alone no longer support
#: it (a name such as "Paris" may be copied from the instruction; a phrase of it may not).
RESTATED_TOKENS = 3


def restates(value: str, asked: str) -> bool:
    """Whether ``value`` is only the task's own wording (``asked``: the instruction and the
    subtask) given back: at least :data:`RESTATED_TOKENS` words and numbers, every one of them
    asked ("International Labour Day 2025" for the date of that day)."""
    wanted, question = comparable(value), comparable(asked)
    tokens = _WORD.findall(wanted) + _DIGITS.findall(wanted)
    if len(tokens) < RESTATED_TOKENS:
        return False
    asked_tokens = set(_WORD.findall(question)) | {_plain(n) for n in _DIGITS.findall(question)}
    return all(
        (token if not token.isdigit() else _plain(token)) in asked_tokens for token in tokens
    )


def found(value: str, evidence: str, asked: str, shown: str) -> bool:
    """Whether a reported value is supported: by ``evidence`` (what the run saw, the step's
    action, known values) or the task's words ``asked``; a value that restates the task's words
    only by what the desktop ``shown`` (the listing, what was read): the step's action, such as
    ``done("The second event of the morning is read")``, is the same model's words again."""
    if restates(value, asked):
        return supported(value, shown)
    return supported(value, evidence) or supported(value, asked)


#: How a small model "reports" a value it did not find.
_NOTHING_FOUND = re.compile(
    r"\b(?:not (?:found|available|known|given|shown|listed|specified|mentioned)|no (?:information|"
    r"data|results?|value)|cannot be found|could not (?:be )?f(?:ou|i)nd|unknown)\b"
)


def empty_answer(text: str, names: Sequence[str], asked: str) -> str | None:
    """Why an ``answer`` carries no value, or None when it may: a small model answered with the
    name of the value it was to report (``answer("s1_found")``) or with the question."""
    plain = comparable(text.replace("_", " "))
    if any(plain == comparable(name.replace("_", " ")) for name in names):
        return "it gives the name of the value, not the value"
    if restates(text, asked):
        return "it repeats the task's words, not what was found"
    if _NOTHING_FOUND.search(plain) or plain in {"none", "unknown", "n/a", "na", "-", "?"}:
        return "it says the value was not found"
    if _RESULT_COUNT.match(plain):
        return "it is the number of search results, not a value on them"
    return None


#: A search page's count of its results ("About 10 results"), which a small model reported as
#: the travel time it was looking for.
_RESULT_COUNT = re.compile(r"^(?:about\s+)?[\d,.]+\s+(?:results?|hits|matches)\.?$")


#: Longest line a found value is widened to.
LINE_LIMIT = 160


def whole_line(value: str, reading: str) -> str:
    """``value``, a value of words alone, widened to the one line of ``reading`` it stands on,
    when it stands on exactly one short line ("Review of the budget" -> "11:30  Review of the
    budget"): a small model copies the words and drops the time or number beside them, which
    the next subtask needs."""
    wanted = comparable(value)
    if not wanted or _DIGITS.search(wanted):
        return value  # a value with its number already is what was asked for
    lines = lines_holding(wanted, reading)
    if len(lines) != 1 or len(lines[0]) > LINE_LIMIT or comparable(lines[0]) == wanted:
        return value
    return lines[0]


#: One named thing of a list: one to three capitalised words ("Microsoft", "New York City").
