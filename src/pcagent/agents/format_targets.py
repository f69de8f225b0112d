"""Which paragraphs each formatting is for, asked of a model alone and set in the program.

Why: writing a whole program, the 1.5B planner puts several formattings in one call on one
set of paragraphs, or names a paragraph by a number of its own: "title in bold, 1.5 line
spacing for the first two paragraphs" became one call making paragraphs 1 and 2 bold and
1.5-spaced, and "its last paragraph underlined" became paragraph 2 of a longer document; each
call checked its own effect, the document was saved that way and the run said "finished" (two
rewordings of pc12 and pc13, 2026-12-03; the same merge on 2026-11-26). Asked one formatting
at a time which paragraphs the instruction asks it for, the model has only that to read: it
chooses among a few sets of paragraphs in words, asked twice with the options in both orders,
and a reading counts only where both answers agree (benchmarks/format_targets.py).

A formatting is a parameter its skill marks with ``formats`` (the words of the question, with
``{}`` for the value set: "{}-aligned"), on a skill whose paragraphs parameter is marked
``numbers: "paragraphs"``. Where every reading of a call's formattings is a list and one at
least differs from the call's paragraphs, the call becomes one call per set of paragraphs read,
each with the formattings read for it, in the order the call sets them. A call that picks its
paragraphs by their text (``matching``), a value that is an earlier step's result, or a reading
that is empty or invalid leaves the call as written; so does a call of one formatting on
paragraphs it names in words, the title or the last (not asked: see :func:`named_alone`).
Models read the words; code only sets the typed paragraphs a model listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import BaseModel

from pcagent.agents.base import Agent, prompt_messages
from pcagent.agents.keys_of_readings import free_step_id
from pcagent.agents.program import Program, ProgramStep, is_reference
from pcagent.agents.prompting import render
from pcagent.skills import SkillCatalog

#: A paragraph as programs name it: "title", "last", or its number after the title.
Paragraph = int | Literal["title", "last"]

#: What reads the paragraphs an instruction asks one formatting for (None: no reading).
ReadsTargets = Callable[[str, str], list[Paragraph] | None]
#: A formatting's two answers: the options in their order, then the other way round (None: no
#: valid answer; the second is not asked where the first has none).
Answers = tuple[str | None, str | None]
#: What asks the question of one formatting in both orders.
ReadsAnswers = Callable[[str, str], Answers]


#: The paragraphs a question offers, in words, and each as programs name them: one place in a
#: short list reads better for the small model than a list it writes (asked for a list, the 1.5B
#: model added the title or the last paragraph to 3 of 7 formattings, seed 3101, 2026-12-03).
#: A reading counts where the options in both orders get the same answer; with seven options,
#: "the paragraph after the title" was read as the second in both orders, and with these five,
#: none was read wrong (docs/agents.md).
OPTIONS: dict[str, tuple[Paragraph, ...]] = {
    "the title": ("title",),
    "the paragraph right after the title": (1,),
    "the two paragraphs right after the title": (1, 2),
    "the last paragraph": ("last",),
    "other paragraphs": (),
}


class Targets(BaseModel):
    """The model's reply: which of the options the instruction asks the formatting for."""

    paragraphs: Literal[tuple(OPTIONS)]  # type: ignore[valid-type]


@dataclass
class FormatTargetsAgent(Agent):
    """Asks which paragraphs an instruction asks one formatting for; its role's model is the
    default profile's unless ``[models.roles]`` names one for ``format_targets``."""

    name: ClassVar[str] = "format_targets"

    def targets(
        self, instruction: str, formatting: str, step: int | None = 0
    ) -> list[Paragraph] | None:
        """The paragraphs as programs name them (:func:`targets_of` the two answers)."""
        return targets_of(self.answers(instruction, formatting, step))

    def answers(self, instruction: str, formatting: str, step: int | None = 0) -> Answers:
        """The answers with the options in their order and the other way round."""
        first = self._answer(instruction, formatting, list(OPTIONS), step)
        if first is None:
            return (None, None)
        return (first, self._answer(instruction, formatting, list(OPTIONS)[::-1], step))

    def _answer(
        self, instruction: str, formatting: str, order: list[str], step: int | None
    ) -> str | None:
        options = "\n".join(f"- {option}" for option in order)
        system, user = render(
            "format_targets", instruction=instruction, formatting=formatting, options=options
        )
        result = self.ask(prompt_messages(system, user), Targets, step)
        return None if result.value is None else result.value.paragraphs


def targets_of(answers: Answers) -> list[Paragraph] | None:
    """The paragraphs as programs name them, where both answers are the same; None where they
    differ, either is invalid, or they are "other paragraphs"."""
    first, again = answers
    return list(OPTIONS[first]) or None if first is not None and first == again else None


def _named(paragraph: int | str) -> Paragraph:
    """0 is the title and -1 the last paragraph, as programs name them."""
    if isinstance(paragraph, int):
        return {0: "title", -1: "last"}.get(paragraph, paragraph)  # type: ignore[return-value]
    return paragraph  # type: ignore[return-value]


def with_format_targets_read(
    program: Program,
    catalog: SkillCatalog,
    read: ReadsTargets,
    instruction: str,
    ran: Sequence[str] = (),
) -> Program:
    """``program`` with each formatting call split or retargeted to the paragraphs ``read``
    lists for each of its formattings; the program itself where nothing changes. ``ran``:
    the ids of steps done before (a new call's id is above them all)."""
    steps: list[ProgramStep] = []
    changed = False
    for step in program.steps:
        taken = [*ran, *(one.id for one in (*steps, *program.steps))]
        split = _split(step, catalog, read, instruction, taken)
        changed = changed or split != [step]
        steps += split
    return program.model_copy(update={"steps": steps}) if changed else program


def formattings(step: ProgramStep, catalog: SkillCatalog) -> list[tuple[str, list[Paragraph]]]:
    """Each formatting ``step`` sets, in a question's words, with the paragraphs it names;
    none where its paragraphs are not a literal list (picked by text, or a result)."""
    where = _paragraphs_parameter(step, catalog)
    formats = catalog.marked(step.skill, "formats")
    written = step.args.get(where) if where else None
    if not isinstance(written, list) or not written or any(map(is_reference, written)):
        return []
    asked = [(n, v) for n, v in step.args.items() if n in formats and v is not None]
    if any(is_reference(value) for _, value in asked):
        return []
    paragraphs = [_named(one) for one in written]
    return [(str(formats[n]).replace("{}", str(v)), paragraphs) for n, v in asked]


def _paragraphs_parameter(step: ProgramStep, catalog: SkillCatalog) -> str:
    """The one parameter of ``step``'s skill naming paragraphs by number, where the skill
    marks formattings and the call does not pick paragraphs by their text; "" otherwise."""
    if step.skill not in catalog or step.args.get("matching"):
        return ""
    numbered = [n for n, m in catalog.marked(step.skill, "numbers").items() if m == "paragraphs"]
    has_formats = bool(catalog.marked(step.skill, "formats"))
    return numbered[0] if len(numbered) == 1 and has_formats else ""


def named_alone(asked: list[tuple[str, list[Paragraph]]]) -> bool:
    """Whether a call sets one formatting on paragraphs it names in words ("title", "last"):
    neither slip this module mends (formattings merged, a paragraph numbered by the planner).
    Such a call is the planner's reading of the same words, and a second reading that differs
    is no likelier right: "Underline the final paragraph of test_doc2.docx and center its
    title" was written as the last paragraph underlined and the title centred; the reading
    said "the last paragraph" for the centring in both orders, the call was moved there and
    the run said "finished" (a rewording of pc13, twice, 2026-12-06; in the 17 recorded runs
    with readings of paragraphs since 2026-12-05 no such call was moved right)."""
    return len(asked) == 1 and all(one in ("title", "last") for one in asked[0][1])


def _split(
    step: ProgramStep,
    catalog: SkillCatalog,
    read: ReadsTargets,
    instruction: str,
    taken: list[str],
) -> list[ProgramStep]:
    """``step`` as the calls its formattings' readings make of it (``[step]`` where none)."""
    asked = formattings(step, catalog)
    if not asked or named_alone(asked):
        return [step]
    formats = catalog.marked(step.skill, "formats")
    names = [n for n, v in step.args.items() if n in formats and v is not None]
    # Grouped by the set of paragraphs read: an order of their own is no other set.
    groups: dict[frozenset[Paragraph], tuple[list[Paragraph], dict[str, object]]] = {}
    for name, (words, _) in zip(names, asked, strict=True):
        targets = read(instruction, words)
        if targets is None:
            return [step]
        groups.setdefault(frozenset(targets), (targets, {}))[1][name] = step.args[name]
    if list(groups) == [frozenset(asked[0][1])]:
        return [step]
    where = _paragraphs_parameter(step, catalog)
    rest = {n: v for n, v in step.args.items() if n not in formats and n != where}
    calls: list[ProgramStep] = []
    for at, (targets, formatting) in enumerate(groups.values()):
        call_id = step.id if at == 0 else free_step_id([*taken, *(c.id for c in calls)])
        args = {**rest, where: list(targets), **formatting}
        calls.append(step.model_copy(update={"id": call_id, "args": args}))
    return calls
