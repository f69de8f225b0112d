"""A page the instruction does not give is searched for, not guessed.

Why: asked for a travel time or a film's rating, the 1.5B planner opened a search engine's home
page or an address copied from a memory example (pc02, pc03, pc10, pc15-pc17, 2026-11-26/27),
kept it through three asks that named the problem, and the run went on from the wrong page. A
web search for what the page was to show finds the right one on any site. Which words to search
for is a model's to say: the ``search_words`` role is shown the instruction, the values found
before the step (by the references that stand for them, ``{s2.place}``) and what the steps after
it read from the page, and answers with the words. Shown the guessed address or the whole
program, the 1.5B model answered with the site's name ("Google Maps", copied from a later step)
or searched for the value found before ("John's meeting location"); shown only these, it wrote
"travel time from Empire State Building to {s2.meeting_location}". Code checks the words
against what the planner was given, as a reported value is checked against what was read: at
least half of their longer words must stand in the instruction or in a value found (a site's
name the user never wrote does not). Then it swaps the step's skill call for ``web_search`` and
checks the program again. The swap is kept only when the words pass and the program has no
problem; else the address stays with its doubt, as before.

A search whose words leave out a value found before it, while no step uses that value, is
asked for the same way (:func:`searches_leaving_out`): the 1.5B planner found the meeting's
place and searched "travel time from the Empire State Building to " (pc02r2, 2026-11-28), and
kept it through three asks that named the unused value. The words the model gives must then
refer to a value found (a slot such as ``{s2.place}``), or the search stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, Field

from pcagent.agents.base import Agent, bullet_list, prompt_messages
from pcagent.agents.given_values import (
    address_core,
    given_parameters,
    grounded,
    unnamed_address,
)
from pcagent.agents.program import SLOT, Program, ProgramStep
from pcagent.agents.prompting import render
from pcagent.agents.ungiven_names import ungiven_names
from pcagent.agents.unused_values import unused_values
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


def ungrounded_searches(program: Program, given: Sequence[str]) -> list[GuessedAddress]:
    """The web searches of ``program`` for words most of which nobody gave (not
    :func:`grounded` in ``given``), each with its words as the ``address`` to replace."""
    return [
        GuessedAddress(step.id, query)
        for step in program.steps
        if step.skill == SEARCH_SKILL
        and isinstance(query := step.args.get(SEARCH_PARAMETER), str)
        and not grounded(query, given)
    ]


def searches_leaving_out(program: Program, unused: Sequence[str]) -> list[GuessedAddress]:
    """The web searches of ``program`` whose words refer to no earlier step, after a step of
    ``unused`` (steps whose found values no later step uses), each with its words as the
    ``address`` a search is to replace."""
    leaving_out = []
    seen_unused = False
    for step in program.steps:  # a search whose own page is unused leaves nothing out
        query = step.args.get(SEARCH_PARAMETER)
        if (
            seen_unused
            and step.skill == SEARCH_SKILL
            and isinstance(query, str)
            and not SLOT.search(query)
        ):
            leaving_out.append(GuessedAddress(step.id, query))
        seen_unused = seen_unused or step.id in unused
    return leaving_out


def searched(
    program: Program, guess: GuessedAddress, query: str, given: Sequence[str]
) -> Program | None:
    """``program`` with the step of ``guess`` a web search for ``query``; None when the query
    is empty, the guessed address again, or not :func:`grounded` in ``given``."""
    words = " ".join(query.split())
    if not words or address_core(words) == address_core(guess.address):
        return None
    if not grounded(words, given) or ungiven_names(words, given):
        return None  # a name nobody gave: the search_words role added "the United States"
    return _with_step(program, guess.step, words)


def searched_instead(
    program: Program,
    instruction: str,
    given: Sequence[str],
    skills: SkillCatalog,
    words_for: Callable[[str, Program, GuessedAddress], str] | None,
    usable: Callable[[Program], bool],
) -> Program:
    """``program`` with each address nobody gave, and each search that leaves out a value
    found and unused, a web search for the words ``words_for`` gives (a model), where the
    program stays ``usable``; what the model cannot replace stays, with its doubt. ``program``
    itself where nothing is replaced, or ``words_for`` is None."""
    if words_for is None or SEARCH_SKILL not in skills:
        return program
    for guess in [*guessed_addresses(program, skills, given), *ungrounded_searches(program, given)]:
        changed = searched(program, guess, words_for(instruction, program, guess), given)
        if changed is not None and usable(changed):
            program = changed
    unused = [doubt.step for doubt in unused_values(program, skills)]
    for search in searches_leaving_out(program, unused):
        words = words_for(instruction, program, search)
        changed = searched(program, search, words, given) if SLOT.search(words) else None
        if changed is not None and usable(changed):
            program = changed
    return program


def _with_step(program: Program, step_id: str, query: str) -> Program:
    """``program`` with step ``step_id`` a web search for ``query``."""
    steps = [
        ProgramStep(
            id=step.id,
            skill=SEARCH_SKILL,
            args={SEARCH_PARAMETER: query},
            environment=step.environment,
        )
        if step.id == step_id
        else step
        for step in program.steps
    ]
    return program.model_copy(update={"steps": steps})


#: The skill that reads named values out of a text, and its parameter that says which.
READ_SKILL, READ_PARAMETER = "extract_values", "what"


def sought_after(program: Program, step_id: str) -> list[str]:
    """What the steps after ``step_id`` read out of the pages it leads to (their
    ``extract_values`` descriptions), up to the next step that opens a page or searches: the
    1.5B model, shown only the program, searched for a value an earlier step had found
    ("John's meeting location") instead of the one the search was for."""
    ids = [step.id for step in program.steps]
    later = program.steps[ids.index(step_id) + 1 :] if step_id in ids else []
    sought = []
    for step in later:
        if step.skill == SEARCH_SKILL or "address" in step.args:
            break
        what = step.args.get(READ_PARAMETER)
        if step.skill == READ_SKILL and isinstance(what, str):
            sought.append(what)
    return sought


def found_before(program: Program, step_id: str) -> list[str]:
    """The named values steps before ``step_id`` read out of texts, each as the reference that
    stands for it and what it is (``{s2.place}: where I meet Ann``). Of an extraction of
    several, each value is named before what the extraction looked for (``{s2.place}: the
    place (the time and place of the meeting)``): shown two lines alike, the 1.5B model searched
    for neither value (pc03, 2026-11-29)."""
    found = []
    for step in program.steps:
        if step.id == step_id:
            break
        names, what = step.args.get("names"), step.args.get(READ_PARAMETER)
        if step.skill == READ_SKILL and isinstance(names, list):
            named = [name for name in names if isinstance(name, str)]
            found += [
                f"{{{step.id}.{name}}}: "
                + (f"the {name.replace('_', ' ')} ({what})" if len(named) > 1 else f"{what}")
                for name in named
            ]
    return found


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
            found=bullet_list(found_before(program, guess.step), "- (none)"),
            sought=bullet_list(sought_after(program, guess.step), "- (none)"),
        )
        result = self.ask(prompt_messages(system, user), SearchWords, step)
        return result.value.query if result.value is not None else ""
