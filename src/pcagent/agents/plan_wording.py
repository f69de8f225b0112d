"""Plan descriptions without "open the application" clauses the run does by itself.

A subtask starts in its application: the run opens it by rule before the Decision agent is
asked (:mod:`pcagent.runtime.subtasks`). A small model's plan still says so ("Open the calculator
in the calculator app and compute the days between the dates"), and its Decision agent, with the
calculator already in front, then clicked the calculator's "Calculator" menu four times to
"open the calculator". The clause that only opens the subtask's own application is dropped from
its description, and a subtask that does nothing else is dropped from the plan when another
subtask works in that application. A clause that opens a file ("Open memo.txt in the text
editor", "Open it in the code editor") is kept: it is work.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pcagent.agents.plan import Plan, SubtaskSpec

#: Words an opening clause may have besides the application's own ("Open the web browser and
#: go to the internet").
_OPENING_WORDS = frozenset(
    {
        *("open", "opens", "launch", "start", "run", "bring", "go", "navigate", "switch"),
        *("focus", "to", "the", "a", "an", "app", "application", "program", "window", "in"),
        *("on", "up", "front", "internet", "and", "then"),
    }
)
_VERBS = frozenset({"open", "launch", "start", "run", "bring", "go", "navigate", "switch"})
#: Where a description's first clause ends.
_CLAUSE_END = re.compile(r"\s*(?:[,;.]\s*(?:and\s+|then\s+)*|\s+and\s+(?:then\s+)?|\s+then\s+)")
_WORD = re.compile(r"[a-z0-9]+")


def _app_words(app: str, description: str) -> set[str]:
    words = set(_WORD.findall(f"{app.replace('_', ' ')} {description}".lower()))
    return words | {w[:-1] for w in words if w.endswith("s") and len(w) > 3}


def opens_only(text: str, app: str, apps: Mapping[str, str]) -> bool:
    """Whether ``text`` does nothing but open ``app``: it starts with an opening verb and has
    no word but opening words and the application's own."""
    words = _WORD.findall(text.lower())
    if not words or words[0] not in _VERBS or app not in apps:
        return False
    allowed = _OPENING_WORDS | _app_words(app, apps[app])
    return all(word in allowed for word in words)


def without_opening(description: str, app: str, apps: Mapping[str, str]) -> str:
    """``description`` without a first clause that only opens ``app``; unchanged when it has
    none, or when nothing else would be left."""
    match = _CLAUSE_END.search(description)
    if match is None:
        return description
    first, rest = description[: match.start()], description[match.end() :].strip()
    if not rest or not opens_only(first, app, apps):
        return description
    return rest[0].upper() + rest[1:]


def drop_openings(plan: Plan, apps: Mapping[str, str]) -> Plan:
    """The plan with opening clauses dropped, and subtasks that only open an application
    dropped when another subtask works in it and nothing depends on them for a value."""
    kept: list[SubtaskSpec] = []
    dropped: dict[str, list[str]] = {}
    for subtask in plan.subtasks:
        others = [s for s in plan.subtasks if s is not subtask and s.app == subtask.app]
        if (
            subtask.app
            and others
            and not subtask.outputs
            and opens_only(subtask.description, subtask.app, apps)
        ):
            dropped[subtask.id] = subtask.depends_on
            continue
        text = without_opening(subtask.description, subtask.app, apps)
        kept.append(subtask.model_copy(update={"description": text}))
    if not dropped:
        return Plan(subtasks=kept)
    # what waited for a dropped subtask waits for what it waited for
    return Plan(
        subtasks=[
            s.model_copy(
                update={
                    "depends_on": list(
                        dict.fromkeys(d for dep in s.depends_on for d in dropped.get(dep, [dep]))
                    )
                }
            )
            for s in kept
        ]
    )
