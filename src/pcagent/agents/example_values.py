"""A value that only memory's examples hold: a doubt.

Why: shown the programs of similar earlier tasks, the 1.5B Manager copies one whole, with its
values. Asked which side of the road people drive on at a trip's destination, it searched for
"journey time between Market Hall and City Library" and filled a maps form with those two
places, an example's (pc04, 2026-11-28); asked for two films' ratings, it searched for an
example's films (a rewording of pc11). The run then works, step by step checked, on another
task's values. Whether a literal stands in the examples shown and in nothing the run was given
is in the program and the prompt, not in the instruction's wording: a literal text each of
whose longer words is missing from the instruction and the values found, that names something
(two words or more, one of them capitalised: "Market Hall", "Copper Sky"), and that the
examples' text holds whole, is doubted, and the Manager re-asked. It decides nothing alone: a program kept
with it ends "unverified" at best. A text an example's instruction quotes whole is that
example's value, whatever its length or case, and doubted the same way where this run's own
instruction and values do not hold it as written.

Left alone: a step's ``label`` (a form's field is named by the page, which an example may show
rightly), an extraction's ``names`` (a value's name, such as ``time``, is no value) and its
``uses`` (the parameters its values go to, ``set_alarm.time``, which code writes: read as an
example's code name, it doubted right programs and ended pc01r1 "unverified" on 2026-12-07), and texts
that name nothing: a single word ("Inbox", a form's "true") or a description in lower case
("the travel time in minutes"), which the templates' own programs share across tasks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from pydantic import JsonValue

from pcagent.agents.given_values import words_of
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, is_reference
from pcagent.applications import application_words
from pcagent.skills import SkillCatalog
from pcagent.text import STEM, contains, word_written

#: Words shorter than this ("to", "the", "of") say nothing of where a value came from; a longer
#: word counts as given as a search's words do (:func:`~pcagent.text.word_written`).
_LONG = 4
#: The fewest words of a sentence copied whole (a step's task for the GUI, a composed text).
_SENTENCE = 6
#: The fewest names of an example's instruction that make a sentence partly given a copy.
_NAMES_COPIED = 2
#: Arguments and keys whose texts are names, not values (the hidden arguments code fills in,
#: an extraction's ``uses``, are left out by the catalog: :meth:`Skill.written_by_a_model`).
_NAMES = frozenset({"names", "label"})


def example_values(
    program: Program, examples: str, given: Sequence[str], catalog: SkillCatalog | None = None
) -> list[Doubt]:
    """A doubt on each step of ``program`` with a literal text that ``examples`` (memory's
    programs shown) hold and that none of ``given`` (the instruction, the values found)
    accounts for; only the arguments a model writes where ``catalog`` knows the skill."""
    if not examples:
        return []
    doubts = []
    for step in program.steps:
        args = step.args
        if catalog is not None and step.skill in catalog:
            args = catalog.get(step.skill).written_by_a_model(args)
        texts = [*_texts(args), *([step.task] if step.task else [])]
        copied = [text for text in texts if _copied(text, examples, given)]
        if copied:
            shown = ", ".join(repr(text) for text in dict.fromkeys(copied))
            doubts.append(
                Doubt(
                    step.id,
                    f"{shown}: from an earlier task shown as an example, not from this "
                    "instruction or a value found: the examples are other tasks; take the "
                    "instruction's values, or find them first and refer to them",
                )
            )
    return doubts


def _texts(value: JsonValue, name: str = "") -> Iterator[str]:
    """The literal texts of an argument, names and references left out."""
    if name in _NAMES or is_reference(value):
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, key)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item, name)


def _copied(text: str, examples: str, given: Sequence[str]) -> bool:
    if _quoted_by_an_example(text, examples) and not any(contains(g, text) for g in given):
        return True
    if any(_examples_code_name(word, examples, given) for word in words_of(text)):
        return True
    every = words_of(text)
    words = [w for w in every if len(w) >= _LONG]
    names = len(every) >= 2 and any(word[0].isupper() for word in words)
    if not names:
        return False
    if any(word_written(word, given) for word in words):
        return _copied_whole(every, examples, given) or _mostly_an_example_s(
            text, words, examples, given
        )
    return _an_example_s(text, examples)


def _an_example_s(text: str, examples: str) -> bool:
    """Whether an example's program holds ``text`` whole, its names given by that example's
    instruction (:func:`_its_value`)."""
    return any(_its_value(text, said) for said in _sources(examples, text.strip()))


def _mostly_an_example_s(text: str, words: list[str], examples: str, given: Sequence[str]) -> bool:
    """Whether a text with some words given is still an example's own: an example's program
    holds it whole, fewer than half of its longer ``words`` are given (as for a search's
    words, :func:`~pcagent.agents.given_values.grounded`), and a name of it (capitalised) is
    not given. Why: asked for a document presenting two companies, the 1.5B Manager composed
    an example's "a short paragraph introducing Helsinki", its one given word "paragraph";
    the document was saved and the run said "finished" (pc09r2 at 79126f2, 2026-12-07). A
    gold program's request copied whole from another task's (a Python function asked for
    again) has most of its words given; none of 900 gold programs is doubted so."""
    given_words = sum(word_written(word, given) for word in words)
    if given_words * 2 >= len(words):
        return False
    return any(_ungiven_name(word, given) for word in words) and _an_example_s(text, examples)


def _ungiven_name(word: str, given: Sequence[str]) -> bool:
    """Whether ``word`` is a name (capitalised, no application's) that nothing given says."""
    return (
        word[0].isupper()
        and word.casefold() not in application_words()
        and not word_written(word, given)
    )


def _copied_whole(every: list[str], examples: str, given: Sequence[str]) -> bool:
    """Whether a sentence of words partly given is an example's sentence copied with names of
    that example in it: two names at least (capitalised words, not the first) that neither the
    instruction nor a value found gives, and that one example's instruction names. Why: asked
    when to leave for a meeting, the 1.5B Manager wrote an example's instruction as a GUI step
    with one file name changed ("Open memo.txt ..., find where the planning session with Tomas
    takes place, ... the trip there from City Library ..."), and the Decision loop worked on it
    (a rewording of pc03, 2026-12-04); "memo.txt" and "Documents" were the instruction's too.
    One such word may be a kind the task implies and does not say (a "Python" function asked
    for as ``def factorial(n)``, in generated tasks' gold programs)."""
    if len(every) < _SENTENCE:
        return False
    names = {word for word in every[1:] if len(word) >= _LONG and _ungiven_name(word, given)}
    if len(names) < _NAMES_COPIED:
        return False
    return any(
        len(names & set(words_of(line))) >= _NAMES_COPIED
        for line in examples.splitlines()
        if line.startswith(_INSTRUCTION)
    )


def _examples_code_name(word: str, examples: str, given: Sequence[str]) -> bool:
    """Whether ``word`` is a name written as code names are (``even_numbers``: words joined by
    an underscore) that the examples hold whole, with a part that nothing given begins like.
    Why: asked for a function ``kth_largest(numbers, k)``, the 1.5B Manager wrote an example's
    request, "a Python function even_numbers(numbers) that returns the even numbers of the list
    numbers", and the code written defined ``even_numbers`` (pc19 at db209bf, 2026-12-06); its
    other words ("Python", "function", "numbers") were the instruction's too, so only the code
    name tells. A name whose parts all stand in what was given ("stock_prices" for "stock
    prices") is not doubted."""
    parts = [part for part in word.split("_") if part]
    if len(parts) < 2 or not any(part[0].isalpha() for part in parts):
        return False
    if word.casefold() not in {other.casefold() for other in words_of(examples)}:
        return False
    if any(contains(text, word) for text in given):
        return False
    return not all(word_written(part, given) for part in parts if len(part) >= 3)


#: How memory shows an example's instruction: a line of its own before its program.
_INSTRUCTION = "Instruction: "


def _quoted_by_an_example(text: str, examples: str) -> bool:
    """Whether an example's instruction quotes ``text`` whole ("search \"agents\""): a
    quoted text is that task's value, even a single word in lower case. Why: re-asked with an
    example whose instruction read 'search "agents"', the 1.5B Manager searched arxiv.org for
    "agents" where the person had asked for "multimodal agent"; the download's check passed and
    the run said "finished" (pc15, 2026-12-05). Its words stood in the instruction by their
    beginnings, so only the copy whole tells."""
    wanted = text.strip().casefold()
    if not wanted:
        return False
    return any(
        f"{mark}{wanted}{end}" in line.casefold()
        for line in examples.splitlines()
        if line.startswith(_INSTRUCTION)
        for mark, end in (('"', '"'), ("\u201c", "\u201d"), ("'", "'"))
    )


def _sources(examples: str, text: str) -> Iterator[str | None]:
    """For each line of ``examples`` holding ``text``: the instruction of the example it is in
    (the line itself where it is one), None where a program is shown without its instruction."""
    instruction = None
    for line in examples.splitlines():
        if line.startswith(_INSTRUCTION):
            instruction = line
        if contains(line, text):
            yield instruction


def _its_value(text: str, instruction: str | None) -> bool:
    """Whether the example's own instruction gave ``text``: each of its capitalised words
    stands there, capitalised. Why: a text an example's program holds and its instruction
    never named is the page's or the application's ("Download PDF", a link every paper's
    page has; the instruction said "save its PDF"), not that task's value, and the same on
    every page of its kind; a film's title or a place copied is named by the example's
    instruction."""
    if instruction is None:
        return True
    named = words_of(instruction)
    capitals = [w for w in words_of(text) if len(w) >= _LONG and w[0].isupper()]
    return all(any(other.startswith(word[:STEM]) for other in named) for word in capitals)
