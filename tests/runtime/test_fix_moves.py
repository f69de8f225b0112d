"""Correcting a text file by rule: which file "it" is, selecting its text, saving it in place."""

from __future__ import annotations

from pcagent import actions as act
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import default_pool
from pcagent.runtime.fix_moves import earlier_file, opened_path, select_all_move, selected_all
from pcagent.runtime.rule_moves import compose_kind, save_move

ROLE = default_pool(["text_editor"], frozenset({"editor_open", "editor_save_as"})).get("text_notes")
HOME = {"sums.py": "Documents/sums.py", "notes.txt": "notes.txt"}
FIXING = SubtaskSpec(
    id="s2", description="Open it in the code editor, fix the error, and save it", app="text_editor"
)
OPENED = ["3: editor_open(path='Documents/sums.py') -> success"]


def test_the_file_it_means_is_the_last_one_named_before_that_home_holds() -> None:
    earlier = ["Mail ann@example.test", "Save the attachment sums.py into the Documents folder"]
    assert earlier_file(FIXING.description, earlier, HOME) == "Documents/sums.py"
    assert earlier_file(FIXING.description, ["Save gone.py"], HOME) == ""  # not in HOME
    assert earlier_file("Fix the error and save it", earlier, HOME) == ""  # opens nothing


def test_the_path_an_open_action_opened() -> None:
    assert opened_path(OPENED) == "Documents/sums.py"
    assert opened_path(["3: editor_open(path='x.py') -> no_change"]) == ""


def test_the_text_is_selected_once_the_file_is_open_then_composed_then_saved_in_place() -> None:
    move = select_all_move(FIXING, ROLE, "text_editor", OPENED)
    assert move is not None and move.action == act.Hotkey(keys=["ctrl", "a"])
    assert select_all_move(FIXING, ROLE, "text_editor", []) is None  # nothing open yet
    selected = [*OPENED, "4: hotkey(keys=('ctrl', 'a')) -> no_change"]
    assert selected_all(selected)
    assert select_all_move(FIXING, ROLE, "text_editor", selected) is None  # once
    # the Composer writes only once all is selected, and its text then replaces the file's
    assert compose_kind(FIXING, ROLE, "text_editor", OPENED) == ""
    assert compose_kind(FIXING, ROLE, "text_editor", selected) == "type"
    typed = [*selected, "5: type(text='def total(a, b): ...') -> success"]
    saved = save_move(FIXING, ROLE, "text_editor", typed)
    assert saved is not None and saved.action.path == "Documents/sums.py"  # type: ignore[union-attr]
    # a subtask that writes without correcting is not selected over
    writing = SubtaskSpec(id="s1", description="Open sums.py and add a comment", app="text_editor")
    assert select_all_move(writing, ROLE, "text_editor", OPENED) is None
