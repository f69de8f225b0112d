"""A formatting the instruction asks for a call's paragraphs that the call leaves out, asked of
a model alone and added to the call.

Why: writing a whole program, the 1.5B planner sets the formatting of the example it copies:
"grow the title's font by one step" became the title made bold, the call checked its own
effect (bold was set), the document was saved that way and the run said "finished" (a rewording
of pc22, 2026-12-03); "center the title and underline the final paragraph" lost the underline
(2026-11-26). Which paragraphs each formatting is for is read by :mod:`format_targets`; this
reads the other half: for the paragraphs a call names, which formatting. A question names those
paragraphs and offers the formattings the skill declares, in words, and "no formatting"; it is
asked twice, the options in both orders, and counts only where both answers agree.

A formatting read is set only where the other reading agrees: asked which paragraphs that
formatting is for (:mod:`format_targets`, the same words), the model names these paragraphs.
Why both: alone, the model read "right-aligned" for the paragraph after the title where the
instruction right-aligns the last one (seed 3105, 2026-12-03); each reading errs differently,
and a program is changed only where they meet. The formatting is then added to the call, or
replaces the call's value of the same parameter (a paragraph has one alignment); the call's
other formattings stay (the reading of their paragraphs moves them where they belong).

A formatting is a parameter its skill marks with ``formats``; its options come from the
parameter's type: a flag is one option ("bold"), a choice one per value ("center-aligned"), a
number one option ("set in N pt") that is never set (only the planner writes a number). Models
read the words; code only sets the typed values a model chose among.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Literal, Union, get_args, get_origin

from pydantic import JsonValue, create_model

from pcagent.agents.base import Agent, prompt_messages
from pcagent.agents.format_targets import OPTIONS as PARAGRAPH_WORDS
from pcagent.agents.format_targets import ReadsTargets, formattings
from pcagent.agents.program import Program, ProgramStep
from pcagent.agents.prompting import render
from pcagent.skills import SkillCatalog

#: The answer that ends a reading: the first question's and every later one's.
NOTHING, NOTHING_ELSE = "no formatting", "nothing else"
#: Most formattings read for one set of paragraphs (one question each, asked twice): the
#: later questions, "which besides", were answered alike in both orders too rarely to count.
MOST = 1
#: A number the instruction gives: an option whose value only the call can hold.
GIVEN = "N"

#: A formatting option: the parameter it sets and its value (:data:`GIVEN` for a number).
Option = tuple[str, JsonValue]
#: What reads the formattings an instruction asks for some paragraphs, by the paragraphs'
#: words and the options' words (None: no reading).
ReadsFormats = Callable[[str, str, tuple[str, ...]], tuple[str, ...] | None]


def format_options(catalog: SkillCatalog, skill: str) -> dict[str, Option]:
    """Each formatting ``skill`` declares, in a question's words, with what it sets."""
    if skill not in catalog:
        return {}
    fields = catalog.get(skill).parameters.model_fields
    options: dict[str, Option] = {}
    for name, words in catalog.marked(skill, "formats").items():
        kind = _inner(fields[name].annotation)
        if kind is bool:
            options[str(words).replace("{}", "")] = (name, True)
        elif get_origin(kind) is Literal:
            for value in get_args(kind):
                options[str(words).replace("{}", str(value))] = (name, value)
        else:
            options[str(words).replace("{}", GIVEN)] = (name, GIVEN)
    return options


def _inner(annotation: object) -> object:
    """``annotation`` without its ``None`` (``bool | None`` is ``bool``)."""
    if get_origin(annotation) in (Union, types.UnionType):
        kept = [one for one in get_args(annotation) if one is not type(None)]
        return kept[0] if len(kept) == 1 else annotation
    return annotation


@dataclass
class FormatReadingAgent(Agent):
    """Asks which formattings an instruction asks for some paragraphs; its role's model is the
    default profile's unless ``[models.roles]`` names one for ``format_reading``."""

    name: ClassVar[str] = "format_reading"

    def formats(
        self, instruction: str, paragraphs: str, options: tuple[str, ...], step: int | None = 0
    ) -> tuple[str, ...] | None:
        """The options read for ``paragraphs``, one question at a time, until the model says
        there is nothing (else); None where two orders' answers differ or one is invalid."""
        read: list[str] = []
        while len(read) < MOST:
            left = [one for one in options if one not in read]
            offered = [*left, NOTHING_ELSE if read else NOTHING]
            first = self._answer(instruction, paragraphs, offered, read, step)
            if first is None or first != self._answer(
                instruction, paragraphs, offered[::-1], read, step
            ):
                return None
            if first in (NOTHING, NOTHING_ELSE):
                break
            read.append(first)
        return tuple(read)

    def _answer(
        self,
        instruction: str,
        paragraphs: str,
        offered: list[str],
        read: list[str],
        step: int | None,
    ) -> str | None:
        system, user = render(
            "format_reading",
            instruction=instruction,
            paragraphs=paragraphs,
            already=", ".join(read) if read else "none yet",
            options="\n".join(f"- {option}" for option in offered),
        )
        reply = create_model("FormatReply", answer=(Literal[tuple(offered)], ...))  # type: ignore[valid-type]
        result = self.ask(prompt_messages(system, user), reply, step)
        return None if result.value is None else result.value.answer


def with_asked_formats_read(
    program: Program,
    catalog: SkillCatalog,
    read: ReadsFormats,
    targets: ReadsTargets,
    instruction: str,
) -> Program:
    """``program`` with each formatting call given the formatting ``read`` for its paragraphs
    where ``targets`` reads that formatting as for the same paragraphs; the program itself
    where nothing changes."""
    named = [paragraph_words(step, catalog) for step in program.steps]
    steps = []
    for step, words in zip(program.steps, named, strict=True):
        # Paragraphs two calls both name: which call a formatting belongs to is not known.
        alone = bool(words) and named.count(words) == 1
        steps.append(
            _with_formats(step, catalog, (read, targets), instruction, words) if alone else step
        )
    changed = steps != program.steps
    return program.model_copy(update={"steps": steps}) if changed else program


def paragraph_words(step: ProgramStep, catalog: SkillCatalog) -> str:
    """The words of ``step``'s paragraphs among :data:`PARAGRAPH_WORDS`; "" where none."""
    asked = formattings(step, catalog)
    if not asked:
        return ""
    paragraphs = sorted(map(str, asked[0][1]))
    for words, named in PARAGRAPH_WORDS.items():
        if named and sorted(map(str, named)) == paragraphs:
            return words
    return ""


def _with_formats(
    step: ProgramStep,
    catalog: SkillCatalog,
    readings: tuple[ReadsFormats, ReadsTargets],
    instruction: str,
    words: str,
) -> ProgramStep:
    """``step`` with the formattings read for its paragraphs (``step`` where none is new)."""
    read, targets = readings
    options = format_options(catalog, step.skill)
    chosen = read(instruction, words, tuple(options)) or ()
    paragraphs = sorted(map(str, PARAGRAPH_WORDS[words]))
    args = dict(step.args)
    for option in chosen:
        name, value = options[option]
        if value == GIVEN or args.get(name) == value:
            continue  # a number only the planner writes; or set already
        read_for = targets(instruction, option)
        if read_for is None or sorted(map(str, read_for)) != paragraphs:
            continue  # the other reading does not put it on these paragraphs
        args[name] = value
        if name == "size_step":
            args.pop("font_size", None)  # a step and a size exclude each other
    return step if args == step.args else step.model_copy(update={"args": args})
