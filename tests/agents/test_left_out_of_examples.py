"""A program that is an example's program less one step that leaves something done is doubted
(pc10 at 2e14a63: the example's download left out, and the run said "finished")."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program, gold_programs

from pcagent.agents.doubts import Evidence
from pcagent.agents.left_out_of_examples import EFFECT_SKILLS, steps_left_out_of_examples
from pcagent.agents.manager_memory import EXAMPLES_INTRO, Example, shown_examples
from pcagent.agents.program import reference_values
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
    # Two steps fewer, or the steps in another order: no doubt.
    assert steps_left_out_of_examples(as_program(*WRITTEN[:3]), SHOWN) == []
    assert steps_left_out_of_examples(as_program(WRITTEN[1], WRITTEN[0], *WRITTEN[2:]), SHOWN) == []
    assert steps_left_out_of_examples(as_program(*WRITTEN), "") == []


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
