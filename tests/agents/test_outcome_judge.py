"""The Judge: each request of the instruction must be matched to a done step, done as asked, or
the run is not "finished". The model's reply is typed; code decides from it. The real model
path runs in benchmarks/outcome_judge.py's quick run (tests/test_benchmarks.py, smollm2), which
is also where a model's judgement is measured."""

from __future__ import annotations

from tests.agents.scripted import ScriptedModels, reply

from pcagent.agents.outcome_judge import JudgeAgent, step_lines
from pcagent.agents.program import Program, ProgramStep, program_plan
from pcagent.skills.catalog import default_catalog

PROGRAM = Program(
    steps=[
        ProgramStep(id="s1", skill="read_text_file", args={"path": "a.txt"}),
        ProgramStep(
            id="s2",
            skill="format_paragraphs",
            args={"path": {"from": "s1"}, "paragraphs": [0], "bold": True},
        ),
        ProgramStep(id="s3", skill="gui", app="mail", task="Send the summary to Ann"),
        ProgramStep(id="s4", skill="tell_user", args={"text": "x"}),
    ]
)
STEPS = program_plan(PROGRAM, default_catalog()).subtasks


def test_the_steps_are_shown_as_calls_with_references_and_what_they_returned() -> None:
    lines = step_lines(STEPS, {"s1": "x" * 1000, "s3": ""}, ["s1", "s2", "s3"])
    assert lines["s1"].startswith('read_text_file(path="a.txt") -> xxx')
    assert len(lines["s1"]) < 400  # a long value is cut
    assert lines["s2"] == "format_paragraphs(path=<s1>, paragraphs=[0], bold=true)"
    assert lines["s3"] == "through the screen in mail: Send the summary to Ann"
    assert list(lines) == ["s1", "s2", "s3"]  # s4 was not done


def _judge(*replies: str) -> tuple[JudgeAgent, ScriptedModels]:
    models = ScriptedModels(judge=list(replies))
    return JudgeAgent(models.for_role("judge")), models


def _request(asked: str, done_by: str, as_asked: bool = True) -> dict[str, object]:
    return {"asked": asked, "done_by": done_by, "as_asked": as_asked}


def test_every_request_matched_and_done_as_asked_is_complete() -> None:
    judge, models = _judge(
        reply(requests=[_request("read a.txt", "s1"), _request("bold the title", "s2")])
    )
    lines = step_lines(STEPS, {}, ["s1", "s2"])
    verdict = judge.judge("Read a.txt and make its title bold", lines)
    assert verdict.complete and verdict.asked_model
    prompt = models.prompts("judge")[0]
    assert "Instruction: Read a.txt and make its title bold" in prompt
    assert "- s2: format_paragraphs(path=<s1>" in prompt


def test_a_request_no_step_did_or_did_otherwise_is_not_complete() -> None:
    lines = step_lines(STEPS, {}, ["s1", "s2"])
    for unmet in (
        _request("underline the last paragraph", "none"),
        _request("underline the last paragraph", "s9"),  # no such step was done
        _request("a larger font for the title", "s2", as_asked=False),
    ):
        judge, _models = _judge(reply(requests=[_request("read a.txt", "s1"), unmet]))
        verdict = judge.judge("instruction", lines)
        assert not verdict.complete
        assert verdict.missing == f"not done as asked: {unmet['asked']}"


def test_no_valid_judgement_is_not_complete() -> None:
    judge, _models = _judge("not json", "still not json")
    verdict = judge.judge("instruction", {"s1": 'tell_user(text="hi")'})
    assert not verdict.complete
    assert verdict.missing.startswith("no valid judgement of the whole instruction")
