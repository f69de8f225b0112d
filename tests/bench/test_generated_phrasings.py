"""Generated instructions vary in wording as people's do: every template has at least four
phrasings of its own (a request, a question, a first-person need, a terse note), the generator
uses all of them, each phrasing still gives every value its checkers need (and never a value
the agent has to carry over from an earlier sub-task), and the same seed gives the same task."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from pathlib import PurePosixPath

import pytest

from pcagent.bench.generate import TEMPLATES, compose_task, task_yaml
from pcagent.bench.generate.composer import compose_fragments
from pcagent.bench.generate.flow import FlowValue
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.templates_flights import date_words
from pcagent.bench.generate.vocabulary import NamePool
from pcagent.bench.generate.wording import PHRASING_KINDS, clock_text, refer_to
from pcagent.bench.web.data import AIRPORTS

#: Values an earlier sub-task could hand on, each unlike any value a template draws itself.
GIVEN: tuple[FlowValue, ...] = (
    FlowValue(kind="number", text="7315", description="the number of boats moored"),
    FlowValue(kind="number", text="8517", description="the result"),
    FlowValue(kind="time", text="19:25", description="the time the ferry leaves"),
    FlowValue(kind="city", text="Lima", description="the city the cargo is bound for"),
    FlowValue(kind="file", text="Documents/BranchReport.docx", description="BranchReport.docx"),
    FlowValue(kind="document", text="Documents/night_market.docx", description="night_market.docx"),
    FlowValue(kind="script", text="Documents/largest.py", description="largest.py"),
)
#: Attribute draws per template, context and phrasing.
DRAWS = 12
#: Tasks per template the generator must use every phrasing in.
SEEDS = 80

#: What the instruction must name besides the checkers' parameters: the page a browser template
#: opens is checked by its address, which the instruction gives by the film's or country's name.
NAMED_BY_ATTRIBUTE = {
    "browser_film_fact": "title",
    "browser_film_search": "title",
    "browser_population": "country",
    "browser_population_search": "country",
    "browser_film_compare": "titles",
    "browser_ranked_sheet": "names",
    "browser_ranked_text": "names",
    "browser_extreme_text": "names",
    "browser_attractions_document": "cities",
    "mail_read_value": "subject",
    "browser_paper_download": "title",
    "browser_paper_abstract": "title",
}
#: Templates that write a text read off a page (a paper's abstract): it is found, not said.
WRITES_READ = {"browser_paper_abstract"}
#: Templates whose page a web search finds: their instructions name no site.
FOUND_BY_SEARCH = {
    "browser_film_search",
    "browser_population_search",
    "browser_ranked_sheet",
    "browser_ranked_text",
    "browser_extreme_text",
    "browser_attractions_document",
    "editor_list_extreme",
    "browser_paper_download",
    "browser_paper_abstract",
}
#: Templates that write what they found on the web: the values are looked up, not said.
WRITES_FOUND = {"browser_ranked_sheet", "browser_ranked_text", "browser_extreme_text"}
#: Templates whose alarm rings at a time worked out (a travel time before the time given): the
#: instruction gives the time to arrive by, not the alarm's.
WORKED_OUT_ALARM = {"clock_alarm_to_leave"}
#: Templates that read values in a note of their own: what the note holds (a place, a time)
#: is found there, not said.
READ_FROM_NOTE = {
    "editor_trip_fact",
    "editor_agenda_travel_time",
    "editor_agenda_leave_alarm",
    "editor_days_until",
}
#: Words that ask for a formatting, by checker, and for the paragraph it checks.
FORMAT_WORDS = {"docx_bold": "bold", "docx_underline": "underline"}
ALIGNMENT_WORDS = {"center": "cent", "right": "right"}
PARAGRAPH_WORDS = {0: "title", 1: "first paragraph", -1: "last paragraph"}
SPACED_WORDS = {(1,): "the paragraph after the title", (1, 2): "the first two paragraphs"}


def contexts(template: SubtaskTemplate) -> list[tuple[Slot, FlowValue | None]]:
    """Where a template's fragment can stand: first on its own values, ending its task by
    telling its value, or after a sub-task that hands it a value (only there where it needs
    company)."""
    found: list[tuple[Slot, FlowValue | None]] = (
        [] if template.needs_company else [(Slot("s1"), None)]
    )
    if template.reportable:
        found.append((Slot("s1", report=True), None))
    found += [
        (Slot("s2", after=("s1_done",), report=template.reportable), given)
        for given in GIVEN
        if given.kind in template.consumes
    ]
    return found


def fragments_in_every_phrasing(
    template: SubtaskTemplate,
) -> list[tuple[int, Slot, FlowValue | None, TemplateAttributes, Fragment]]:
    built = []
    for slot, given in contexts(template):
        for draw in range(DRAWS):
            drawn = template.draw(Draw(random.Random(draw), NamePool(random.Random(draw)), given))
            for phrasing in range(len(template.phrasings)):
                attributes = drawn.model_copy(update={"phrasing": phrasing})
                built.append((phrasing, slot, given, attributes, template.build(attributes, slot)))
    return built


def _translates(fragment: Fragment) -> bool:
    return any(step.skill == "translate_text" for step in fragment.program.steps)


def needed_values(fragment: Fragment) -> list[str]:
    """What the fragment's checkers expect that the instruction has to give the agent, read
    from its nodes' parameters (and the calculator's operands from its reference)."""
    needed: list[str] = []
    for node in fragment.nodes:
        params = node.params
        if "path" in params:
            path = PurePosixPath(params["path"])
            needed.append(path.stem)  # office files are saved by their name without extension
            needed += [part for part in path.parts[:-1]]  # "Documents", a new folder's name
        match node.checker:
            case "file_exists" | "file_missing" | "answer_is" | "calculator_shows":
                pass  # the path above; a value to find or compute, see the test
            case "window_title_contains":
                needed.append(params["text"])
            case "text_file_has_number":
                needed.append(params["value"])
            case "text_file_in_order" | "text_file_lacks":
                needed += params["texts"]  # what a file must leave out is named to be left
            case "python_prints":
                pass  # the path above; what the script prints is the script's to say
            case "python_function_returns":
                needed.append(params["function"])  # what it returns, the instruction describes
            case "file_downloaded":
                pass  # the paper's file name is its id: found on the page, not said
            case "text_file_contains" | "docx_contains" if not _translates(fragment):
                needed += params["texts"]
            case "docx_contains" | "docx_text_after":
                # A translation's words: the language and the document are what is said.
                needed.append("English")
            case "xlsx_rows":
                needed += [cell for row in params["rows"] for cell in row]
            case "clock_alarm":
                needed.append(f"{params['hour']:02d}:{params['minute']:02d}")
            case "world_clock":
                needed.append(params["city"])
            case "mail_sent":
                needed += [params["to"], params["subject_contains"], params["attachment"]]
            case "web_visited":
                needed.append(params["host"].removeprefix("www."))
            case "web_searched":
                needed += [params["host"], *params["words"]]
            case "web_asked":
                needed += [*params["words"], *([params["host"]] if "host" in params else [])]
            case "docx_mentions":
                pass  # what the web says of the things named (a city's sights): found, not said
            case "docx_paragraphs_about":
                needed += params["subjects"]
            case "flight_searched":
                needed += [params["host"].removeprefix("www.")]
                needed += [AIRPORTS[params["origin"]], AIRPORTS[params["destination"]]]
                needed += [
                    date_words(params[key]) for key in ("date", "return_date") if key in params
                ]
                needed.append("round-trip" if params["trip"] == "roundtrip" else "one-way")
            case "docx_bold" | "docx_underline":
                needed += [FORMAT_WORDS[node.checker], PARAGRAPH_WORDS[params["paragraph"]]]
            case "docx_alignment":
                needed += [
                    ALIGNMENT_WORDS[params["alignment"]],
                    PARAGRAPH_WORDS[params["paragraph"]],
                ]
            case "docx_font_size":  # one step from the title's 26 pt or the body's 11 pt
                base = 26 if params["paragraph"] == 0 else 11
                step = "larger" if params["points"] > base else "smaller"
                needed += ["one size step " + step, PARAGRAPH_WORDS[params["paragraph"]]]
            case "docx_line_spacing":
                assert params["spacing"] == 2
                needed += ["double", SPACED_WORDS[tuple(params["paragraphs"])]]
            case _:
                pytest.fail(f"no rule for what {node.checker} needs the instruction to say")
    days = [s for s in fragment.program.steps if s.skill == "days_between"]
    if days:  # the dates, as the instruction writes them
        # A date the program refers to is one a note gives (held by the files), not said.
        dates = [days[0].args[key] for key in ("start", "end")]
        needed += [date_words(str(date)) for date in dates if isinstance(date, str)]
        return needed
    for step in fragment.reference_api:
        if step.action and step.action["kind"] == "calculator_evaluate":
            left, _, right = step.action["expression"].split()
            needed += [left, right]
    return needed


def _held_by_files(fragment: Fragment, words: str) -> bool:
    """Whether ``words``, or one of its alternatives ("france|lyon"), is written in a file the
    fragment puts in HOME."""
    texts = [file.text.lower() for file in fragment.files if file.text]
    return any(word.lower() in text for word in words.split("|") for text in texts)


def test_every_template_has_at_least_four_phrasings_of_every_kind() -> None:
    for template in TEMPLATES:
        kinds = [phrasing.kind for phrasing in template.phrasings]
        assert len(kinds) >= 4, template.name
        assert set(kinds) == set(PHRASING_KINDS), (template.name, kinds)
        texts = [phrasing.text for phrasing in template.phrasings]
        assert len(set(texts)) == len(texts), f"{template.name} repeats a phrasing"


def test_the_generator_uses_every_phrasing_of_every_template() -> None:
    used: dict[str, set[int]] = defaultdict(set)
    for seed in range(SEEDS):
        for template in TEMPLATES:
            chain, fragments = compose_fragments(seed, 1, template)
            for member, fragment in zip(chain.templates, fragments, strict=True):
                used[member.name].add(fragment.phrasing)
    for template in TEMPLATES:
        assert used[template.name] == set(range(len(template.phrasings))), template.name


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.name for t in TEMPLATES])
def test_every_phrasing_gives_the_values_its_checkers_need(template: SubtaskTemplate) -> None:
    worded: dict[tuple[str, str], set[str]] = defaultdict(set)
    for phrasing, slot, given, attributes, fragment in fragments_in_every_phrasing(template):
        instruction = fragment.instruction
        where = (template.name, phrasing, instruction)
        assert fragment.phrasing == phrasing, where
        same_values = attributes.model_dump_json(exclude={"phrasing"})
        worded[(f"{slot}{given}", same_values)].add(instruction)
        # One sentence of its own, so that joined fragments read as one request each.
        assert instruction[0].isupper() and instruction[-1] in ".?", where
        assert not re.search(r"[.?!]\s+[A-Z]", instruction), where
        needed = needed_values(fragment)
        if template.name in NAMED_BY_ATTRIBUTE:
            named = getattr(attributes, NAMED_BY_ATTRIBUTE[template.name])
            needed += list(named) if isinstance(named, tuple) else [named]
        if template.name in FOUND_BY_SEARCH:
            sites = [
                n.params["host"].removeprefix("www.") for n in fragment.nodes if "host" in n.params
            ]
            assert sites and not any(site in instruction for site in sites), where
            needed = [value for value in needed if value not in sites]
        assert needed, where
        if template.name in WRITES_READ:
            read = {
                t for n in fragment.nodes if n.checker == "docx_contains" for t in n.params["texts"]
            }
            needed = [value for value in needed if value not in read]
        if template.name in WORKED_OUT_ALARM:
            alarms = [n.params for n in fragment.nodes if n.checker == "clock_alarm"]
            assert len(alarms) == 1, where
            needed.remove(f"{alarms[0]['hour']:02d}:{alarms[0]['minute']:02d}")
            needed.append(clock_text(attributes.hour, attributes.minute))  # type: ignore[attr-defined]
        if template.name in READ_FROM_NOTE:
            alarms = [n.params for n in fragment.nodes if n.checker == "clock_alarm"]
            for alarm in alarms:  # worked out from a time the note holds
                needed.remove(f"{alarm['hour']:02d}:{alarm['minute']:02d}")
        if template.name in WRITES_FOUND:
            found = {str(value) for value in attributes.values}  # type: ignore[attr-defined]
            found |= {str(int(value)) for value in attributes.values}  # type: ignore[attr-defined]
            needed = [value for value in needed if value not in found]
        if given is not None and given.kind == "document":
            # The sub-task before opened it and said where it is: the name is enough here.
            folder = given.text.rsplit("/", 1)[0]
            needed = [value for value in needed if value != folder]
        named = ("file", "document", "script")
        carried = given.text if given is not None and given.kind not in named else None
        if template.name in READ_FROM_NOTE:
            needed = [value for value in needed if not _held_by_files(fragment, value)]
        for value in needed:
            if value == carried:
                continue  # checked below: named, not given
            assert value in instruction, (value, where)
        if given is not None:
            assert refer_to(given) in instruction, where
        if carried is not None:
            assert carried not in instruction, where
        for node in fragment.nodes:
            if node.checker == "answer_is":
                assert node.params["value"] not in instruction, where
                assert "tell me" in instruction, where
        if not slot.report:
            assert "tell me" not in instruction, where
    # Each phrasing words the same values in the same place differently.
    for instructions in worded.values():
        assert len(instructions) == len(template.phrasings), instructions


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.name for t in TEMPLATES])
def test_the_same_seed_gives_the_same_task_twice(template: SubtaskTemplate) -> None:
    for seed in range(6):
        first, second = compose_task(seed, 3, template), compose_task(seed, 3, template)
        assert task_yaml(first) == task_yaml(second)
        assert first.instruction == second.instruction
