"""The grounding eval: its cases match the recorded screens of the real applications, its scoring
counts what the model chose, and a real local model answers it through the inference path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pcagent.bench.grounding import (
    GroundingCase,
    MarkChoice,
    build_cases,
    evaluate,
    lexical_choice,
    load_cases,
    screen_marks,
)
from pcagent.config import ModelProfile, ModelsConfig, PcAgentConfig, load_config
from pcagent.env.observation import Box
from pcagent.models import ModelRouter
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.models.installer import install_pack
from pcagent.models.structured import StructuredChatModel
from pcagent.perception.listing import element_targets
from pcagent.perception.marks import Mark

ROOT = Path(__file__).resolve().parents[2] / "benchmarks" / "grounding"
SCREENS = ROOT / "screens"
APPS = {
    "text_editor",
    "calculator",
    "writer",
    "spreadsheet",
    "file_manager",
    "clock",
    "browser",
    "mail",
}


@pytest.fixture(scope="module")
def cases() -> list[GroundingCase]:
    return load_cases(ROOT / "cases.json")


def test_the_cases_cover_every_application_and_are_many(cases: list[GroundingCase]) -> None:
    assert len(cases) >= 150
    assert {case.app for case in cases} == APPS
    assert len({case.id for case in cases}) == len(cases)
    assert {case.kind for case in cases} == {"label", "purpose"}


def test_each_answer_is_the_mark_it_names_on_its_recorded_screen(
    cases: list[GroundingCase],
) -> None:
    marks = {screen: screen_marks(SCREENS, screen) for screen in {c.screen for c in cases}}
    for case in cases:
        (mark,) = [m for m in marks[case.screen] if m.number == case.mark]
        assert (mark.role, mark.label) == (case.role, case.label), case.id


def test_the_cases_file_is_what_the_builder_makes_of_the_screens(
    cases: list[GroundingCase],
) -> None:
    screens = json.loads((ROOT / "cases.json").read_text(encoding="utf-8"))["screens"]
    assert build_cases(SCREENS, screens) == cases


def _mark(number: int, role: str, label: str) -> Mark:
    return Mark(
        number=number, role=role, label=label, box=Box(x=number * 10, y=0, width=8, height=8)
    )


def test_ambiguous_and_unreadable_controls_give_no_case(tmp_path: Path) -> None:
    from pcagent.bench import grounding

    marks = [
        _mark(1, "tree item", "Inbox"),
        _mark(2, "tree item", "Inbox, 2 unread messages"),
        _mark(3, "push button", "Close"),
        _mark(4, "toggle button", "Close"),
        _mark(5, "push button", "GtkImage"),
        _mark(6, "text", "/tmp/sandbox-x1/home"),
        _mark(7, "push button", "_Add World Clock Add World Clock"),
        _mark(8, "heading", "Welcome"),
    ]
    kept = grounding._unique_controls(marks)
    assert [mark.number for mark in kept] == [2, 7]
    assert grounding._shown_label(marks[6].label) == "Add World Clock"


def test_scoring_counts_the_model_s_choices_per_app_and_listing(
    cases: list[GroundingCase],
) -> None:
    chosen = [cases[0], next(c for c in cases if c.app != cases[0].app)]
    right, wrong = chosen[0].mark, chosen[1].mark + 1
    # Asked screen by screen: full listing for both cases, then the pruned one.
    order = sorted(chosen, key=lambda case: (case.screen, case.id))
    replies = [right if case is chosen[0] else wrong for case in order] * 2
    backend = ScriptedBackend([json.dumps({"mark": number}) for number in replies])
    model = StructuredChatModel(backend, validation_retries=0)
    report = evaluate(model, SCREENS, chosen).as_json()
    for listing in ("full", "pruned"):
        figures = report["model"][listing]
        assert figures["top1"] == 0.5
        assert figures["per_app"] == {chosen[0].app: 1.0, chosen[1].app: 0.0}
    assert report["cases"] == 2
    # The instruction is the last thing in the prompt: a screen's listing is a shared prefix.
    assert backend.requests[0].messages[-1].text.endswith(f"Instruction: {order[0].instruction}")


def test_the_lexical_baseline_picks_the_named_label() -> None:
    marks = [_mark(1, "menu", "File"), _mark(2, "push button", "Save"), _mark(3, "link", "Help")]
    assert lexical_choice(marks, "Press the “Save” button") == 2


@pytest.mark.slow
def test_a_real_local_model_answers_a_case_with_a_mark_number(
    cases: list[GroundingCase],
) -> None:
    base = load_config(environ={})
    install_pack("smollm2-135m", base.models_dir, report=print)
    profile = ModelProfile(pack="smollm2-135m", max_output_tokens=128, context_tokens=4096)
    config = PcAgentConfig(
        data_dir=base.data_dir,
        models=ModelsConfig(profiles={"local": profile}, validation_retries=0),
    )
    case = next(c for c in cases if c.app == "calculator")
    with ModelRouter(config) as router:
        model = router.for_role("decision")
        report = evaluate(model, SCREENS, [case], listings=("pruned",))
    (answer,) = report.answers
    assert answer.error == ""
    assert isinstance(answer.chosen, int)
    assert answer.prompt_tokens > 100
    assert MarkChoice(mark=answer.chosen).mark == answer.chosen


def test_by_label_the_model_names_a_listed_label_held_to_the_screen(
    cases: list[GroundingCase],
) -> None:
    case = next(c for c in cases if c.app == "calculator" and c.kind == "label")
    marks = screen_marks(SCREENS, case.screen)
    (mark,) = [m for m in marks if m.number == case.mark]
    label = next(name for name, m in element_targets(marks).items() if m.number == mark.number)
    backend = ScriptedBackend(
        [json.dumps({"label": "no such label"}), json.dumps({"label": label})]
    )
    model = StructuredChatModel(backend, validation_retries=1)
    report = evaluate(model, SCREENS, [case], listings=("pruned_label",))
    (answer,) = report.answers
    assert answer.correct and answer.error == ""
    schema = json.dumps(backend.requests[0].schema)
    assert json.dumps(label) in schema  # the labels are an enum for constrained decoding
    assert "Input should be" in backend.requests[1].messages[-1].text
    assert report.as_json()["model"]["pruned_label"]["top1"] == 1.0
