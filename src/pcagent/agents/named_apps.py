"""Every application the instruction asks for must be used by some step.

Why: a small planner reaches the result by another way than the one asked, each step it wrote
checks its own effect, and the run said "finished" (measured 2026-11-27: "a new spreadsheet ...
cell A1" written as a document by four generated tasks of seed 2027; "use Galculator to count
the days" counted them with made-up numbers and no calculator in pc23). Which applications an
instruction asks for is for a model to read: it picks each from the desktop's applications and
copies the words that ask for it; code keeps only picks whose words stand in the instruction
(an application the model supposes is needed, with no words to show for it, is dropped) and
checks that some step uses each: a skill of that application, or a screen step in it. An
application asked for that no step uses is a doubt: the Manager is asked again, and a program
kept with it cannot end the run "finished".

The file manager is read and checked like the others since 2026-11-27 (evening). It was left out
when the 1.5B model read every folder an instruction mentions ("save it in the Documents
folder") as asking for it (5 of 20 right programs doubted, generated tasks of seed 77); the check
that the quoted words call the application by one of its names drops such picks now, and with
the file manager offered no gold program of seeds 77 and 3001 was doubted while more programs
left short were caught (docs/agents.md).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field, create_model

from pcagent.agents.base import Agent, prompt_messages
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, step_apps
from pcagent.agents.prompting import render
from pcagent.applications import APPLICATIONS
from pcagent.skills import SkillCatalog
from pcagent.text import contains, folded, word_parts

#: Most applications one instruction is taken to ask for, and the longest quote of its words
#: (bounds of the reply's grammar: a small model that rambles stops there).
MAX_APPS, WORDS_CHARS = 6, 80


@dataclass(frozen=True)
class AskedApp:
    """An application the instruction asks for, and the words of it that ask."""

    app: str
    words: str


class _Picked(BaseModel):
    words: str
    app: str


class _Reply(BaseModel):
    apps: list[_Picked]


def reply_type(apps: Sequence[str]) -> type[_Reply]:
    """The reply whose every ``app`` is one of ``apps`` (an enumeration in the grammar, so a
    model cannot write one the desktop lacks)."""
    choice = Literal[tuple(apps)]  # type: ignore[valid-type]
    picked = create_model(
        "AskedApplication",
        __base__=_Picked,
        # The words first: the model quotes what names an application, then says which.
        words=(Annotated[str, Field(min_length=1, max_length=WORDS_CHARS)], ...),
        app=(choice, ...),
    )
    listed = list[picked]  # type: ignore[valid-type]
    return create_model(
        "AskedApplications",
        __base__=_Reply,
        apps=(listed, Field(default_factory=list, max_length=MAX_APPS)),
    )


def slots_type(apps: Sequence[str]) -> type[BaseModel]:
    """The reply with one field per application, in the listing's order, each the words that
    ask for it or "" (a grammar that makes a small model consider every application in turn,
    where a list let it stop after the first or name ones never asked for)."""
    words = (Annotated[str, Field(max_length=WORDS_CHARS)], ...)
    return create_model("AskedWords", **{app: words for app in apps})  # type: ignore[call-overload]


@dataclass
class AppNamesAgent(Agent):
    """Reads which applications an instruction asks for; asked once per instruction. Its
    role's model is the default profile's unless ``[models.roles]`` names one for
    ``named_apps``. ``by_slots``: the reply has one field per application (its words or "")
    instead of a list of picks."""

    name: ClassVar[str] = "named_apps"
    by_slots: bool = False

    def asked(
        self, instruction: str, apps: Mapping[str, str], step: int | None = 0
    ) -> tuple[AskedApp, ...]:
        """The applications of ``apps`` (name -> what it is for) the instruction asks for, with
        its words; empty when the model gives none or no valid reply.

        A reply as long as its grammar allows may have been cut off before the rest: the
        applications not kept are offered once more, alone. Why: for "... in a new file
        kth_largest.py (a plain-text editor will do). Attach the file to an email ... in
        Thunderbird and send it", the 1.5B model filled its six picks with "kth_largest",
        "numbers", "k" and "list" and never reached Thunderbird; no step sent the mail and the
        run said "finished" (a rewording of pc19 at 5c481a6, 2026-12-06)."""
        picked = self.read(instruction, apps, step)
        kept = kept_apps(picked, instruction, apps)
        if len(picked) < MAX_APPS:
            return kept
        found = {one.app for one in kept}
        rest = {app: purpose for app, purpose in apps.items() if app not in found}
        return kept + kept_apps(self.read(instruction, rest, step), instruction, rest)

    def read(
        self, instruction: str, apps: Mapping[str, str], step: int | None = 0
    ) -> tuple[AskedApp, ...]:
        """The model's picks as it answered, before their words are checked."""
        if not apps:
            return ()
        template = "named_apps_slots" if self.by_slots else "named_apps"
        system, user = render(template, instruction=instruction, apps=_listing(apps))
        if self.by_slots:
            slots = self.ask(prompt_messages(system, user), slots_type(list(apps)), step).value
            said = slots.model_dump() if slots is not None else {}
            return tuple(AskedApp(app, words) for app, words in said.items() if words.strip())
        result = self.ask(prompt_messages(system, user), reply_type(list(apps)), step)
        if result.value is None:
            return ()
        return tuple(AskedApp(p.app, p.words) for p in result.value.apps)


def known_as(name: str) -> list[str]:
    """The names of an application's program and windows (a user may ask for "Mousepad" or
    "LibreOffice Calc")."""
    known = APPLICATIONS.get(name)
    return sorted({known.program, known.title_hint} - {""}) if known else []


def also_called(name: str) -> list[str]:
    """The everyday words for an application ("Calc", "a workbook", "the web"): names to
    recognise it by, but words a step may well hold too, unlike a program's name."""
    known = APPLICATIONS.get(name)
    return list(known.also_called) if known else []


def _listing(apps: Mapping[str, str]) -> str:
    """One line per application: its name, what it is for, and what else it is called."""
    lines = []
    for name, purpose in apps.items():
        called = ", ".join(known_as(name) + also_called(name))
        lines.append(f"- {name}: {purpose}" + (f" (known as {called})" if called else ""))
    return "\n".join(lines)


def names_of(name: str, purpose: str) -> set[str]:
    """What the catalog calls an application: its name in words, the kinds of thing its
    description says it is (before any parenthesis), its program's and windows' names and its
    everyday names."""
    head = purpose.split("(")[0]
    named = {name.replace("_", " "), *head.split(","), *known_as(name), *also_called(name)}
    return {text.strip().casefold() for text in named if text.strip()}


def kept_apps(
    picked: Sequence[AskedApp], instruction: str, apps: Mapping[str, str]
) -> tuple[AskedApp, ...]:
    """The picks of a desktop application whose words stand in ``instruction`` and call it by
    one of its catalog names (:func:`names_of`), each application once.

    The second test checks the model's claim that these words name this application: the 1.5B
    model also quoted a folder ("Documents") for the browser, "flour" for the calculator and a
    file's name for the text editor (2026-11-27, generated tasks of seed 91), and the check
    would have doubted right programs for them. What it costs is an application asked for in
    other words ("on imdb.com") going unchecked, never a program doubted.

    Words that call one other application by its catalog names stand for that one: the model
    quoted "spreadsheet" and picked the word processor (generated tasks of seed 2028), and the
    spreadsheet went unchecked while the program wrote a document. Words that call none stand
    for the pick where the instruction calls it by name elsewhere (:func:`_name_called`); so do
    quotes not in the instruction at all. Why: for "... tourist sights of Tokyo and of Kyoto that
    you look up on the web" the 1.5B model picked the browser and quoted "browser", the pick was
    dropped, and a program with no search said "finished" (pc20r2, 2026-12-05). Replayed over
    the 60 instructions whose readings are recorded, this keeps 7 more applications, each one
    the task lists, and none it does not."""
    kept: dict[str, AskedApp] = {}
    unnamed: list[str] = []  # picks whose quote calls no application
    for pick in picked:
        words = _standing(pick.words, instruction)
        if not words:  # a quote not in the instruction: the pick stands where it is called
            if pick.app in apps:
                unnamed.append(pick.app)
            continue
        called = [
            app
            for app, purpose in apps.items()
            if any(calls(words, name) for name in names_of(app, purpose))
        ]
        if not called and pick.app in apps:
            unnamed.append(pick.app)
        app = pick.app if pick.app in called else (called[0] if len(called) == 1 else "")
        if app and app not in kept:
            kept[app] = AskedApp(app, words)
    for app in unnamed:  # after the picks that quote a name: their own words are kept
        if app not in kept and (words := _name_called(instruction, app, apps[app])):
            kept[app] = AskedApp(app, words)
    return tuple(kept.values())


def _name_called(instruction: str, app: str, purpose: str) -> str:
    """The longest of ``app``'s catalog names that ``instruction`` calls it by ("" where
    none). Why: the 1.5B model picked the file manager for "Open test_doc1.docx ... from the
    file manager" and quoted "Documents", a folder; the pick was dropped, memory's programs
    that open a file there were held back as working in an application not asked for, and the
    program was written after a formatting example alone (pc12, 2026-12-03). A pick whose
    quote names no application stands where the instruction calls that application by name
    elsewhere: the model's pick, checked against the instruction's words."""
    names = sorted(names_of(app, purpose), key=len, reverse=True)
    return next((name for name in names if calls(instruction, name)), "")


def _as_written(quote: str) -> str:
    """The model's quote without its quotation marks, an underscore read as a space: the 1.5B
    model copies the listing's name ("text_editor") for the instruction's "text editor". Its
    61 recorded readings of the benchmark's instructions, read again this way, keep 68 of the
    125 applications their task files list instead of 61 (2026-11-29); the words must still
    stand in the instruction."""
    return quote.strip().strip("\"'").replace("_", " ")


#: What the model puts before a quote that the instruction may not have there.
_ARTICLES = ("the ", "a ", "an ")


def _standing(quote: str, instruction: str) -> str:
    """The model's quote as it stands in ``instruction`` ("" where it does not): as written,
    or without an article the model put before it. Why: the 1.5B model quoted "the
    spreadsheet" for "Create a new spreadsheet", the words were dropped as not in the
    instruction, and a program that wrote a text file instead said "finished" (pc07,
    2026-12-02)."""
    words = _as_written(quote)
    bare = next((words[len(a) :] for a in _ARTICLES if words.lower().startswith(a)), "")
    return next((w for w in (words, bare.strip()) if w and contains(instruction, w)), "")


def calls(quote: str, name: str) -> bool:
    """Whether the model's ``quote`` holds ``name`` as whole words, each maybe in the plural
    ("in Calc" calls the spreadsheet "Calc"; "the calculator" does not, nor does "email" hold
    "mail"); a hyphen parts words ("e-mail", "plain-text")."""
    said, named = _word_list(quote), _word_list(name)
    return bool(named) and any(
        all(_same_word(one, other) for one, other in zip(said[at:], named, strict=False))
        for at in range(len(said) - len(named) + 1)
    )


def _same_word(said: str, named: str) -> bool:
    """A word of the quote is a name's word, or its plural ("spreadsheets", "browsers")."""
    return said in (named, f"{named}s", f"{named}es")


def _word_list(text: str) -> list[str]:
    return word_parts(folded(text))


def unused_apps(
    program: Program,
    asked: Sequence[AskedApp],
    skills: SkillCatalog,
    used_before: Collection[str] = (),
) -> list[Doubt]:
    """A doubt, on the program's last step, for each application asked for that no step of the
    program uses (no skill of it, no screen step in it) and that is not in ``used_before``, the
    applications of the steps finished before it."""
    if not program.steps:
        return []
    used = apps_used(program, skills, used_before)
    last = program.steps[-1].id
    return [_unused(last, use, skills) for use in asked if use.app not in used]


def apps_used(
    program: Program, skills: SkillCatalog, used_before: Collection[str] = ()
) -> set[str]:
    """The applications the program's steps work in, and those of ``used_before``."""
    return set(used_before).union(*(step_apps(step, skills) for step in program.steps))


def _unused(step: str, use: AskedApp, skills: SkillCatalog) -> Doubt:
    """The doubt names the skills that work in the application: the Manager that wrote a
    workbook as a text file is re-asked with the skill that writes one, not only with what is
    missing (the 1.5B model, told only the latter, kept its text file: generated tasks of seed
    2028)."""
    names = tuple(one.name for one in skills.working_in(use.app))
    shown = f"{', '.join(names)} or a gui step" if names else "a gui step"
    return Doubt(
        step,
        f'the instruction asks for the {use.app} ("{use.words}"), and no step uses it: '
        f"add the step that does in the {use.app} what the instruction asks there "
        f"(in the {use.app}: {shown})",
        skills=names,
    )


def plain_names(
    instruction: str, asked: Sequence[AskedApp], apps: Mapping[str, str]
) -> tuple[str, tuple[AskedApp, ...]]:
    """The instruction as the Manager reads it, and the picks it still names: where the reading
    found an application called by its program's or window's name ("open that in Mousepad",
    "via Thunar", "in LibreOffice Writer"), those words become the application's kind as the
    desktop's listing says it ("the plain-text editor"). Why: told beside the instruction that
    "Mousepad" and "Chromium" are names of applications, the 1.5B planner still filled a
    route's From and To with them, typed "Mousepad" and opened "Chromium" as an address (a
    rewording of pc02, 2026-12-02); given the same instruction with the names written as the
    kinds, its program read the memo, picked the place out of it and filled the route's form.
    Only words the model quoted and the catalog confirms are replaced, and a program's name
    that is also an everyday word of the application ("Clocks") stays."""
    shown, kept = instruction, []
    for use in asked:
        purpose = apps.get(use.app, "")
        head = purpose.split("(")[0]
        everyday = {use.app.replace("_", " "), *head.split(","), *also_called(use.app)}
        plain = {word.strip().casefold() for word in everyday}
        products = [n for n in known_as(use.app) if n.casefold() not in plain]
        kind = head.split(",")[0].strip()
        named = next((name for name in products if calls(use.words, name)), "")
        quoted = shown.casefold().find(use.words.casefold())
        # The program's name within the quoted words ("in Mousepad": "Mousepad").
        at = shown.casefold().find(named.casefold(), quoted) if quoted >= 0 and named else -1
        if not kind or at < 0:
            kept.append(use)
            continue
        before = shown[:at]
        article = "" if before.casefold().rstrip().endswith((" the", " a", " an")) else "the "
        shown = f"{before}{article}{kind}{shown[at + len(named) :]}"
    return shown, tuple(kept)


def names_line(asked: Sequence[AskedApp]) -> str:
    """The line that tells the Manager which application each of the instruction's names
    stands for ("" when none was read). Why: the 1.5B planner took the names for the subject:
    "open that in Mousepad, then check in Chromium how long the journey takes" became a web
    search for "Mousepad Chromium Empire State Building" (a rewording of pc02, 2026-11-28)."""
    if not asked:
        return ""
    said = ", ".join(f'"{use.words}" is the {use.app}' for use in asked)
    return f"In it, {said}: names of applications, not values to search for or type.\n"
