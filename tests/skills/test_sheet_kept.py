"""A new sheet is never saved over a workbook that is there: the skill says so before it does
anything, and names the way to write into that workbook (real files in a temporary HOME; the
actions are recorded, not carried out, since none may be)."""

from __future__ import annotations

from pathlib import Path

from pcagent.actions import Action
from pcagent.skills import default_catalog
from pcagent.skills.base import ActionOutcome
from pcagent.step_context import StepContext


class _Home:
    """A skill's context with a HOME and no desktop: every action it asks for is kept."""

    def __init__(self, home: Path) -> None:
        self._home, self.asked = home, []

    def act(self, action: Action) -> ActionOutcome:
        self.asked.append(action)
        raise AssertionError(f"nothing may be done: {action}")

    def step(self) -> StepContext | None:
        return None

    def home(self) -> Path | None:
        return self._home

    def screen_text(self) -> str:
        return ""

    def language(self) -> None:
        return None


def test_a_new_sheet_over_a_workbook_there_fails_first_naming_its_path(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    workbook = tmp_path / "Documents" / "movie_rate.xlsx"
    workbook.write_bytes(b"the person's workbook")
    context = _Home(tmp_path)
    rows = [["Interstellar", "8.7/10"], ["12 Angry Men", "9.0/10"]]
    result = (
        default_catalog()
        .get("fill_cells")
        .call(context, {"rows": rows, "save_as": "Documents/movie_rate.xlsx"})
    )
    assert not result.ok and context.asked == []
    assert 'give path="Documents/movie_rate.xlsx"' in result.message
    assert workbook.read_bytes() == b"the person's workbook"
