"""A new sheet is never saved over a workbook that is there: rows labelled as the workbook's own
rows are written beside those labels, and anything else is refused before anything is written,
naming the way to write into that workbook (real files in a temporary HOME; the actions are
recorded and answered here, the real spreadsheet's path is in test_desktop_skills.py)."""

from __future__ import annotations

from pathlib import Path

from pcagent.actions import Action
from pcagent.app_actions import SheetOpen, SheetRead, SheetSave, SheetSet
from pcagent.skills import default_catalog
from pcagent.skills.base import ActionOutcome
from pcagent.skills.numbers_written import cell_value
from pcagent.step_context import StepContext

#: The person's workbook as the spreadsheet reads it: films listed, their ratings empty.
SHEET = "sheet 'Sheet1', A1:B3:\nA1: Movie | B1: Rating\nA2: Interstellar\nA3: 12 Angry Men"


class _Home:
    """A skill's context with a HOME and no desktop: every action it asks for is kept; the
    workbook opens and reads as ``sheet``, and a write is allowed only with ``writes``."""

    def __init__(self, home: Path, sheet: str = SHEET, writes: bool = False) -> None:
        self._home, self.asked, self.sheet, self.writes = home, [], sheet, writes

    def act(self, action: Action) -> ActionOutcome:
        self.asked.append(action)
        if isinstance(action, SheetOpen):
            return ActionOutcome(True, "opened")
        if isinstance(action, SheetRead):
            return ActionOutcome(True, "read", self.sheet, True)
        if self.writes and isinstance(action, SheetSet | SheetSave):
            return ActionOutcome(True, "saved in place" if isinstance(action, SheetSave) else "set")
        raise AssertionError(f"nothing may be written: {action}")

    def step(self) -> StepContext | None:
        return None

    def home(self) -> Path | None:
        return self._home

    def screen_text(self) -> str:
        return ""

    def language(self) -> None:
        return None


def _fill(context: _Home, rows: list[list[object]]) -> object:
    arguments = {"rows": rows, "save_as": "Documents/movie_rate.xlsx"}
    return default_catalog().get("fill_cells").call(context, arguments)


def test_a_new_sheet_over_a_workbook_there_fails_first_naming_its_path(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    workbook = tmp_path / "Documents" / "movie_rate.xlsx"
    workbook.write_bytes(b"the person's workbook")
    # a label the workbook lacks, one it holds twice, a row of a label alone: nothing written
    twice = SHEET + " | B3: Interstellar"
    for sheet, rows in (
        (SHEET, [["Interstellar", "8.7/10"], ["Alien", "8.5/10"]]),
        (twice, [["Interstellar", "8.7/10"]]),
        (SHEET, [["Interstellar"]]),
        (SHEET, [[8.7, "Interstellar"]]),
    ):
        context = _Home(tmp_path, sheet)
        result = _fill(context, rows)
        assert not result.ok, rows  # type: ignore[attr-defined]
        assert 'give path="Documents/movie_rate.xlsx"' in result.message  # type: ignore[attr-defined]
        assert not any(isinstance(one, SheetSet | SheetSave) for one in context.asked)
    assert workbook.read_bytes() == b"the person's workbook"


def test_rows_labelled_as_the_workbook_s_rows_are_written_beside_the_labels(
    tmp_path: Path,
) -> None:
    """pc11 and both its rewordings at 5c481a6 (2026-12-06): the ratings as rows of the films'
    names, saved as the workbook that lists the films."""
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents" / "movie_rate.xlsx").write_bytes(b"the person's workbook")
    context = _Home(tmp_path, writes=True)
    result = _fill(context, [["12 angry men", 9.0], ["Interstellar", 8.7]])
    assert result.ok, result.message  # type: ignore[attr-defined]
    written = [one for one in context.asked if isinstance(one, SheetSet)]
    assert [(one.cell, one.values) for one in written] == [("B3", ((9.0,),)), ("B2", ((8.7,),))]
    assert isinstance(context.asked[-1], SheetSave) and context.asked[-1].path == ""
    assert "(B3, B2)" in result.evidence and "replaced" not in result.evidence  # type: ignore[attr-defined]
    # a cell that held something else is named in the evidence
    rated = _Home(tmp_path, SHEET.replace("A2: Interstellar", "A2: Interstellar | B2: 7.9"), True)
    again = _fill(rated, [["Interstellar", 8.7]])
    assert again.ok and "replaced: B2 was '7.9'" in again.evidence  # type: ignore[attr-defined]


def test_ratings_as_pages_write_them_go_into_cells_as_their_scores(tmp_path: Path) -> None:
    """Every wording of pc11 at aaae802 (2026-12-06) wrote "8.7/10" beside the film: text to a
    sheet. A decimal score on a usual scale is its number; what may be a date, a fraction or
    anything else stays as it is."""
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents" / "movie_rate.xlsx").write_bytes(b"the person's workbook")
    context = _Home(tmp_path, writes=True)
    result = _fill(context, [["Interstellar", "8.7/10"], ["12 Angry Men", "9.0 / 10"]])
    assert result.ok, result.message  # type: ignore[attr-defined]
    written = [(one.cell, one.values) for one in context.asked if isinstance(one, SheetSet)]
    assert written == [("B2", ((8.7,),)), ("B3", ((9.0,),))]
    for kept in ("9/10", "12.5/10", "3.5/4", "8.7/10 (IMDb)", "rated 8.7/10", "1/5/2025"):
        assert cell_value(kept) == kept
    assert (cell_value("4.5/5"), cell_value("87.5 / 100"), cell_value(3)) == (4.5, 87.5, 3)
