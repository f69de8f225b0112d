"""LibreOffice in the sandbox: documents in the tree, boxes where the pixels are, huge tables."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from docx import Document

from pcagent import actions as act
from pcagent.env import SandboxDesktop
from pcagent.env.ownership import give_to_owner

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

TITLE = "Quarterly Travel Plan"
PARAGRAPHS = [f"Paragraph {n}: the committee agreed on item {n}." for n in range(1, 6)]


@pytest.fixture(scope="module")
def writer(shared_desktop: SandboxDesktop):
    document = Document()
    document.add_heading(TITLE, 0)
    for text in PARAGRAPHS:
        document.add_paragraph(text)
    # In HOME, the applications' own: they may run as another user than this test.
    path: Path = shared_desktop.home / "plan.docx"
    document.save(str(path))
    give_to_owner(path, shared_desktop.home)
    shared_desktop.open_app("writer", [path])
    return shared_desktop


def test_docx_paragraphs_are_in_the_tree_with_their_text(writer: SandboxDesktop) -> None:
    observation = writer.observe()
    texts = [e.text for e in observation.elements if e.role in ("paragraph", "heading")]
    assert TITLE in texts
    for text in PARAGRAPHS:
        assert text in texts
    assert observation.focused_window is not None
    assert "plan.docx" in observation.focused_window.title


def test_toolbar_boxes_are_where_the_buttons_are_drawn(writer: SandboxDesktop) -> None:
    # LibreOffice reports its own widgets one menubar height too high; clicking the corrected
    # centre of "Bold" must toggle it, which a 25-pixel error would miss (the button is 35 high).
    observation = writer.observe()
    paragraph = next(e for e in observation.elements if e.text == PARAGRAPHS[0])
    writer.execute(act.Click(x=paragraph.box.x + 5, y=paragraph.box.center[1]))
    writer.execute(act.Hotkey(keys=["home"]))
    writer.execute(act.Hotkey(keys=["shift", "end"]))
    bold = next(e for e in writer.observe().elements if e.name == "Bold")
    assert "checked" not in bold.states
    writer.execute(act.Click(x=bold.box.center[0], y=bold.box.center[1]))
    bold_after = next(e for e in writer.observe().elements if e.name == "Bold")
    assert "checked" in bold_after.states
    writer.execute(act.Hotkey(keys=["ctrl", "z"]))


def test_paragraph_boxes_match_the_document_layout(writer: SandboxDesktop) -> None:
    observation = writer.observe()
    boxes = [e.box for e in observation.elements if e.text in PARAGRAPHS]
    assert len(boxes) == len(PARAGRAPHS)
    assert all(a.bottom <= b.y + 1 for a, b in itertools.pairwise(boxes))
    width, height = observation.screen_size
    assert all(0 <= box.x < width and 0 <= box.y < height for box in boxes)


def test_spreadsheet_observation_lists_visible_cells_only(shared_desktop: SandboxDesktop) -> None:
    shared_desktop.open_app("spreadsheet")
    shared_desktop.execute(act.TypeText(text="pcagent\n"))
    observation = shared_desktop.observe()
    cells = [e for e in observation.elements if e.role == "table cell"]
    assert 20 < len(cells) <= 300
    a1 = next(cell for cell in cells if cell.name == "A1")
    assert a1.text == "pcagent"
    width, height = observation.screen_size
    assert all(cell.box.y < height and cell.box.x < width for cell in cells)
