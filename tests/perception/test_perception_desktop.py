"""Perception on real applications: marks whose boxes work, exact text selection read back from
the application, OCR boxes where the pixels are, and the intention step with a real model."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from docx import Document
from tests.support import eventually

from pcagent import actions as act
from pcagent.config import load_config
from pcagent.env import SandboxDesktop
from pcagent.env.ownership import give_to_owner
from pcagent.errors import TextNotFoundError
from pcagent.models import StructuredChatModel
from pcagent.models.backend import BackendInfo
from pcagent.models.backends.local_llama import LocalLlamaBackend
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.models.installer import install_pack
from pcagent.perception import ActivePerception, TesseractOcr
from pcagent.perception.text_selection import TextSelector
from pcagent.perception.text_spans import SelectionIntent

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

TITLE = "Quarterly Travel Plan"
PARAGRAPHS = [f"Paragraph {n}: the committee agreed on item {n}." for n in range(1, 6)]


def _clipboard(desktop: SandboxDesktop) -> str:
    reply = subprocess.run(
        ["xclip", "-out", "-selection", "clipboard"],
        env=desktop.env, capture_output=True, timeout=5, check=True,
    )  # fmt: skip
    return reply.stdout.decode()


def _document(home: Path, paragraphs: list[str], name: str) -> Path:
    """A .docx in the sandbox's HOME, the applications' own (they may run as another user)."""
    document = Document()
    document.add_heading(TITLE, 0)
    for text in paragraphs:
        document.add_paragraph(text)
    path = home / name
    document.save(str(path))
    give_to_owner(path, home)
    return path


@pytest.fixture(scope="module")
def writer(shared_desktop: SandboxDesktop):
    path = _document(shared_desktop.home, PARAGRAPHS, "plan.docx")
    shared_desktop.open_app("writer", [path])
    return shared_desktop


def test_clicking_the_bold_mark_makes_the_selected_title_bold(writer: SandboxDesktop) -> None:
    perception = ActivePerception(writer).perceive()
    listing = perception.listing
    for name in ("Bold", "Italic", "Underline", "Left", "Center", "Right", "Justified"):
        assert f'"{name}"' in listing, name
    selected = TextSelector(writer).select("the title")
    assert selected.selected == TITLE
    bold = next(m for m in perception.marks if m.label == "Bold")
    assert "checked" not in bold.states
    writer.execute(act.Click(x=bold.center[0], y=bold.center[1]))
    after = ActivePerception(writer).perceive()
    assert "checked" in next(m for m in after.marks if m.label == "Bold").states
    writer.execute(act.Hotkey(keys=["ctrl", "z"]))

    def bold_is_off() -> bool:
        marks = ActivePerception(writer).perceive().marks
        return "checked" not in next(m for m in marks if m.label == "Bold").states

    # Writer updates the toolbar's accessible state a moment after the undo, not at once.
    assert eventually(bold_is_off, timeout=10)


@pytest.mark.parametrize(
    ("target", "expected", "method"),
    [
        ("the title", TITLE, "accessibility"),
        ("the last paragraph", PARAGRAPHS[-1], "accessibility"),
        ("the first two paragraphs", "\n".join(PARAGRAPHS[:2]), "drag"),
    ],
)
def test_writer_selections_read_back_from_the_application(
    writer: SandboxDesktop, target: str, expected: str, method: str
) -> None:
    result = TextSelector(writer).select(target)
    assert result.method == method
    assert result.selected == expected
    assert result.intent_source == "rule"
    # The application agrees, through a channel the selector did not use: what it copies.
    writer.execute(act.Hotkey(keys=["ctrl", "c"]))
    assert _clipboard(writer).strip() == expected


def test_a_span_across_paragraphs_from_quoted_words(writer: SandboxDesktop) -> None:
    # Starts after a previous selection, inside it: the old selection must not be dragged away.
    TextSelector(writer).select("the first two paragraphs")
    intent = SelectionIntent(start_text="committee agreed on item 2", end_text="Paragraph 4")
    result = TextSelector(writer).select_intent(intent)
    assert result.selected == (
        "committee agreed on item 2.\nParagraph 3: the committee agreed on item 3.\nParagraph 4"
    )
    observation = writer.observe()
    texts = [e.text for e in observation.elements if e.role == "paragraph"]
    assert texts == [TITLE, *PARAGRAPHS]  # nothing was moved or changed


def test_text_that_is_nowhere_gives_a_clear_error(writer: SandboxDesktop) -> None:
    intent = SelectionIntent(start_text="quarterly budget", end_text="was approved")
    with pytest.raises(TextNotFoundError, match=r"quarterly budget.*visible text: Quarterly"):
        TextSelector(writer, max_scrolls=1).select_intent(intent)


def test_ocr_finds_a_word_where_the_application_draws_it(writer: SandboxDesktop) -> None:
    observation = writer.observe()
    paragraph = next(e for e in observation.elements if e.text == PARAGRAPHS[2])
    start = PARAGRAPHS[2].index("committee")
    first, last = writer.character_boxes(paragraph.id, [start, start + len("committee") - 1])
    assert first is not None and last is not None
    region = paragraph.box.model_copy(update={"y": paragraph.box.y - 5, "height": 60})
    result = TesseractOcr().recognize(observation.screenshot, region)
    word = next(w for w in result.words if w.text == "committee")
    assert abs(word.box.x - first.x) <= 3
    assert abs(word.box.right - last.right) <= 3
    assert first.y - 2 <= word.box.y and word.box.bottom <= first.bottom + 2


def test_selection_scrolls_to_text_below_the_screen(desktop: SandboxDesktop) -> None:
    paragraphs = [f"Line {n} of the long report about item {n}." for n in range(1, 61)]
    desktop.open_app("writer", [_document(desktop.home, paragraphs, "long.docx")])
    intent = SelectionIntent(start_text="Line 55 of the", end_text="about item 55.")
    result = TextSelector(desktop).select_intent(intent)
    assert result.scrolls >= 1
    assert result.selected == paragraphs[54]


def test_text_editor_lines_and_quoted_spans(desktop: SandboxDesktop) -> None:
    desktop.execute(act.OpenApp(app="text_editor"))
    desktop.execute(
        act.TypeText(text="Shopping list\nbuy apples and pears\ncall the bank at noon\n")
    )
    selector = TextSelector(desktop)
    assert selector.select("the last line").selected == "call the bank at noon"
    assert selector.select("line 2").selected == "buy apples and pears"
    spanning = selector.select_intent(SelectionIntent(start_text="apples", end_text="the bank"))
    assert spanning.selected == "apples and pears\ncall the bank"
    assert desktop.primary_selection() == "apples and pears\ncall the bank"


def test_the_intention_step_asks_the_model_for_free_form_targets(writer: SandboxDesktop) -> None:
    backend = ScriptedBackend(['{"start_text": "Paragraph 3:", "end_text": "on item 4."}'])
    selector = TextSelector(writer, model=StructuredChatModel(backend, validation_retries=0))
    result = selector.select("the paragraphs about items three and four")
    assert result.intent_source == "model"
    assert result.selected == "\n".join(PARAGRAPHS[2:4])
    prompt = backend.requests[0].messages[-1].parts[0].text  # type: ignore[union-attr]
    assert "[4] Paragraph 3: the committee agreed on item 3." in prompt
    assert prompt.endswith("Text to select: the paragraphs about items three and four")


def test_the_intention_step_runs_on_a_real_local_model(writer: SandboxDesktop) -> None:
    pack = install_pack("smollm2-135m", load_config().models_dir, report=print)
    backend = LocalLlamaBackend(pack.path, info=BackendInfo(name="local"), context_tokens=2048)
    try:
        model = StructuredChatModel(backend, max_output_tokens=128, validation_retries=0)
        selector = TextSelector(writer, model=model, max_scrolls=1)
        # A 135M model's quote is often wrong: either it lands on real text, or the miss is a
        # typed error that names the target. Both prove the inference path end to end.
        try:
            result = selector.select("the sentence about item four")
        except TextNotFoundError as error:
            assert "item four" in str(error) or "visible text" in str(error)
        else:
            assert result.intent_source == "model" and result.model_ms > 0
            assert result.selected == result.expected
    finally:
        backend.close()
