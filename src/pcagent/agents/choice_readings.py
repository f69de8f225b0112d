"""A skill's choice between a few meanings, asked of a model alone and set in the program.

Why: writing a whole program, the 1.5B planner fills a choice such as which end of a sorted
list comes first from the skills' lists and memory's examples more than from the instruction:
"from best rated to worst" became ``sort_items(first="lowest")``, the list was saved the wrong
way round and the run said "finished" (a rewording of pc17, 2026-12-02); no text the run reads
can show such a value wrong. Asked the one question alone (the instruction, the step, the
question, each value's meaning), the same model has only that to read.

A parameter is a choice where its skill marks it (:func:`pcagent.skills.base.choice`), and
the program's value (written, or left to its default) becomes the model's answer. Where the step
calls the skill more than once in the program (one question cannot tell the calls apart), the
value is an earlier step's result, or the model gives no valid answer, the program's value
stands. Models read the words; code only sets the typed value a model chose.

The options are shown once, in the order the skill declares them. Asked in both orders and
kept only where the answers agreed, the 1.5B model's readings of ``sort_items.first`` were
right 10 of 21 times and never wrong, and the other 11 ("largest first", "from highest to
lowest") it answered "lowest" when that was listed first; asked once, in the declared order,
21 of 21 were right (generated tasks of seed 3101, 2026-12-03, benchmarks/choice_readings.py).
A skill marks only a choice the model reads well alone: ``pick_extreme.largest`` was read
wrong for "the older film's year" and "the worst rating" (5 of 19, both orders agreeing) and
is not marked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, JsonValue, create_model

from pcagent.agents.base import Agent, prompt_messages
from pcagent.agents.program import Program
from pcagent.agents.prompting import render
from pcagent.skills import SkillCatalog


@dataclass(frozen=True)
class ChoiceQuestion:
    """One marked parameter's question: the skill and what it does, the parameter, the
    question, and each value with its meaning in words."""

    skill: str
    description: str
    parameter: str
    question: str
    options: tuple[tuple[JsonValue, str], ...]

    def meaning_of(self, value: JsonValue) -> str | None:
        return next((m for v, m in self.options if v == value), None)

    def value_of(self, meaning: str) -> JsonValue:
        return next(v for v, m in self.options if m == meaning)


#: What reads a question for an instruction: the value chosen, or None where no reading.
ReadsChoice = Callable[[str, ChoiceQuestion], JsonValue | None]


def choice_questions(catalog: SkillCatalog, skill: str) -> list[ChoiceQuestion]:
    """The questions of ``skill``'s parameters marked as choices (none for a skill the catalog
    lacks)."""
    questions = []
    for name, marked in catalog.marked(skill, "choice").items():
        if isinstance(marked, dict) and isinstance(marked["options"], list):
            options = tuple((pair[0], str(pair[1])) for pair in marked["options"])  # type: ignore[index]
            description = catalog.get(skill).description
            questions.append(
                ChoiceQuestion(skill, description, name, str(marked["question"]), options)
            )
    return questions


def with_choices_read(
    program: Program, catalog: SkillCatalog, read: ReadsChoice, instruction: str
) -> Program:
    """``program`` with each marked choice set to what ``read`` chose for ``instruction``,
    where it read one; the program itself where nothing changes."""
    calls = Counter(step.skill for step in program.steps)
    steps, changed = list(program.steps), False
    for index, step in enumerate(steps):
        if calls[step.skill] != 1:
            continue
        for question in choice_questions(catalog, step.skill):
            written = step.args.get(question.parameter, _default(catalog, question))
            if isinstance(written, dict):  # an earlier step's result: not the model's word
                continue
            chosen = read(instruction, question)
            if chosen is None or chosen == written:
                continue
            step = step.model_copy(update={"args": {**step.args, question.parameter: chosen}})
            steps[index], changed = step, True
    return program.model_copy(update={"steps": steps}) if changed else program


def _default(catalog: SkillCatalog, question: ChoiceQuestion) -> Any:
    field = catalog.get(question.skill).parameters.model_fields[question.parameter]
    return None if field.is_required() else field.default


def answered_both_ways(once: object, again: object) -> bool:
    """Whether a question asked with its options in one order (``once``) and the other
    (``again``) got a valid answer each, and different ones: the model answered by the
    options' place, and what the question asks stays unread (:mod:`unsure_readings`)."""
    return once is not None and again is not None and once != again


@dataclass
class ChoiceReadingAgent(Agent):
    """Asks one choice's question of an instruction; its role's model is the default profile's
    unless ``[models.roles]`` names one for ``choice_reading``."""

    name: ClassVar[str] = "choice_reading"

    def chosen(
        self,
        instruction: str,
        question: ChoiceQuestion,
        step: int | None = 0,
        *,
        reverse: bool = False,
    ) -> JsonValue | None:
        """The value the model chooses, the options shown in the order the skill declares them
        (``reverse``: the other way round, as a benchmark's baseline asks); None where it gives
        no valid reply."""
        meanings = [m for _, m in question.options]
        answer = self._answer(instruction, question, meanings[::-1] if reverse else meanings, step)
        return None if answer is None else question.value_of(answer)

    def _answer(
        self, instruction: str, question: ChoiceQuestion, order: Sequence[str], step: int | None
    ) -> str | None:
        system, user = render(
            "choice_reading",
            instruction=instruction,
            step=f"{question.skill}: {question.description}",
            question=question.question,
            options="\n".join(f"- {meaning}" for meaning in order),
        )
        result = self.ask(prompt_messages(system, user), _reply_type(tuple(order)), step)
        return None if result.value is None else result.value.answer


def _reply_type(meanings: tuple[str, ...]) -> type[BaseModel]:
    """A reply that is one of ``meanings``, as the grammar allows nothing else."""
    return create_model("ChoiceReply", answer=(Literal[meanings], ...))  # type: ignore[valid-type]
