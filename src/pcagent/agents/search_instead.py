"""A page the instruction does not give is searched for, not guessed.

Why: asked for a travel time or a film's rating, the 1.5B planner opened a search engine's home
page or an address copied from a memory example (pc02, pc03, pc10, pc15-pc17, 2026-11-26/27),
kept it through three asks that named the problem, and the run went on from the wrong page. A
web search for what the page was to show finds the right one on any site. Which words to search
for is a model's to say: the ``search_words`` role is shown the instruction, the program and the
step, and answers with the words (an earlier step's value may stand in them as ``{s2.place}``);
code swaps the step's skill call for ``web_search`` with those words and checks the program
again. The swap is kept only when the checked program has no problem; else the address stays
with its doubt, as before.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, Field

from pcagent.agents.base import Agent, prompt_messages
from pcagent.agents.given_values import address_core, given_parameters, unnamed_address
from pcagent.agents.program import Program, ProgramStep
from pcagent.agents.prompting import render
from pcagent.skills import SkillCatalog

#: The skill a guessed address becomes, and its parameter.
SEARCH_SKILL, SEARCH_PARAMETER = "web_search", "query"


class SearchWords(BaseModel):
    """The words to search the web for in place of a guessed address."""

    query: str = Field(min_length=1, max_length=200)


@dataclass(frozen=True)
class GuessedAddress:
    """A step whose address parameter holds a literal nobody gave."""

    step: str
    address: str


def guessed_addresses(
    program: Program, catalog: SkillCatalog, given: Sequence[str]
) -> list[GuessedAddress]:
    """The steps of ``program`` that open an address none of ``given`` names (one parameter
    holding a single address: a list of them is mail's, which a search cannot stand for)."""
    guessed = []
    for step in program.steps:
        for name, holds in given_parameters(catalog, step.skill).items():
            value = step.args.get(name)
            if holds == "address" and isinstance(value, str) and unnamed_address(value, given):
                guessed.append(GuessedAddress(step.id, value))
    return guessed


def searched(program: Program, guess: GuessedAddress, query: str) -> Program | None:
    """``program`` with the step of ``guess`` a web search for ``query``; None when the query
    is the guessed address again (nothing would change) or empty."""
    words = " ".join(query.split())
    if not words or address_core(words) == address_core(guess.address):
        return None
    steps = [
        ProgramStep(
            id=step.id,
            skill=SEARCH_SKILL,
            args={SEARCH_PARAMETER: words},
            environment=step.environment,
        )
        if step.id == guess.step
        else step
        for step in program.steps
    ]
    return program.model_copy(update={"steps": steps})


def program_lines(program: Program) -> str:
    """The program's steps, one JSON object a line, defaults left out."""
    return "\n".join(
        json.dumps(step.model_dump(mode="json", exclude_defaults=True), ensure_ascii=False)
        for step in program.steps
    )


@dataclass
class SearchWordsAgent(Agent):
    """Says what to search the web for where a program guessed an address. Its role's model
    is the default profile's unless ``[models.roles]`` names one for ``search_words``."""

    name: ClassVar[str] = "search_words"

    def words(
        self, instruction: str, program: Program, guess: GuessedAddress, step: int | None = 0
    ) -> str:
        """The words to search for; "" when the model gives no valid reply."""
        system, user = render(
            "search_words",
            instruction=instruction,
            program=program_lines(program),
            step=guess.step,
            address=guess.address,
        )
        result = self.ask(prompt_messages(system, user), SearchWords, step)
        return result.value.query if result.value is not None else ""
