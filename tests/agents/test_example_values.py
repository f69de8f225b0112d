"""A literal only memory's examples hold is doubted: what counts as copied, what is left alone,
and that no gold program of the generated tasks is doubted with the others' programs shown."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program

from pcagent.agents.doubts import Evidence
from pcagent.agents.example_values import example_values
from pcagent.agents.extraction_uses import with_extraction_uses_told
from pcagent.agents.program import Program, ProgramStep
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog
from pcagent.text import word_written

SAID = (
    "In the text editor, open travel_plan.txt in Documents and find the destination. Use the "
    "browser to find out whether traffic there drives on the left or on the right."
)
EXAMPLES = (
    "Instruction: How long is the walk from Market Hall to City Library?\nProgram: "
    '{"steps": [{"id": "s1", "skill": "web_search", "args": {"query": "journey time between '
    'Market Hall and City Library"}}, {"id": "s2", "skill": "fill_form", "args": {"fields": '
    '[{"label": "From", "value": "Market Hall"}, {"label": "To", "value": "City Library"}]}}, '
    '{"id": "s3", "skill": "extract_values", "args": {"text": {"from": "s2"}, "names": '
    '["minutes"], "what": "the travel time in minutes"}}]}'
)


def _search(query: str) -> dict[str, object]:
    return {"id": "s1", "skill": "web_search", "args": {"query": query}}


def test_a_literal_only_the_examples_hold_is_doubted() -> None:
    copied = as_program(
        _search("journey time between Market Hall and City Library"),
        {
            "id": "s2",
            "skill": "fill_form",
            "args": {
                "fields": [
                    {"label": "From", "value": "Market Hall"},
                    {"label": "To", "value": "City Library"},
                ]
            },
        },
    )
    first, second = example_values(copied, EXAMPLES, [SAID])
    assert first.step == "s1" and "'journey time between Market Hall and City Library'" in str(
        first
    )
    assert second.step == "s2" and "'Market Hall', 'City Library': from an earlier task" in str(
        second
    )
    # The labels are the page's names; only the values were doubted.
    assert "'From'" not in str(second)


def test_a_word_inside_one_of_the_instruction_s_words_is_not_given() -> None:
    """pc04 (2026-12-01): the example's "Riverside Walk" went into the map's form, and the
    instruction's "drives" held "Rive" inside it, so the copy was taken as given."""
    examples = EXAMPLES.replace("Market Hall", "Riverside Walk")
    form = {
        "id": "s2",
        "skill": "fill_form",
        "args": {"fields": [{"label": "From", "value": "Riverside Walk"}]},
    }
    (doubt,) = example_values(as_program(form), examples, [SAID])
    assert "'Riverside Walk'" in str(doubt)
    # A word's beginning still counts: "walking" by "walk", a file name's parts by their words.
    assert word_written("walking", ["the walk there"])
    assert word_written("plans", ["open travel_plan.txt"])
    assert not word_written("Riverside", ["traffic there drives on the left"])


def test_what_the_instruction_or_a_value_found_accounts_for_is_left_alone() -> None:
    # A word of the instruction ("traffic"), a value found ("Tokyo"), a reference, a name, a
    # text the examples do not hold, short words only: none is doubted.
    for query in ("traffic City Library", "Tokyo left or right", "{s1.city} traffic"):
        assert example_values(as_program(_search(query)), EXAMPLES, [SAID, "Tokyo"]) == []
    assert example_values(as_program(_search("Paper Lanterns")), EXAMPLES, [SAID]) == []
    assert example_values(as_program(_search("To")), EXAMPLES, [SAID]) == []
    extract = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["minutes"], "what": "which side"},
    }
    assert example_values(as_program(extract), EXAMPLES, [SAID]) == []
    copied = as_program(_search("Market Hall"))
    assert example_values(copied, "", [SAID]) == []  # no examples shown
    assert len(Evidence([SAID], examples=EXAMPLES).doubts(copied, default_catalog())) >= 1


def test_a_name_the_example_s_own_instruction_never_gave_is_the_page_s() -> None:
    """A paper's "Download PDF" link: every paper's page has it, and the example's instruction
    said "save its PDF". Copied, it is the page's name, not that task's value; a program shown
    without its instruction is judged as before."""
    link = {"id": "s3", "skill": "follow_link", "args": {"text": "Download PDF"}}
    example = (
        'Instruction: Look up the paper "Kettle Design" in a web browser and save its PDF.\n'
        f"Program: {json.dumps({'steps': [link]})}"
    )
    said = ["Get me the PDF of the Copper Sky paper, please."]
    assert example_values(as_program(link), example, said) == []
    (doubt,) = example_values(as_program(link), example.split("\n", 1)[1], said)
    assert "'Download PDF'" in str(doubt)
    # A title the example's instruction named, copied, is still that task's value.
    title = {"id": "s2", "skill": "follow_link", "args": {"text": "Kettle Design"}}
    shown = example.replace('"Download PDF"', '"Kettle Design"')
    assert len(example_values(as_program(title), shown, said)) == 1


def test_a_text_an_example_s_instruction_quotes_is_that_example_s_value() -> None:
    """pc15 (2026-12-05): re-asked with an example that searched arxiv.org for "agents", the
    Manager searched "agents" where the person asked for "multimodal agent"."""
    shown = (
        'Instruction: Browser, arxiv.org: search "agents", download the third result.\n'
        'Program: {"steps": [{"id": "s2", "skill": "fill_form", "args": {"fields": [{"label": '
        '"Search arXiv", "value": "agents"}]}}]}'
    )
    said = 'Go to arxiv.org, search for papers about "multimodal agent", download the first.'

    def form(value: str) -> Program:
        field = {"label": "Search arXiv", "value": value}
        return as_program({"id": "s2", "skill": "fill_form", "args": {"fields": [field]}})

    (doubt,) = example_values(form("agents"), shown, [said])
    assert "'agents': from an earlier task" in str(doubt)
    # The instruction's own words, or the example's words where this instruction says them too.
    assert example_values(form("multimodal agent"), shown, [said]) == []
    assert example_values(form("agents"), shown, ['search arxiv.org for "agents"']) == []


def _as_planned(steps: list[ProgramStep]) -> Program:
    """A gold program as the Manager's mends leave it (its extractions told their uses)."""
    return with_extraction_uses_told(Program(steps=steps), default_catalog())


def test_no_gold_program_of_generated_tasks_is_doubted_with_the_others_shown() -> None:
    """A gold program's values come from its own instruction, whatever the others hold."""
    tasks = [task for task in generate_tasks(200, 43) if task.program]
    # As memory shows them: each program after its instruction.
    shown = "\n".join(
        f"Instruction: {task.instruction}\nProgram: "
        + json.dumps({"steps": [s.model_dump(exclude_defaults=True) for s in task.program or []]})
        for task in tasks
    )
    catalog = default_catalog()
    doubted = [
        (task.id, [str(d) for d in doubts])
        for task in tasks
        if task.program
        and (
            doubts := example_values(_as_planned(task.program), shown, [task.instruction], catalog)
        )
    ]
    assert doubted == []


MEETING = (
    "Set an alarm clock for when I have to set off from the Empire State Building to reach my "
    "meeting with John punctually. When and where that meeting is, memo.txt in Documents says "
    "(a plain-text editor opens it); how long the trip takes, the web browser can tell you."
)
AGENDA = (
    "Instruction: Open agenda.txt in the Documents folder with the text editor, find where the "
    "planning session with Tomas takes place, and look up on maps.local in the browser how long "
    "the trip there from City Library takes, and tell me what it is.\nProgram: {}"
)


def _screen_step(task: str) -> dict[str, object]:
    return {"id": "s4", "skill": "gui", "app": "browser", "task": task}


def test_an_example_s_instruction_copied_as_a_screen_step_is_doubted() -> None:
    """A rewording of pc03 (2026-12-04): the example's instruction, one file name changed, as
    the program's screen step; its words partly the instruction's own."""
    copied = AGENDA.splitlines()[0].removeprefix("Instruction: ").replace("agenda", "memo")
    (doubt,) = example_values(as_program(_screen_step(copied)), AGENDA, [MEETING])
    assert doubt.step == "s4" and "from an earlier task" in str(doubt)
    # In the instruction's own names, or naming the example's one name only, it stands.
    own = "Open memo.txt in the Documents folder and find when the meeting with John is."
    assert example_values(as_program(_screen_step(own)), AGENDA, [MEETING]) == []
    once = "Look up on maps.local how long the trip from City Hall to the meeting with John takes."
    assert example_values(as_program(_screen_step(once)), AGENDA, [MEETING]) == []
    # An application's name is where a step works, not a value, whatever the example says.
    shown = AGENDA.replace("the text editor", "Mousepad").replace("the browser", "Chromium")
    apps = "Open memo.txt in Mousepad, then look up the trip time in Chromium."
    assert example_values(as_program(_screen_step(apps)), shown, [MEETING]) == []


CODE_EXAMPLES = (
    "Instruction: Create evens.py in Documents holding a Python function even_numbers(numbers) "
    "that returns the even numbers of the list numbers.\nProgram: "
    '{"steps": [{"id": "s1", "skill": "write_code", "args": {"request": "a Python function '
    'even_numbers(numbers) that returns the even numbers of the list numbers"}}]}'
)
CODE_SAID = (
    "Create a new Python file kth_largest.py in Documents, and write a function "
    "kth_largest(numbers, k) that returns the k-th largest number of the list numbers."
)


def _code(request: str) -> dict[str, object]:
    return {"id": "s1", "skill": "write_code", "args": {"request": request}}


def test_a_code_name_only_the_examples_hold_is_doubted() -> None:
    copied = "a Python function even_numbers(numbers) that returns the even numbers of the list"
    (doubt,) = example_values(as_program(_code(copied)), CODE_EXAMPLES, [CODE_SAID])
    assert doubt.step == "s1" and "from an earlier task" in str(doubt)
    own = "a Python function kth_largest(numbers, k) that returns the k-th largest number"
    assert example_values(as_program(_code(own)), CODE_EXAMPLES, [CODE_SAID]) == []


def test_a_code_name_whose_words_were_given_is_not_doubted() -> None:
    said = "Write a function that returns the even numbers of a list, and save it."
    request = "a Python function even_numbers(numbers) that returns the even numbers of a list"
    assert example_values(as_program(_code(request)), CODE_EXAMPLES, [said]) == []


def test_the_parameters_an_extraction_s_values_go_to_are_no_value() -> None:
    """Code writes an extraction's ``uses`` (``set_alarm.time``); an example calling the same
    skill holds that name, which read as an example's code name doubted a right program
    (pc01r1 at db2e2af, 2026-12-07)."""
    program = as_program(
        {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/memo.txt"}},
        {
            "id": "s2",
            "skill": "extract_values",
            "args": {"text": {"from": "s1"}, "names": ["time"], "what": "the second event"},
        },
        {"id": "s3", "skill": "set_alarm", "args": {"time": {"from": "s2", "key": "time"}}},
    )
    told = with_extraction_uses_told(program, default_catalog())
    assert told.steps[1].args["uses"] == {"time": "set_alarm.time"}
    shown = 'Instruction: Wake me at 7.\nProgram: {"steps": [{"skill": "set_alarm"}]}'
    said = "Open memo.txt and put an alarm an hour before the second event."
    assert example_values(told, shown, [said], default_catalog()) == []
    # The same name written by the model as a value is still an example's.
    (doubt,) = example_values(
        as_program({"id": "s1", "skill": "tell_user", "args": {"text": "set_alarm.time"}}),
        shown,
        [said],
    )
    assert doubt.step == "s1"


HELSINKI = (
    "Instruction: Could you write a short paragraph introducing Helsinki in a new document in "
    "the word processor and save it in the Documents folder as VisitSummary?\nProgram: "
    '{"steps":[{"id":"s1","skill":"compose_text","args":{"request":"a short paragraph '
    'introducing Helsinki","paragraphs":1}}]}'
)
COMPANIES = (
    "Using Writer, draft a fresh document with a paragraph presenting Alibaba and another "
    "presenting OpenAI, then store it in Documents under the name TechCompanies."
)


def _compose(request: str) -> dict[str, object]:
    return {"id": "s1", "skill": "compose_text", "args": {"request": request, "paragraphs": 1}}


def test_an_example_s_text_with_a_word_of_the_instruction_in_it_is_doubted() -> None:
    """pc09r2 at 79126f2 (2026-12-07): an example's request composed, "paragraph" its one
    word given; the document was saved and the run said "finished"."""
    copied = as_program(_compose("a short paragraph introducing Helsinki"))
    (doubt,) = example_values(copied, HELSINKI, [COMPANIES])
    assert "'a short paragraph introducing Helsinki': from an earlier task" in str(doubt)
    # The instruction's own names in the same words: no doubt.
    own = as_program(_compose("a short paragraph introducing Alibaba"))
    assert example_values(own, HELSINKI.replace("Helsinki", "Alibaba"), [COMPANIES]) == []
    # Most of its words given (the example's request asked again), no doubt either.
    said = "Could you write a short paragraph introducing Finland's capital in a new document?"
    assert example_values(copied, HELSINKI, [said.replace("Finland's capital", "it")]) == []
