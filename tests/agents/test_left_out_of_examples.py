"""A program that is an example's program less one step that leaves something done is doubted
(pc10 at 2e14a63: the example's download left out, and the run said "finished")."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from tests.agents.program_steps import as_program, gold_programs
from tests.support import smollm2_config

from pcagent.agents.doubts import Evidence
from pcagent.agents.focused_steps import FocusedSteps
from pcagent.agents.left_out_of_examples import EFFECT_SKILLS, steps_left_out_of_examples
from pcagent.agents.manager_memory import EXAMPLES_INTRO, Example, shown_examples
from pcagent.agents.program import Program, ProgramStep, reference_values
from pcagent.agents.step_edits import inserted
from pcagent.models import ModelRouter
from pcagent.models.messages import Message
from pcagent.skills import default_catalog

TITLE = "Sparse Attention Routing"
EXAMPLE = (
    {"id": "s1", "skill": "web_search", "args": {"query": TITLE}},
    {"id": "s2", "skill": "follow_link", "args": {"text": TITLE}},
    {"id": "s3", "skill": "follow_link", "args": {"text": "Download PDF"}},
    {
        "id": "s4",
        "skill": "extract_values",
        "args": {"text": {"from": "s2"}, "names": ["abstract"], "what": "the abstract"},
    },
    {
        "id": "s5",
        "skill": "write_document",
        "args": {"path": "Documents/TeamNotes.docx", "text": {"from": "s4", "key": "abstract"}},
    },
)
SHOWN = EXAMPLES_INTRO + shown_examples([Example(f"Find the paper {TITLE}...", EXAMPLE)])
PAPER = "Attention Is All You Need"
WRITTEN = (
    {"id": "s1", "skill": "web_search", "args": {"query": PAPER}},
    {"id": "s2", "skill": "follow_link", "args": {"text": PAPER}},
    {
        "id": "s3",
        "skill": "extract_values",
        "args": {"text": {"from": "s2"}, "names": ["abstract"], "what": "the abstract"},
    },
    {
        "id": "s4",
        "skill": "write_document",
        "args": {"path": "Documents/Transformer.docx", "text": {"from": "s3", "key": "abstract"}},
    },
)


def test_the_download_the_example_makes_and_the_program_leaves_out_is_doubted() -> None:
    (doubt,) = steps_left_out_of_examples(as_program(*WRITTEN), SHOWN)
    assert doubt.step == "s2" and doubt.skills == ("follow_link",)
    assert json.dumps(EXAMPLE[2]["args"]).replace(" ", "") in doubt.problem.replace(" ", "")
    assert "after s2 here" in doubt.problem
    # The Manager's evidence holds it for a first program, not for a re-plan's.
    evidence = Evidence(given=["x"], examples=SHOWN)
    assert any(d.problem == doubt.problem for d in evidence.doubts(as_program(*WRITTEN), CATALOG))


def test_a_program_with_the_step_or_missing_a_reading_or_of_another_shape_is_left() -> None:
    whole = (
        *WRITTEN[:2],
        {"id": "s5", "skill": "follow_link", "args": {"text": "PDF"}},
        *WRITTEN[2:],
    )
    assert steps_left_out_of_examples(as_program(*whole), SHOWN) == []
    # The example's extraction left out (its value is other checks' business).
    no_reading = [WRITTEN[0], WRITTEN[1], WRITTEN[2], WRITTEN[3], EXAMPLE[2]]
    shown = EXAMPLES_INTRO + shown_examples([Example("x", tuple(no_reading))])
    assert steps_left_out_of_examples(as_program(*WRITTEN[:2], WRITTEN[3]), shown) == []
    # The steps in another order, or three fewer: no doubt.
    assert steps_left_out_of_examples(as_program(WRITTEN[1], WRITTEN[0], *WRITTEN[2:]), SHOWN) == []
    assert steps_left_out_of_examples(as_program(*WRITTEN[:2]), SHOWN) == []
    # Two fewer, not both leaving something done (two readings): no doubt.
    readings = (EXAMPLE[0], EXAMPLE[3], {**EXAMPLE[3], "id": "s5"}, EXAMPLE[4])
    shown = EXAMPLES_INTRO + shown_examples([Example("x", readings)])
    assert steps_left_out_of_examples(as_program(WRITTEN[0], WRITTEN[3]), shown) == []


def test_two_steps_the_example_makes_and_the_program_leaves_out_are_named_together() -> None:
    # pc10r2 at 5c481a6 (2026-12-06): the paper's link and its download left out.
    written = as_program(WRITTEN[0], WRITTEN[2], WRITTEN[3])
    (doubt,) = steps_left_out_of_examples(written, SHOWN)
    assert "two more steps" in doubt.problem and "from after s1 here" in doubt.problem
    assert '"Download PDF"' in doubt.problem and f'"text":"{TITLE}"' in doubt.problem
    assert doubt.step == "s1" and doubt.skills == ("follow_link",)
    # Two in a row: asked for together, after the step before them.
    assert (doubt.wanted_after, doubt.wanted_steps) == ("s1", 2)
    # A search, the link and its reading, the write left out with the download: named too,
    # and not asked for (one place would put one of them out of order).
    (both,) = steps_left_out_of_examples(as_program(*WRITTEN[:3]), SHOWN)
    assert set(both.skills) == {"follow_link", "write_document"}
    assert (both.wanted_after, both.wanted_steps) == (None, 1)
    assert steps_left_out_of_examples(as_program(*WRITTEN), "") == []


def test_no_doubt_where_an_example_of_the_program_s_own_shape_is_shown() -> None:
    """pc22 at 5c481a6: one formatting, as one example showed, doubted against another that
    made two; the memory holds both lengths, so the count is the instruction's to say."""
    short = tuple(step for step in EXAMPLE if step["id"] != "s3")
    both = EXAMPLES_INTRO + shown_examples([Example("a", EXAMPLE), Example("b", short)])
    assert steps_left_out_of_examples(as_program(*WRITTEN), both) == []
    # The same program against the longer example alone is still doubted.
    assert len(steps_left_out_of_examples(as_program(*WRITTEN), SHOWN)) == 1


CATALOG = default_catalog()


def test_each_effect_step_a_gold_program_loses_is_named_when_its_program_is_shown() -> None:
    """Over the generated tasks' gold programs: the gold program shown as the example, the
    program without one step that leaves something done (and that no step refers to) is doubted
    naming that step's skill, and the gold program itself is not."""
    dropped = 0
    for task, gold in gold_programs():
        steps = tuple(step.model_dump(exclude_defaults=True) for step in gold.steps)
        shown = EXAMPLES_INTRO + shown_examples([Example(task.instruction, steps)])
        assert steps_left_out_of_examples(gold, shown) == []
        used = {ref["from"] for step in gold.steps for ref in reference_values(step.args)}
        for index, step in enumerate(gold.steps):
            if step.skill not in EFFECT_SKILLS or step.id in used:
                continue
            less = gold.model_copy(
                update={"steps": [*gold.steps[:index], *gold.steps[index + 1 :]]}
            )
            doubts = steps_left_out_of_examples(less, shown) if less.steps else []
            assert less.steps == [] or any(step.skill in d.skills for d in doubts), task.id
            dropped += bool(less.steps)
    assert dropped >= 300


def _asking(replies: list[Program | None], asked: list[tuple[list[Message], type[Program]]]):
    def ask(messages: list[Message], reply_type: type[Program]) -> Program | None:
        asked.append((messages, reply_type))
        return replies.pop(0)

    return FocusedSteps(
        CATALOG,
        ["browser", "writer"],
        ask,
        mend=lambda program: program,
        problems=lambda _program: [],
        doubts=lambda program: steps_left_out_of_examples(program, SHOWN),
        unused_apps=lambda _program: [],
    )


def test_the_left_out_step_is_asked_for_alone_and_put_in_after_its_step() -> None:
    program = as_program(*WRITTEN)
    doubts = steps_left_out_of_examples(program, SHOWN)
    assert [d.wanted_after for d in doubts] == ["s2"]
    step = ProgramStep.model_validate(EXAMPLE[2] | {"id": "s5"})
    asked: list[tuple[list[Message], type[Program]]] = []
    changed, left = _asking([Program(steps=[step])], asked).improved(PAPER, program, doubts)
    assert [s.skill for s in changed.steps] == [
        "web_search", "follow_link", "follow_link", "extract_values", "write_document"
    ]  # fmt: skip
    assert changed.steps[2].args == {"text": "Download PDF"} and left == []
    (messages, reply_type) = asked[0]
    assert doubts[0].problem in messages[-1].text and "or no step" in messages[-1].text
    steps = reply_type.model_json_schema()["properties"]["steps"]
    assert (steps["minItems"], steps["maxItems"]) == (0, 1)
    offered = {b["properties"]["skill"]["const"] for b in steps["items"]["anyOf"]}
    assert offered == {"follow_link"}  # that skill alone: no screen step, no other skill
    assert reply_type.model_validate({"steps": []}).steps == []


def test_one_step_s_ask_reads_as_it_did_before_two_could_be_asked() -> None:
    program = as_program(*WRITTEN)
    asked: list[tuple[list[Message], type[Program]]] = []
    _asking([None], asked).improved(PAPER, program, steps_left_out_of_examples(program, SHOWN))
    ((messages, _),) = asked
    system, user = messages[0].text, messages[-1].text
    assert "program had one more step, which this program leaves out." in system
    assert "whether it asks for that step too." in system
    assert "asks for what that step does, write the step with this task's values" in system
    assert "does not ask for it, write no step" in system
    assert user.endswith(
        "Write the step s5 where the instruction asks for it, or no step where it does not."
    )


def test_two_steps_in_a_row_are_asked_for_together_and_put_in_in_order() -> None:
    # pc10r2 at aaae802 (2026-12-06): the paper's link and its download left out, kept.
    program = _two_left_out()
    doubts = steps_left_out_of_examples(program, SHOWN)
    link = ProgramStep.model_validate(EXAMPLE[1] | {"id": "s4", "args": {"text": PAPER}})
    download = ProgramStep.model_validate(EXAMPLE[2] | {"id": "s5"})
    asked: list[tuple[list[Message], type[Program]]] = []
    reply = Program(steps=[link, download])
    changed, left = _asking([reply], asked).improved(PAPER, program, doubts)
    assert [(s.id, s.skill, s.args.get("text")) for s in changed.steps] == [
        ("s1", "web_search", None),
        ("s4", "follow_link", PAPER),
        ("s5", "follow_link", "Download PDF"),
        ("s2", "extract_values", {"from": "s1"}),
        ("s3", "write_document", {"from": "s2"}),
    ]
    assert left == []
    ((messages, reply_type),) = asked
    assert "program had two more steps" in messages[0].text
    assert "asks for what those steps do, write the steps" in messages[0].text
    assert messages[-1].text.endswith(
        "Write the steps s4 and s5 where the instruction asks for them, or no step where it does not."
    )
    steps = reply_type.model_json_schema()["properties"]["steps"]
    assert (steps["minItems"], steps["maxItems"]) == (0, 2)
    assert {b["properties"]["id"]["enum"] == ["s4", "s5"] for b in steps["items"]["anyOf"]} == {
        True
    }
    # One of the two written leaves a doubt as before: not fewer, so the program is kept.
    kept, doubts_left = _asking([Program(steps=[download])], []).improved(PAPER, program, doubts)
    assert kept == program and len(doubts_left) == 1


def test_an_example_s_value_in_a_step_put_in_is_asked_for_again_alone() -> None:
    """pc10r2 at 5956dc9 (2026-12-06): asked for the link and the download, the 1.5B model
    wrote the example's paper title in the link. The steps go in with that doubt alone, the
    link is asked for again, and written with this task's paper it is kept."""
    title = "Self-Supervised Depth Estimation from Rolling-Shutter Video"
    example = tuple(s | {"args": {"text": title}} if s["id"] == "s2" else s for s in EXAMPLE)
    shown = EXAMPLES_INTRO + shown_examples([Example(f"Find the paper {title}...", example)])
    program = _two_left_out()
    instruction = f'Download "{PAPER}" and write its abstract into Documents/Transformer.docx'
    evidence = Evidence(given=[instruction], examples=shown)
    copied = ProgramStep.model_validate(example[1] | {"id": "s4"})
    download = ProgramStep.model_validate(example[2] | {"id": "s5"})
    mended = ProgramStep.model_validate(example[1] | {"id": "s4", "args": {"text": PAPER}})
    for replies, link in (
        ([Program(steps=[copied, download]), Program(steps=[mended])], PAPER),
        ([Program(steps=[copied, download]), None], title),
    ):
        asked: list[tuple[list[Message], type[Program]]] = []
        focused = dataclasses.replace(
            _asking(replies, asked), doubts=lambda one: evidence.doubts(one, CATALOG)
        )
        changed, left = focused.improved(instruction, program, evidence.doubts(program, CATALOG))
        assert [(s.id, s.args.get("text")) for s in changed.steps[:3]] == [
            ("s1", None), ("s4", link), ("s5", "Download PDF")
        ]  # fmt: skip
        assert len(asked) == 2 and title in asked[1][0][-1].text
        # Mended: no doubt left; not mended: the example's value stays doubted (unverified).
        assert [(d.step, d.own) for d in left] == ([] if link == PAPER else [("s4", True)])


def test_no_step_written_or_no_reply_leaves_the_program_and_its_doubt() -> None:
    program = as_program(*WRITTEN)
    doubts = steps_left_out_of_examples(program, SHOWN)
    for reply in (None, Program.model_construct(steps=[])):
        kept, left = _asking([reply], []).improved(PAPER, program, doubts)
        assert kept == program and left == doubts


def test_a_step_put_in_before_the_first_or_after_another_takes_the_next_free_id() -> None:
    program = as_program(*WRITTEN)
    step = ProgramStep.model_validate(EXAMPLE[2] | {"id": "s1"})
    assert [s.id for s in inserted(program, "", step).steps] == ["s5", "s1", "s2", "s3", "s4"]
    assert [s.id for s in inserted(program, "s4", step).steps] == ["s1", "s2", "s3", "s4", "s5"]


def _two_left_out() -> Program:
    """The paper's search, its reading and the document: the link and the download left out."""
    read = WRITTEN[2] | {"id": "s2", "args": WRITTEN[2]["args"] | {"text": {"from": "s1"}}}
    write = WRITTEN[3] | {"id": "s3", "args": WRITTEN[3]["args"] | {"text": {"from": "s2"}}}
    return as_program(WRITTEN[0], read, write)


@pytest.mark.parametrize("left_out", [1, 2])
def test_the_real_model_writes_that_skill_s_step_or_none(tmp_path: Path, left_out: int) -> None:
    """Under the grammar even the tiny model's reply parses as the left-out skill's steps (at
    most as many as were left out) or no step (what it writes is meaningless; its kind is what
    the grammar holds)."""
    program = as_program(*WRITTEN) if left_out == 1 else _two_left_out()
    doubts = steps_left_out_of_examples(program, SHOWN)
    with ModelRouter(smollm2_config(tmp_path)) as router:
        model = router.for_role("manager")
        asked: list[Program | None] = []

        def ask(messages: list[Message], reply_type: type[Program]) -> Program | None:
            asked.append(model.ask(messages, reply_type).value)
            return asked[-1]

        focused = _asking([], [])
        focused = dataclasses.replace(focused, ask=ask)
        changed, _ = focused.improved(PAPER, program, doubts)
    (reply,) = asked
    assert reply is not None and len(reply.steps) <= left_out
    assert {s.skill for s in reply.steps} <= {"follow_link"}
    assert len(changed.steps) in (len(program.steps), len(program.steps) + left_out)
