"""What the Decision prompt leaves out, so a small local model reads fewer tokens per step.

Two parts of the prompt grow without helping every step: the screen's marks, which only an
action that points or types can use, and the readings earlier subtasks handed over (a whole
search page, a whole document), of which a subtask usually needs a few lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pcagent.agents.evidence import plain_words

#: Most characters of one value from an earlier subtask shown to Decision.
HUB_VALUE_CHARACTERS = 700
#: Most characters of one argument shown where a skill call is the subtask's words.
ARGUMENT_CHARACTERS = 300
#: Said instead of the marks when no offered action can use them.
MARKS_LEFT_OUT = "(marks not shown: this step's actions neither point nor type)"


def screen_marks(listing: str, pointing: bool) -> str:
    """``listing`` as it is when an offered action points or types; otherwise only its focused
    marks, which still tell the model where it is."""
    if pointing:
        return listing
    focused = [line for line in listing.splitlines()[1:] if " focused" in line]
    return "\n".join([MARKS_LEFT_OUT, *focused])


def relevant_text(text: str, about: str, limit: int = HUB_VALUE_CHARACTERS) -> str:
    """``text`` when short; otherwise its lines that share a word with ``about`` (the subtask and
    the task), in their order, clipped to ``limit`` characters with a note of what was cut."""
    if len(text) <= limit:
        return text
    wanted = set(plain_words(about))
    lines = [line for line in text.splitlines() if wanted.intersection(plain_words(line))]
    kept = "\n".join(lines) if lines else text
    if len(kept) > limit:
        kept = kept[:limit]
    return f"{kept} […{len(text) - len(kept)} characters of it not shown]"


def relevant_values(values: Mapping[str, str], about: Iterable[str]) -> dict[str, str]:
    """Each value as :func:`relevant_text` of it, against the words of ``about``."""
    words = " ".join(about)
    return {name: relevant_text(value, words) for name, value in values.items()}


#: Fewest characters of a value worth replacing by a pointer to where it is already shown.
REPEATED_VALUE_CHARACTERS = 80


def shown_once(values: Mapping[str, str], shown: str) -> dict[str, str]:
    """``values`` with a long value said once: one already in ``shown`` (a GUI subtask carries
    the values it uses in its own words) or under an earlier name becomes a pointer to it. A
    mail read by one step and handed on by two more was otherwise shown four times in one
    Decision prompt (about 400 tokens of a 2,900-token prompt, 2026-12-04)."""
    result: dict[str, str] = {}
    first_named: dict[str, str] = {}
    for name, value in values.items():
        text = value.strip()
        if len(text) < REPEATED_VALUE_CHARACTERS:
            result[name] = value
        elif text in shown:
            result[name] = "(shown in the subtask above)"
        elif text in first_named:
            result[name] = f"(the same as {first_named[text]})"
        else:
            first_named[text] = name
            result[name] = value
    return result


def fewer_marks(listing: str, keep: float = 0.5) -> str:
    """``listing`` with its header, its focused marks and the first ``keep`` share of the
    others: what is left when a prompt must shrink to fit the model's context (a long page lists
    hundreds of marks, and those near the top are the ones a model most often uses)."""
    lines = listing.splitlines()
    if len(lines) <= 2:
        return listing
    header, marks = lines[0], lines[1:]
    first = int(len(marks) * keep)
    kept = [line for index, line in enumerate(marks) if index < first or " focused" in line]
    left_out = len(marks) - len(kept)
    return "\n".join([header, *kept, f"(…{left_out} more marks not shown)"])


def skill_call_text(skill: str, args: Mapping[str, Any], about: str) -> str:
    """A skill call as the agents are told it is their subtask, each argument clipped to
    :data:`ARGUMENT_CHARACTERS`: a whole page of search results passed as a date (the 1.5B
    Manager's ``days_between`` on pc05, 2026-12-03) made the Progress prompt outgrow the
    model's context, and the run ended on that error instead of on the step's own failure."""
    shown = []
    for name, value in args.items():
        written = repr(value)
        if len(written) > ARGUMENT_CHARACTERS:
            written = f"{written[:ARGUMENT_CHARACTERS]}…[{len(written)} characters in all]"
        shown.append(f"{name}={written}")
    return f"{skill}({', '.join(shown)}): {about}".strip()


def decision_values(values: Mapping[str, str], subtask: str, task: str) -> dict[str, str]:
    """Earlier subtasks' values as the Decision prompt lists them: a long one once
    (:func:`shown_once`), each cut to its lines about the subtask and the task."""
    return relevant_values(shown_once(values, subtask), (subtask, task))


def reading_once(reading: str, subtask: str) -> str:
    """The latest reading (``step 5, mail_read: ...``) with a long text the subtask's own words
    already carry said once: a mail handed on in the subtask and read again on the screen
    stood twice in each Decision prompt of pc25 (about 150 tokens of 1,300, 2026-12-05)."""
    head, separator, text = reading.partition(": ")
    body = text.strip()
    if separator and len(body) >= REPEATED_VALUE_CHARACTERS and body in subtask:
        return f"{head}: (the same text as in the subtask above)"
    return reading
