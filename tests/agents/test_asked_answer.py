"""An instruction that asks to be told a value must be answered by some step: a model says which
end the user asks for, code checks the program for a step that tells. The real model's reading
is measured in benchmarks/asked_answer.py (its quick run is in tests/test_benchmarks.py,
smollm2); a run with the check in tests/runtime/test_program_run.py."""

from __future__ import annotations

import json
from pathlib import Path

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels, reply
from tests.support import smollm2_config

from pcagent.agents.asked_answer import (
    BOTH,
    CHANGES,
    VALUE,
    AnswerAskedAgent,
    AskedEnd,
    untold_answer,
)
from pcagent.agents.doubts import Evidence
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.prompting import render
from pcagent.models import ModelRouter
from pcagent.models.messages import Message
from pcagent.skills import default_catalog

SAID = "Look up the population of Peru on the web. How many people live there?"
FOUND = [
    {"id": "s1", "skill": "web_search", "args": {"query": "population of Peru"}},
    {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["people"], "what": "Peru's population"},
    },
]
TOLD = {"id": "s3", "skill": "tell_user", "args": {"text": "{s2.people}"}}


def test_a_program_that_tells_nobody_is_a_doubt_on_its_last_step() -> None:
    (doubt,) = untold_answer(as_program(*FOUND), True)
    assert doubt.step == "s2" and doubt.skills == ("tell_user",)
    assert "asks to be told a value, and no step tells the person" in str(doubt)
    assert '(e.g. "{s2.name}")' in str(doubt)
    assert untold_answer(as_program(*FOUND, TOLD), True) == []
    assert untold_answer(as_program(*FOUND), False) == []  # nothing asked to be told
    reporting = {"id": "s3", "skill": "gui", "app": "browser", "task": "Tell it", "outputs": ["n"]}
    assert untold_answer(as_program(*FOUND, reporting), True) == []
    silent = {"id": "s3", "skill": "gui", "app": "browser", "task": "Read the page"}
    assert untold_answer(as_program(*FOUND, silent), True) != []


def test_a_step_finished_before_a_re_plan_may_have_told() -> None:
    told = SubtaskSpec(id="s3", description="tell", app="", skill="tell_user")
    screen = SubtaskSpec(id="s4", description="report it", app="browser", outputs=["people"])
    quiet = SubtaskSpec(id="s4", description="read it", app="browser")
    readings = InstructionReadings(answer=lambda _said: True)
    program = as_program({"id": "s5", "skill": "web_search", "args": {"query": "Peru"}})
    for finished, doubted in (([told], False), ([screen], False), ([quiet], True)):
        evidence = Evidence.read(readings, SAID, [SAID], [], finished)
        assert bool(evidence.doubts(program, default_catalog())) is doubted, finished


def test_the_reader_says_which_end_is_asked_and_survives_no_reply() -> None:
    for said, asks in ((VALUE, True), (BOTH, True), (CHANGES, False)):
        models = ScriptedModels(asked_answer=[reply(result=said)])
        assert AnswerAskedAgent(models.for_role("asked_answer")).asked(SAID) is asks
    assert f"Instruction: {SAID}" in models.prompts("asked_answer")[0]
    broken = ScriptedModels(asked_answer=["no json", '{"result": "maybe"}'])
    assert AnswerAskedAgent(broken.for_role("asked_answer")).asked(SAID) is False


def test_the_manager_is_asked_again_to_tell_and_keeps_the_doubt_if_it_does_not() -> None:
    silent, telling = {"steps": FOUND}, {"steps": [*FOUND, TOLD]}
    # Asked alone for the step after the value found last, the model searches again.
    again = {"steps": [{"id": "s3", "skill": "web_search", "args": {"query": "Peru"}}]}
    for later, doubted in (
        ([telling], False),
        ([silent] * (PROGRAM_ATTEMPTS - 1) + [again], True),
    ):
        models = ScriptedModels(manager=[json.dumps(p) for p in (silent, *later)])
        asked: list[str] = []
        manager = Manager(
            models.for_role("manager"),
            apps={"browser": "the web"},
            skills=default_catalog(),
            readings=InstructionReadings(answer=lambda said, seen=asked: not seen.append(said)),
        )
        outcome = manager.plan(SAID)
        assert asked == [SAID]  # read once, though the Manager was asked more often
        again = models.backends["manager"].requests[1].messages[-1].text
        assert "no step tells the person: end with tell_user" in again
        assert bool(outcome.plan.subtasks[-1].doubt) is doubted


def test_the_real_model_s_reading_is_one_of_the_ends(tmp_path: Path) -> None:
    """Under the reply's grammar the tiny model answers one of the three ends, and the agent
    turns it into the yes or no the check takes."""
    system, user = render("asked_answer", instruction=SAID)
    with ModelRouter(smollm2_config(tmp_path)) as router:
        model = router.for_role(AnswerAskedAgent.name)
        result = model.ask([Message.system(system), Message.user(user)], AskedEnd)
        asks = AnswerAskedAgent(model).asked(SAID)
    assert result.value is not None and result.value.result in (VALUE, CHANGES, BOTH)
    assert asks is (result.value.result != CHANGES)
