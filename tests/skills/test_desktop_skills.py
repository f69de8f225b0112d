"""Skills in real applications of a sandbox desktop, through the run's own dispatcher: each
does the work with the application's actions and checks the effect it reports."""

from __future__ import annotations

import time

import docx
import openpyxl
import pytest
from docx.shared import Pt

from pcagent import actions as act
from pcagent.bench.checkers import CheckContext, run_checker
from pcagent.env import SandboxDesktop
from pcagent.env.office_writer_actions import next_size
from pcagent.env.ownership import give_to_owner
from pcagent.runtime.loop.dispatch import ActionDispatcher
from pcagent.runtime.record.models import StepResult

pytestmark = [pytest.mark.desktop, pytest.mark.slow]


def _call(desktop: SandboxDesktop, skill: str, **args: object) -> StepResult:
    return ActionDispatcher(desktop).carry_out(act.UseSkill(skill=skill, args=args))


def test_calculate_reads_the_result_off_the_display(shared_desktop: SandboxDesktop) -> None:
    result = _call(shared_desktop, "calculate", expression="12 * 7 + 5")
    assert result.ok and result.verified, result.message
    assert result.value == "89"
    bad = _call(shared_desktop, "calculate", expression="12 * seven")
    assert not bad.ok and "expression" in bad.message


def test_an_alarm_an_hour_before_a_time_is_listed_in_the_clock(
    shared_desktop: SandboxDesktop,
) -> None:
    result = _call(shared_desktop, "set_alarm", time="10:15 AM", hours_before=1, name="Call")
    assert result.ok and result.verified, result.message
    assert result.value == "09:15"
    context = CheckContext(shared_desktop.home, shared_desktop)
    assert run_checker("clock_alarm", {"hour": 9, "minute": 15}, context).passed


def test_a_line_longer_than_the_listing_shows_is_seen_typed(shared_desktop: SandboxDesktop) -> None:
    line = f"Weekend plan {time.time_ns()}: a picnic in the park, the museum if it rains."
    note = f"Documents/note-{time.time_ns()}.txt"
    assert _call(shared_desktop, "write_text_file", path=note, text="keep me").ok
    result = _call(shared_desktop, "type_in_editor", text=line)
    assert result.ok and result.verified, result.message
    assert len(line) > 60  # longer than a text in the elements' listing
    # The file that was in front is left as it is: typed text goes into a new document.
    read = _call(shared_desktop, "read_text_file", path=note)
    assert read.ok and str(read.value).strip() == "keep me", read.message


def test_a_text_file_is_written_saved_and_checked_on_disk(shared_desktop: SandboxDesktop) -> None:
    path = f"Documents/skill-{time.time_ns()}.txt"
    result = _call(shared_desktop, "write_text_file", path=path, text="hello from a skill")
    assert result.ok and result.verified, result.message
    assert (shared_desktop.home / path).read_text().strip() == "hello from a skill"
    read = _call(shared_desktop, "read_text_file", path=path)
    assert read.ok and "hello from a skill" in str(read.value)
    missing = _call(shared_desktop, "read_text_file", path="Documents/none-such.txt")
    assert not missing.ok


def test_a_document_opened_from_the_file_manager_gets_text_below_and_a_larger_first_paragraph(
    shared_desktop: SandboxDesktop,
) -> None:
    home = shared_desktop.home
    path = f"Documents/append-{time.time_ns()}.docx"
    document = docx.Document()
    for text in ("Ein kurzer Text", "Er hat zwei Absätze."):
        document.add_paragraph().add_run(text).font.size = Pt(12)
    (home / path).parent.mkdir(exist_ok=True)
    document.save(str(home / path))
    give_to_owner(home / "Documents", home)
    # Opened from the file manager first, as an instruction may ask: the document's window in
    # front, and the skills after it work on the document already open.
    opened = _call(shared_desktop, "open_file", path=path)
    assert opened.ok and opened.verified, opened.message
    assert str(opened.value).splitlines() == ["Ein kurzer Text", "Er hat zwei Absätze."]
    stem = path.rsplit("/", 1)[-1].removesuffix(".docx")
    shown = CheckContext(home, shared_desktop)
    assert run_checker("window_title_contains", {"text": stem}, shown).passed
    missing = _call(shared_desktop, "open_file", path="Documents/none-such.docx")
    assert not missing.ok and "does not exist" in missing.message
    result = _call(shared_desktop, "write_document", path=path, text="A short text", append=True)
    assert result.ok and result.verified, result.message
    paragraphs = [p.text for p in docx.Document(str(home / path)).paragraphs if p.text.strip()]
    assert paragraphs == ["Ein kurzer Text", "Er hat zwei Absätze.", "A short text"]
    # The first paragraph one step up LibreOffice's font size list, saved.
    grown = _call(
        shared_desktop, "format_paragraphs", path=path, paragraphs=[0], size_step="larger"
    )
    assert grown.ok and grown.verified, grown.message
    context = CheckContext(home, shared_desktop)
    larger = next_size(12.0, "larger")
    assert larger > 12
    first = {"path": path, "paragraph": 0, "points": larger}
    assert run_checker("docx_font_size", first, context).passed
    second = {"path": path, "paragraph": 1, "points": 12}
    assert run_checker("docx_font_size", second, context).passed
    # Paragraphs named by where they stand: "last" is the last, wherever the count ends.
    underlined = _call(
        shared_desktop, "format_paragraphs", path=path, paragraphs=["last"], underline=True
    )
    assert underlined.ok and underlined.verified, underlined.message
    last = {"path": path, "paragraph": -1, "only": True}
    assert run_checker("docx_underline", last, context).passed
    beyond = _call(shared_desktop, "format_paragraphs", path=path, paragraphs=[7], bold=True)
    assert not beyond.ok and "3 paragraphs" in beyond.message
    # Read back as plain text, a paragraph a line: no paragraph numbers to carry along.
    read = _call(shared_desktop, "read_document", path=path)
    assert read.ok and str(read.value).splitlines() == [
        "Ein kurzer Text",
        "Er hat zwei Absätze.",
        "A short text",
    ]


def test_ratings_as_rows_of_the_films_fill_the_workbook_that_lists_them(
    shared_desktop: SandboxDesktop,
) -> None:
    """A new sheet saved over a workbook that lists the rows' labels: the values are written
    beside the labels in the real spreadsheet and saved in place, the header kept."""
    home = shared_desktop.home
    path = f"Documents/rates-{time.time_ns()}.xlsx"
    workbook = openpyxl.Workbook()
    for row in (["Movie", "Rating"], ["Interstellar", None], ["12 Angry Men", None]):
        workbook.active.append(row)
    (home / path).parent.mkdir(exist_ok=True)
    workbook.save(str(home / path))
    give_to_owner(home / "Documents", home)
    rows = [["Interstellar", 8.7], ["12 Angry Men", "9.0"]]
    result = _call(shared_desktop, "fill_cells", rows=rows, save_as=path)
    assert result.ok and result.verified, result.message
    context = CheckContext(home, shared_desktop)
    for cell, value in (("A1", "Movie"), ("B1", "Rating"), ("B2", "8.7"), ("B3", "9.0")):
        assert run_checker(
            "xlsx_cell", {"path": path, "cell": cell, "value": value}, context
        ).passed
    lacking = _call(shared_desktop, "fill_cells", rows=[["Alien", 8.5]], save_as=path)
    assert not lacking.ok and "labels its cells hold" in lacking.message
