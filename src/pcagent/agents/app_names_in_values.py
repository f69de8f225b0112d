"""An application's name written into a step's values: a doubt.

Why: told "open that in Mousepad, then check in Chromium how long the journey takes", the 1.5B
planner typed "Mousepad" into the editor, followed a link "Mousepad" and searched the web for
"Mousepad journey from the Empire State Building ..." (a rewording of pc02, 2026-11-28, twice
at two commits, and the Manager's line naming the applications did not stop it). Which words of
the instruction name an application is the instruction reading's (a model's, :mod:`named_apps`);
that a step's literal holds one of those names is in the typed program. The name of a program
(Mousepad, Chromium, Thunderbird) is the way to do the task, not a value to type, follow or
search for, so such a step is a doubt the Manager is re-asked with. Screen steps are not judged:
"open Chromium and ..." is how their words say where to work. The same names, and those of the
files the instruction names, are mended out of a web search's words before anything is judged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import PurePosixPath

from pcagent.agents.given_values import given_parameters
from pcagent.agents.named_apps import AskedApp, known_as
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, literal_texts
from pcagent.applications import APPLICATIONS
from pcagent.skills import SkillCatalog
from pcagent.text import contains


def _program_names(asked: Sequence[AskedApp]) -> dict[str, str]:
    """The programs' names the instruction calls its applications by (casefolded), with the
    application each stands for."""
    return {
        name.casefold(): use.app
        for use in asked
        for name in known_as(use.app)
        if contains(use.words, name)
    }


def _as_word(name: str) -> str:
    """A pattern of ``name`` as a word of its own ("Mousepads" does not hold "Mousepad")."""
    return rf"(?<!\w){re.escape(name)}(?!\w)"


def app_names_in_values(program: Program, asked: Sequence[AskedApp]) -> list[Doubt]:
    """A doubt for each skill step of ``program`` whose literal arguments hold the name by
    which the instruction calls one of the applications ``asked`` for."""
    names = _program_names(asked)
    if not names:
        return []
    doubts = []
    for step in program.steps:
        if step.skill == GUI:
            continue
        texts = " | ".join(literal_texts(step.args)).casefold()
        for name, app in names.items():
            if re.search(_as_word(name), texts):
                doubts.append(
                    Doubt(
                        step.id,
                        f'{step.id} has "{name}" in its arguments: in the instruction it names '
                        f"the {app}, the application to work in, not a value to type, follow or "
                        f"search for. Leave the name out ({step.skill} works in its application "
                        "itself)",
                    )
                )
                break
    return doubts


def app_names_as_contents(program: Program, catalog: SkillCatalog) -> list[Doubt]:
    """A doubt for each cell or text to write (parameters marked ``given: "cells"`` or
    ``"text"``) that is, whole, the name of an application ("calc", "Mousepad", "web"). Why:
    told to put three companies' share prices into "a blank Calc workbook", the 1.5B planner
    filled the price column with "calc", three times, and wrote a file holding "calc" (a
    rewording of pc07, 2026-12-04). An application's name is where the work is done, never
    the whole of what goes into a file. Judged on the typed literal alone, for any
    application pcagent knows (no reading of the instruction needed)."""
    doubts = []
    for step in program.steps:
        for name, holds in given_parameters(catalog, step.skill).items():
            if holds not in ("cells", "text"):
                continue
            named = [t for t in literal_texts(step.args.get(name)) if _app_name(t)]
            if named:
                doubts.append(
                    Doubt(
                        step.id,
                        f"{name} holds {named[0]!r}, the name of an application, not a value "
                        "to write: write the values the instruction asks for there (found by "
                        'an earlier step: {"from": "s2", "key": "price"})',
                        own=True,
                    )
                )
    return doubts


def _app_name(text: str) -> bool:
    """Whether ``text`` is, whole, a name an application is known by."""
    return text.strip().casefold() in _application_names()


@cache
def _application_names() -> frozenset[str]:
    return frozenset(
        name.casefold()
        for app in APPLICATIONS.values()
        for name in (app.program, app.title_hint, *app.also_called)
        if name
    )


def without_app_names_in_searches(
    program: Program, asked: Sequence[AskedApp], catalog: SkillCatalog
) -> Program:
    """``program`` with the names by which the instruction calls its applications left out of
    the words of each web search (a skill that ``page="searches"``), where other words remain."""
    return without_words_in_searches(program, _program_names(asked), catalog)


def file_names(named: Sequence[str]) -> list[str]:
    """The names of the files the instruction names, and of their folders: each part of each
    path ("Documents/memo.txt": "Documents/memo.txt", "Documents", "memo.txt")."""
    parts = {part for path in named for part in (path, *PurePosixPath(path).parts)}
    return sorted(part for part in parts if part not in ("", "/", "~"))


def without_words_in_searches(
    program: Program, names: Iterable[str], catalog: SkillCatalog
) -> Program:
    """``program`` with ``names`` (each as a word of its own, any case) left out of the words
    of each web search (a skill that ``page="searches"``), where other words remain.

    Why files too: a file on this computer is nothing the web knows, and the 1.5B planner put
    its name in the search ("memo.txt Documents 14:00 Empire State Building travel time", pc02,
    2026-11-29), which the search engine matches on; the names are the named-files reading's,
    a model's, and what is mended is the program's typed argument."""
    words = sorted({name for name in names if name.strip()}, key=len, reverse=True)
    if not words:
        return program
    pattern = re.compile("|".join(map(_as_word, words)), re.IGNORECASE)
    steps = []
    for step in program.steps:
        if step.skill in catalog and catalog.get(step.skill).page == "searches":
            args = dict(step.args)
            for key, value in step.args.items():
                if isinstance(value, str):
                    left = " ".join(pattern.sub(" ", value).split())
                    args[key] = left or value
            step = step.model_copy(update={"args": args})
        steps.append(step)
    return program.model_copy(update={"steps": steps})
