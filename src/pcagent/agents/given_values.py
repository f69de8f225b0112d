"""Literals a program may only copy, never invent: a web address must be one the instruction
names, a number to compute with one the instruction or an earlier step gives, a file's name and a
text to write ones the instruction or an earlier step holds.

A small planner that does not know where something is writes an address it makes up (a maps
viewer with coordinates, a vendor's home page); the page is missing or wrong, and the run goes
on from nothing. A skill marks such a parameter ``given`` (``json_schema_extra={"given":
True}``); a literal for it must appear in the instruction, or the program is re-asked with the
problem, so the model finds the page another way (a web search) or passes on an address an
earlier step found. An arithmetic parameter is marked ``given: "numbers"``: a planner that has
not looked a price up writes one ("1000 - 1500"); the numbers of its literal must stand in the
instruction or in a value found, or be a unit of counting (:data:`UNIT_NUMBERS`) in a
computation of two values or more, else it is
re-asked to refer to the found values (``{s2.price}``). A path is marked ``given: "file"``: a
planner shown other tasks' programs copies their file names, and their folders below HOME's own
(a document the instruction asks for in Documents was saved in the "Quarterly" folder of a
program shown). A folder to make or fill is marked ``given: "folder"``. Rows of cells are marked
``given: "cells"``: a number in a cell must stand in the instruction or a value found (a
planner fills the result's cell with a number of its own, "0" or the instruction's addend,
where it should refer to the step that worked the result out). A text to write is marked
``given: "text"``: a planner writes a description of the text ("English translation of the
Chinese text") where a language step should write the text. A web search's words are
marked ``given: "search"``: at least half of their longer words must stand in the instruction
or a value found (:func:`grounded`); a planner shown other tasks' programs searched for their
films ("Paper Lanterns running time", a rewording of pc11, 2026-11-28). A date (``given: "date"``)
must be written there in some form (a planner counted days between dates of its own, pc05r1).
This checks the model's output against the text it was given, as a reported value is checked
against what was read: it refuses, it never decides a step.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from pcagent.agents.given_dates import date_doubt, ungiven_date
from pcagent.agents.plan import Doubt
from pcagent.agents.program import SLOT, Program, written_path
from pcagent.env.web_address import is_address
from pcagent.skills import SkillCatalog
from pcagent.text import contains, shortened, single_spaced, word_written

#: Numbers a computation may bring on its own: small counts and the units of time, percent
#: and thousands ("minutes / 60", "* 100").
UNIT_NUMBERS = frozenset({*range(0, 13), 24, 30, 31, 60, 100, 365, 366, 1000})
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def given_parameters(catalog: SkillCatalog, skill: str) -> dict[str, str]:
    """The parameters of ``skill`` whose literals must come from what the planner was given,
    with what they hold: "address", "numbers", "number", "offset", "cells", "file", "folder",
    "text", "search", "date" or "form"."""
    return {
        name: marked if isinstance(marked, str) else "address"
        for name, marked in catalog.marked(skill, "given").items()
        if marked
    }


def address_core(address: str) -> str:
    """An address as a person would write it: no scheme, no "www.", no trailing slash,
    casefolded ("https://www.Example.org/" -> "example.org")."""
    text = address.strip().casefold()
    for prefix in ("https://", "http://"):
        text = text.removeprefix(prefix)
    return text.removeprefix("www.").rstrip("/")


def _named_in(value: str, text: str) -> bool:
    """Whether ``text`` names the address ``value``: its whole core, or, for a page deeper in
    a site, the site (a page of a named site may be found by its path)."""
    core = address_core(value)
    folded = text.casefold()
    return bool(core) and (core in folded or core.split("/", 1)[0] in folded)


def unnamed_address(value: str, given: Sequence[str]) -> bool:
    """Whether the address literal ``value`` is one no given text names, or no address at all
    but words the browser would search for ("Chromium", the program's name, which the given
    instruction holds: a rewording of pc03, 2026-11-28); a reference to an earlier step's value
    is found, not written, where it stands for the site ("{s2.link}", "https://{s2.site}/"):
    a site written before it ("https://www.google.com/search?q={s2.place}") is not (pc06r2)."""
    if slot := SLOT.search(value):  # a site before the slot is the model's own (docs/skills.md)
        head = address_core(value[: slot.start()])
        site = head.split("/", 1)[0]
        return "/" in head and not any(site in text.casefold() for text in given)
    return not is_address(value) or not any(_named_in(value, text) for text in given)


#: A number as a given text holds one: not the end of a name ("test_doc1.docx" gives no 1: a
#: title was set in 1 pt on pc22, 2026-11-28, the file's name having "given" the size).
_GIVEN_NUMBER = re.compile(r"(?<![A-Za-z_])\d+(?:\.\d+)?")


def _numbers(text: str) -> set[float]:
    return {float(number) for number in _GIVEN_NUMBER.findall(text.replace(",", ""))}


def known_numbers(given: Sequence[str]) -> set[float]:
    """Every number the given texts hold."""
    return set().union(*(_numbers(text) for text in given)) if given else set()


def _invented_numbers(literal: str, given: Sequence[str]) -> list[str]:
    """The numbers of ``literal`` (its references left out) that no given text holds and that
    are no unit of counting. A unit of counting is taken only in a computation of two values
    or more (references, or numbers given or found): one value scaled by a unit is a
    conversion nobody asked for where the unit is not given (a travel time found as "38 min"
    computed as "60 * {s4}", told as 2280 and the run "finished": pc02, 2026-12-02)."""
    known = known_numbers(given)
    numbers = _NUMBER.findall(SLOT.sub(" ", literal))
    values = len(SLOT.findall(literal)) + sum(float(number) in known for number in numbers)
    units = UNIT_NUMBERS if values >= 2 else frozenset()
    return [
        number for number in numbers if float(number) not in known and float(number) not in units
    ]


def cell_number(cell: object) -> float | None:
    """The number a cell literal holds (3, "1,250", "-4.5"); None for a text, a formula or a
    reference."""
    if isinstance(cell, bool):
        return None
    if isinstance(cell, int | float):
        return float(cell)
    if isinstance(cell, str):
        try:
            return float(cell.replace(",", "").strip())
        except ValueError:
            return None
    return None


def _ungiven_number(step_id: str, name: str, value: object, given: Sequence[str]) -> list[Doubt]:
    """A doubt for a number parameter's literal that no given text holds (no unit of counting
    exempt: a font size is a value the instruction says). Seen on a rewording of pc22
    (2026-11-28): "one font size step bigger" written as ``font_size: 2``, a title set in 2 pt
    and the run "finished"."""
    number = cell_number(value)
    if number is None or number in known_numbers(given):
        return []
    return [
        Doubt(
            step_id,
            f"{name}={value!r}: neither the instruction nor an earlier step gives {number:g}; "
            "give only a number the instruction says, or say what it asks with the skill's "
            "other parameters",
        )
    ]


def _ungiven_offset(step_id: str, name: str, value: object, given: Sequence[str]) -> list[Doubt]:
    """A doubt for an amount a time is moved by that no given text holds and that is no unit
    of counting ("an hour before" is written 1, which the instruction may say only in words)."""
    number = cell_number(value)
    if number is None or number in UNIT_NUMBERS or number in known_numbers(given):
        return []
    return [
        Doubt(
            step_id,
            f"{name}={value!r}: neither the instruction nor an earlier step gives {number:g}: "
            "refer to the value found that says how long (a travel time: "
            '{"from": "s3", "key": "minutes"}), or give the amount the instruction says',
        )
    ]


def invented_cells(rows: object, given: Sequence[str]) -> list[tuple[int, int]]:
    """Where ``rows`` (a sheet's rows, as a program writes them) hold a number that no given
    text holds: (row, column) of each such cell."""
    if not isinstance(rows, list):
        return []
    known = known_numbers(given)
    return [
        (at, column)
        for at, row in enumerate(rows)
        if isinstance(row, list)
        for column, cell in enumerate(row)
        if (number := cell_number(cell)) is not None and number not in known
    ]


def _ungiven_cells(step_id: str, name: str, rows: object, given: Sequence[str]) -> list[Doubt]:
    """A doubt for each number written into a cell that no given text holds (no unit of
    counting is exempt: a cell's number is a value, not a step of arithmetic)."""
    spots = invented_cells(rows, given)
    if not spots or not isinstance(rows, list):
        return []
    shown = ", ".join(repr(rows[row][column]) for row, column in spots)
    return [
        Doubt(
            step_id,
            f"{name} writes {shown}, which neither the instruction nor an earlier step gives: "
            'refer to the step that finds or works the value out ({"from": "s4"}), or copy '
            "the instruction's number",
        )
    ]


#: Why a text to write that nobody gave is doubted.
_MADE_UP_TEXT = (
    "this text is neither in the instruction nor found by an earlier step: write it with "
    "compose_text or translate_text and refer to that step, or copy the instruction's words"
)


#: Why the instruction written out as the text to write is doubted.
_INSTRUCTION_AS_TEXT = (
    "this text is the instruction itself: write what it asks for (words it gives to write, "
    "or a text an earlier step finds, composes or translates)"
)
#: How much of the instruction a text to write may copy before it is the instruction itself
#: (a terse "Type: Dear team, we meet at 3" gives nine tenths of itself to type).
_MOST_OF_INSTRUCTION = 0.95


def made_up_text(text: str, given: Sequence[str]) -> bool:
    """Whether ``text``, to be written, is in none of ``given`` and refers to no value found
    (the doubt :data:`_MADE_UP_TEXT`)."""
    return _text_problem(text, given) == _MADE_UP_TEXT


def _text_problem(text: str, given: Sequence[str]) -> str:
    """Why ``text``, to be written, is not one the planner was given ("" when it is): it is
    in none of ``given``, or it copies :data:`_MOST_OF_INSTRUCTION` or more of the
    instruction (``given[0]``). Seen:
    asked to store a mail's attachment and fix it, the 1.5B Manager wrote the instruction into
    the script as its text; every literal of it stood in the instruction."""
    if SLOT.search(text):
        return ""
    if not any(contains(t, text) for t in given):
        return _MADE_UP_TEXT
    instruction = single_spaced(given[0]) if given else ""
    if instruction and len(single_spaced(text)) >= _MOST_OF_INSTRUCTION * len(instruction):
        return _INSTRUCTION_AS_TEXT
    return ""


#: How a doubt of a file or folder nothing given names begins.
_UNNAMED = "neither the instruction nor an earlier step names"


def _file_problem(path: str, given: Sequence[str]) -> str:
    """Why ``path``'s file is not one a given text names ("" when it is): its name without the
    folder and the ending must stand in one of them, compared casefolded ("Documents/
    population.xlsx" is named by "save it as population"), and where they write it with an
    ending, with that ending: a planner that picks the text file's reader for "test_doc3.docx"
    reads "test_doc3.txt", a file that is not there.

    In a name made with a value found (``{s2.city}_notes.txt``), the words written around the
    value must be given: a planner copied an example's ``reminder_card`` around a found time."""
    file = written_path(SLOT.sub("", path))
    stem = file.stem.casefold().strip("_-. ")
    if not stem:
        return ""
    unnamed = _folder_problem(file.parent, given)
    if unnamed:
        return unnamed
    written = {ending for text in given for ending in _endings_after(text, stem)}
    if not written:
        return (
            f"{_UNNAMED} this file; take its name from "
            "the instruction (the examples' files are other tasks')"
        )
    if "" not in written and file.suffix.casefold() not in written:
        endings = " or ".join(sorted(written))
        return f"the instruction writes this file's name with {endings}: keep it"
    return ""


def _folder_problem(folder: PurePosixPath, given: Sequence[str]) -> str:
    """Why ``folder`` is not one a given text names ("" when it is). HOME's own folders
    (``Documents``, ``Downloads``...) are on every desktop and a planner may name them by habit,
    so only the folders below them are looked for (``Trips`` of ``Documents/Trips``); an
    absolute path is another check's (it must lead into HOME)."""
    if folder.is_absolute():
        return ""
    unnamed = [part for part in folder.parts[1:] if not any(contains(t, part) for t in given)]
    if not unnamed:
        return ""
    return (
        f"{_UNNAMED} the folder {unnamed[0]!r}; use "
        "the folders the instruction names (the examples' folders are other tasks')"
    )


def _endings_after(text: str, stem: str) -> list[str]:
    """The endings (".docx") written right after ``stem`` in ``text``, "" where it stands bare
    ("save it as test_doc3": any ending may follow)."""
    folded = text.casefold()
    endings = []
    start = folded.find(stem)
    while start >= 0:
        rest = folded[start + len(stem) :]
        if rest[:1] == "." and rest[1:2].isalnum():
            endings.append("." + "".join(itertools.takewhile(str.isalnum, rest[1:])))
        elif not rest[:1].isalnum():
            endings.append("")
        start = folded.find(stem, start + 1)
    return endings


#: Words this short ("to", "the", "of") say nothing of what is searched for; a longer word is
#: looked for by its first letters (:func:`~pcagent.text.word_written`).
_SHORT = 3
_WORD = re.compile(r"\w+")


def words_of(text: str) -> list[str]:
    """The words of a literal, its slots (``{s2.place}``) left out."""
    return _WORD.findall(SLOT.sub(" ", text))


def grounded(query: str, given: Sequence[str]) -> bool:
    """Whether at least half of the query's words longer than :data:`_SHORT` letters stand in
    ``given`` (the instruction, the values found), a reference to an earlier step counting as
    found."""
    words = [w for w in words_of(query) if len(w) > _SHORT]
    known = sum(word_written(word, given) for word in words)
    found = len(SLOT.findall(query))
    return bool(words or found) and 2 * (known + found) >= len(words) + found


#: The doubt of a search for words nobody gave (an example's film, copied with its program).
UNGROUNDED_SEARCH = (
    "most of its words are neither in the instruction nor in a value found: search for what "
    "the instruction asks about, in its words or by reference to a value found"
)


def ungiven_literals(program: Program, catalog: SkillCatalog, given: Sequence[str]) -> list[Doubt]:
    """A doubt for each literal of a ``given`` parameter that none of ``given`` (the
    instruction first, then what earlier steps found) names."""
    problems = []
    for step in program.steps:
        for name, holds in given_parameters(catalog, step.skill).items():
            value = step.args.get(name)
            if holds == "cells":
                problems.extend(_ungiven_cells(step.id, name, value, given))
                continue
            if holds == "number":
                problems.extend(_ungiven_number(step.id, name, value, given))
                continue
            if holds == "offset":
                problems.extend(_ungiven_offset(step.id, name, value, given))
                continue
            items = value if isinstance(value, list) else [value]
            for item in items:
                if not isinstance(item, str):
                    continue  # a reference: found by an earlier step
                if holds == "folder":
                    folder = written_path(item)
                    problem = "" if SLOT.search(item) else _folder_problem(folder, given)
                    if problem:
                        problems.append(
                            Doubt(step.id, f"{name}={item!r}: {problem}", unnamed_path=item)
                        )
                elif holds == "file":
                    problem = _file_problem(item, given) if item else ""
                    if problem:
                        # An ending other than the one the instruction writes names it still.
                        unnamed = item if problem.startswith(_UNNAMED) else ""
                        problems.append(
                            Doubt(step.id, f"{name}={item!r}: {problem}", unnamed_path=unnamed)
                        )
                elif holds == "text":
                    problem = _text_problem(item, given)
                    if problem:
                        problems.append(
                            Doubt(step.id, f"{name}={shortened(item, 80)!r}: {problem}")
                        )
                elif holds == "numbers":
                    invented = _invented_numbers(item, given)
                    if invented:
                        problems.append(
                            Doubt(
                                step.id,
                                f"{name}={item!r} computes with {', '.join(invented)}, which "
                                "neither the instruction nor an earlier step gives: find the "
                                "values first and refer to them, as in {s2.price}",
                            )
                        )
                elif holds == "search":
                    if not grounded(item, given):
                        problems.append(Doubt(step.id, f"{name}={item!r}: {UNGROUNDED_SEARCH}"))
                elif holds == "date":
                    if ungiven_date(item, given):
                        problems.append(date_doubt(step.id, name, item))
                elif unnamed_address(item, given):
                    what = "is not in the instruction" if is_address(item) else "is no address"
                    problems.append(
                        Doubt(
                            step.id,
                            f"{name}={item!r} {what}: use an address it gives, one an earlier "
                            "step finds, or search for it first",
                        )
                    )
    return problems
