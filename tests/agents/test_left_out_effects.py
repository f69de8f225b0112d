"""An end the instruction asks of an application the program works in, that no step makes, is
a doubt; which end is asked is a model's reading, counted where both orders of the options
agree. The real 1.5B model's readings are measured in benchmarks/effect_readings.py; its quick
run in tests/test_benchmarks.py asks the real tiny model under the reply's grammar."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels, reply

from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.left_out_effects import EffectReadingAgent, apps_to_ask, left_out_effects
from pcagent.agents.manager import Manager
from pcagent.skills import default_catalog
from pcagent.skills.effects import ENDS, End

CATALOG = default_catalog()
#: A rewording of pc10 (2026-12-03): the paper's page read, its abstract saved, no download.
SAID = (
    "Download the paper 'Attention Is All You Need' from arxiv.org and type its abstract into a "
    "new Writer document saved as abstract in Documents."
)
OPEN = {"id": "s1", "skill": "open_page", "args": {"address": "arxiv.org/abs/1706.03762"}}
FIND = {"id": "s2", "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["abstract"], "what": "the paper's abstract"}}  # fmt: skip
WRITE = {"id": "s3", "skill": "write_document",
         "args": {"path": "Documents/abstract.docx", "text": {"from": "s2", "key": "abstract"}}}  # fmt: skip
GET = {"id": "s4", "skill": "follow_link", "args": {"text": "Download PDF"}}


def _end(app: str, words: str) -> End:
    return next(end for end in ENDS[app][1] if end.words == words)


DOWNLOADED = _end("browser", "a file downloaded from a web page")
WRITTEN = _end("writer", "a new document written and saved")


def _reads(ends: dict[str, End], asked: list[str] | None = None):
    def read(app: str) -> End | None:
        if asked is not None:
            asked.append(app)
        return ends.get(app)

    return read


def test_an_end_read_that_no_step_makes_is_a_doubt_naming_its_skill() -> None:
    program = as_program(OPEN, FIND, WRITE)
    asked: list[str] = []
    doubts = left_out_effects(
        program, CATALOG, _reads({"browser": DOWNLOADED, "writer": WRITTEN}, asked)
    )
    assert asked == ["writer", "browser"]  # the applications the program works in
    assert [(d.step, d.skills) for d in doubts] == [("s3", ("follow_link",))]
    assert "a file downloaded from a web page" in doubts[0].problem
    with_download = as_program(OPEN, GET, FIND, WRITE)
    reads = _reads({"browser": DOWNLOADED, "writer": WRITTEN})
    assert left_out_effects(with_download, CATALOG, reads) == []
    assert left_out_effects(program, CATALOG, None) == []  # not read: no doubt


def test_no_application_is_asked_about_where_a_screen_step_may_make_its_end() -> None:
    screen = {"id": "s4", "skill": "gui", "app": "browser", "task": "download the PDF"}
    assert apps_to_ask(as_program(OPEN, FIND, WRITE, screen), CATALOG) == ["writer"]
    anywhere = {"id": "s4", "skill": "gui", "task": "download the PDF"}
    assert apps_to_ask(as_program(OPEN, anywhere), CATALOG) == []
    # Every end of the clock made: nothing there can be left out.
    alarm = {"id": "s1", "skill": "set_alarm", "args": {"time": "09:15"}}
    clock = {"id": "s2", "skill": "add_world_clock", "args": {"city": "Tokyo"}}
    assert apps_to_ask(as_program(alarm, clock), CATALOG) == []
    # A step done before a re-plan makes its end too.
    done = as_program(GET).steps
    doubts = left_out_effects(
        as_program(FIND, WRITE), CATALOG, _reads({"browser": DOWNLOADED}), done
    )
    assert doubts == []


def test_an_end_needing_two_skills_names_the_one_left_out() -> None:
    saved_and_sent = _end("mail", "a received mail's attachment saved, and an e-mail sent")
    save = {"id": "s1", "skill": "save_attachment",
            "args": {"subject": "Code", "name": "homework.py", "folder": "Documents"}}  # fmt: skip
    doubts = left_out_effects(as_program(save), CATALOG, _reads({"mail": saved_and_sent}))
    assert [d.skills for d in doubts] == [("send_mail",)]


def test_a_reading_counts_where_both_orders_of_the_options_agree() -> None:
    only, download = "web pages only searched or read", "a file downloaded from a web page"
    models = ScriptedModels(effect_reading=[reply(answer=download), reply(answer=download),
                                            reply(answer=only), reply(answer=download)])  # fmt: skip
    agent = EffectReadingAgent(models.for_role("effect_reading"))
    assert agent.end(SAID, "browser") == DOWNLOADED
    assert agent.end(SAID, "browser") is None  # the answers differ
    first, second = models.prompts("effect_reading")[:2]
    assert "the web browser" in first
    assert first.index(only) < first.index(download) and second.index(download) < second.index(only)
    assert agent.end(SAID, "calculator") is None  # no ends: nothing asked
    assert len(models.prompts("effect_reading")) == 4


def test_the_manager_asks_again_and_a_program_kept_without_the_end_carries_the_doubt() -> None:
    program = json.dumps({"steps": [OPEN, FIND, WRITE]})
    models = ScriptedModels(manager=[program, program])
    asked: list[str] = []
    manager = Manager(
        models.for_role("manager"),
        apps={"browser": "the web", "writer": "documents"},
        skills=CATALOG,
        readings=InstructionReadings(
            ends=lambda words, app: asked.append(app) or {"browser": DOWNLOADED}.get(app)
        ),
        program_attempts=2,
        asks_single_steps=False,
    )
    plan = manager.plan(SAID).plan
    assert len(models.prompts("manager")) == 2
    assert "follow_link" in models.prompts("manager")[1]
    assert "a file downloaded from a web page" in (plan.subtasks[-1].doubt or "")
    assert sorted(set(asked)) == ["browser", "writer"] and len(asked) == 2  # read once each
