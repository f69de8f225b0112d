"""Tests for the action space: parsing, rejection messages, key names, derived schema and prompt."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from pcagent.actions import (
    ACTION_TYPES,
    APP_ACTION_KINDS,
    KEY_NAMES,
    ActionParseError,
    Answer,
    Click,
    Done,
    DoubleClick,
    Drag,
    Fail,
    Hotkey,
    OpenApp,
    Press,
    RightClick,
    Scroll,
    SelectText,
    TypeText,
    UseSkill,
    Wait,
    action_json_schema,
    action_points,
    check_on_screen,
    describe_actions,
    is_terminal,
    normalize_key,
    parse_action,
    skill_call_as_action,
)
from pcagent.errors import InvalidActionError

# One valid example per kind; test_examples_cover_every_kind keeps this in step with ACTION_TYPES.
EXAMPLES: dict[str, dict[str, Any]] = {
    "open_app": {"kind": "open_app", "app": "text_editor"},
    "click_element": {"kind": "click_element", "label": "Save"},
    "click": {"kind": "click", "x": 10, "y": 20},
    "double_click": {"kind": "double_click", "x": 0, "y": 0},
    "right_click": {"kind": "right_click", "x": 5, "y": 7},
    "type": {"kind": "type", "text": "hello\nworld", "x": 3, "y": 4},
    "select_text": {"kind": "select_text", "target": "the second paragraph"},
    "drag": {"kind": "drag", "start_x": 1, "start_y": 2, "end_x": 300, "end_y": 400},
    "scroll": {"kind": "scroll", "x": 50, "y": 60, "direction": "down", "amount": 5},
    "hotkey": {"kind": "hotkey", "keys": ["Ctrl", "shift", "S"]},
    "press": {"kind": "press", "key": "enter", "times": 2},
    "wait": {"kind": "wait", "seconds": 1.5},
    "use_skill": {"kind": "use_skill", "skill": "set_alarm", "args": {"time": "09:15"}},
    "answer": {"kind": "answer", "text": "42"},
    "ask_human": {"kind": "ask_human", "question": "Which folder holds the report?"},
    "done": {"kind": "done", "summary": "saved the file"},
    "fail": {"kind": "fail", "reason": "the app is not installed"},
    # application actions (pcagent.app_actions)
    "writer_open": {"kind": "writer_open", "path": "Documents/report.docx"},
    "writer_read": {"kind": "writer_read"},
    "writer_insert": {
        "kind": "writer_insert",
        "text": "New line",
        "where": "after",
        "paragraph": 2,
    },
    "writer_format": {"kind": "writer_format", "paragraphs": [1, 2], "line_spacing": 1.5},
    "writer_save": {"kind": "writer_save", "path": "Documents/copy.docx"},
    "sheet_open": {"kind": "sheet_open", "path": "Documents/prices.xlsx"},
    "sheet_read": {"kind": "sheet_read", "range": "A1:C10"},
    "sheet_set": {
        "kind": "sheet_set",
        "cell": "B2",
        "values": [["Total", "=SUM(B3:B9)"], [1, 2.5]],
    },
    "sheet_sort": {"kind": "sheet_sort", "range": "A1:C20", "column": "B", "descending": True},
    "sheet_save": {"kind": "sheet_save"},
    "editor_open": {"kind": "editor_open", "path": "~/notes.txt"},
    "editor_new": {"kind": "editor_new"},
    "editor_save_as": {"kind": "editor_save_as", "path": "Documents/notes.txt"},
    "files_list": {"kind": "files_list", "path": "Documents"},
    "files_make_folder": {"kind": "files_make_folder", "path": "Documents/Trips"},
    "files_copy": {"kind": "files_copy", "source": "a.txt", "target": "Documents"},
    "files_move": {"kind": "files_move", "source": "a.txt", "target": "Documents/b.txt"},
    "files_rename": {"kind": "files_rename", "path": "Documents/a.txt", "new_name": "b.txt"},
    "files_open": {"kind": "files_open", "path": "Documents/report.docx"},
    "mail_compose": {"kind": "mail_compose", "to": ["ann@example.test"], "subject": "Hi"},
    "mail_send": {"kind": "mail_send"},
    "mail_read": {"kind": "mail_read", "folder": "Inbox", "limit": 5},
    "mail_save_attachment": {"kind": "mail_save_attachment", "message": 1, "name": "a.pdf"},
    "browser_open": {"kind": "browser_open", "url": "https://example.test/"},
    "browser_read": {"kind": "browser_read"},
    "browser_click": {"kind": "browser_click", "text": "Next page"},
    "browser_fill": {"kind": "browser_fill", "label": "Search", "value": "tea", "submit": True},
    "calculator_evaluate": {"kind": "calculator_evaluate", "expression": "12 * 7 + 5"},
    "clock_add_alarm": {"kind": "clock_add_alarm", "time": "07:30", "name": "Wake up"},
    "clock_add_world_clock": {"kind": "clock_add_world_clock", "city": "Tokyo"},
}


def rejection(data: Any, **kwargs: Any) -> ActionParseError:
    with pytest.raises(InvalidActionError) as caught:
        parse_action(data, **kwargs)
    assert isinstance(caught.value, ActionParseError)
    assert caught.value.details, "details must carry the individual problems"
    return caught.value


def test_examples_cover_every_kind() -> None:
    assert set(EXAMPLES) == set(ACTION_TYPES)
    assert len(ACTION_TYPES) == 17 + len(APP_ACTION_KINDS)


@pytest.mark.parametrize("kind", list(EXAMPLES))
def test_every_kind_parses_from_dict_and_json_and_round_trips(kind: str) -> None:
    data = EXAMPLES[kind]
    from_dict = parse_action(data)
    from_json = parse_action(json.dumps(data))
    assert type(from_dict) is ACTION_TYPES[kind]
    assert from_dict == from_json
    dumped = from_dict.model_dump(mode="json")
    assert {name: dumped[name] for name in data} == data  # the rest are defaults
    assert parse_action(dumped) == from_dict
    assert parse_action(from_dict.model_dump()) == from_dict
    assert parse_action(from_dict.model_dump_json()) == from_dict
    hash(from_dict)  # frozen actions are hashable (page-graph edges, sets)


def test_defaults_apply_when_optional_fields_are_left_out() -> None:
    assert parse_action({"kind": "scroll", "x": 1, "y": 2, "direction": "up"}).amount == 3
    assert parse_action({"kind": "press", "key": "tab"}).times == 1
    assert parse_action({"kind": "done"}).summary == ""
    typed = parse_action({"kind": "type", "text": "abc"})
    assert (typed.x, typed.y) == (None, None)


def test_actions_are_immutable() -> None:
    click = Click(x=1, y=2)
    with pytest.raises(ValidationError):
        click.x = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("data", "expected_fragments"),
    [
        ({"kind": "teleport"}, ["unknown action kind 'teleport'", "click", "open_app", "fail"]),
        ({"kind": "Click", "x": 1, "y": 1}, ["did you mean 'click'"]),
        ({"x": 1, "y": 2}, ["no 'kind' field", "valid kinds"]),
        ({"kind": 3}, ["unknown action kind 3"]),
        ({"kind": "click", "x": 1}, ["y: Field required", "click(x: int, y: int)"]),
        ({"kind": "click", "x": -1, "y": 5}, ["x:", "greater than or equal to 0", "-1"]),
        ({"kind": "drag", "start_x": 1, "start_y": 1, "end_x": 2, "end_y": -3}, ["end_y"]),
        ({"kind": "click", "x": True, "y": 5}, ["x:", "boolean"]),
        ({"kind": "click", "x": 1.5, "y": 5}, ["x:", "integer"]),
        ({"kind": "type", "text": "hi", "x": 3}, ["both x and y", "only x"]),
        ({"kind": "type", "text": "hi", "y": 3}, ["both x and y", "only y"]),
        ({"kind": "type", "text": ""}, ["text:", "at least 1 character"]),
        ({"kind": "type", "text": "hi", "x": -1, "y": 0}, ["x:", "greater than or equal"]),
        ({"kind": "open_app", "app": ""}, ["app:"]),
        ({"kind": "select_text", "target": ""}, ["target:"]),
        ({"kind": "fail", "reason": ""}, ["reason:"]),
        ({"kind": "hotkey", "keys": []}, ["keys:", "at least 1 item"]),
        ({"kind": "hotkey", "keys": ["ctrl", "hyper"]}, ["unknown key 'hyper'", "ctrl", "enter"]),
        ({"kind": "hotkey", "keys": ["ctrl+s"]}, ["split 'ctrl+s' into ['ctrl', 's']"]),
        ({"kind": "hotkey", "keys": ["ctrl", "Control"]}, ["'Control' repeats 'ctrl'"]),
        ({"kind": "press", "key": "ctrl+s"}, ["split 'ctrl+s'"]),
        ({"kind": "press", "key": "enter", "times": 0}, ["times:"]),
        ({"kind": "press", "key": "enter", "times": 101}, ["times:", "less than or equal to 100"]),
        ({"kind": "wait", "seconds": 0}, ["seconds:", "greater than 0"]),
        ({"kind": "wait", "seconds": 61}, ["seconds:", "less than or equal to 60"]),
        ({"kind": "wait", "seconds": float("nan")}, ["seconds:", "finite"]),
        ({"kind": "scroll", "x": 1, "y": 1, "direction": "down", "amount": 0}, ["amount:"]),
        ({"kind": "scroll", "x": 1, "y": 1, "direction": "down", "amount": 51}, ["amount:"]),
        ({"kind": "scroll", "x": 1, "y": 1, "direction": "sideways"}, ["direction:", "'up'"]),
        ({"kind": "click", "x": 1, "y": 2, "button": "left"}, ["button:", "Extra inputs"]),
        ({"kind": "done", "summary": "ok", "success": True}, ["success:", "Extra inputs"]),
    ],
)
def test_bad_actions_are_rejected_with_a_helpful_message(
    data: dict[str, Any], expected_fragments: list[str]
) -> None:
    for error in (rejection(data), rejection(json.dumps(data))):
        for fragment in expected_fragments:
            assert fragment in str(error), f"{fragment!r} not in {str(error)!r}"


def test_field_errors_keep_pydantic_details_for_the_model_layer() -> None:
    error = rejection({"kind": "click", "x": -1})
    by_field = {detail["loc"]: detail["type"] for detail in error.details}
    assert by_field == {("x",): "greater_than_equal", ("y",): "missing"}
    json.dumps(error.details)  # plain data, can be sent back to a model as is


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"kind": "click", "x": 1,', "not valid JSON"),
        ("click(10, 20)", "not valid JSON"),
        ("", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('"click"', "JSON object"),
        ("42", "JSON object"),
        ("null", "JSON object"),
        ("[" * 100_000, "JSON"),
    ],
)
def test_malformed_or_non_object_json_is_rejected(text: str, fragment: str) -> None:
    assert fragment in str(rejection(text))


def test_non_mapping_python_values_are_rejected() -> None:
    assert "JSON object" in str(rejection(["click", 1, 2]))  # type: ignore[arg-type]


def test_kinds_limit_what_parse_action_accepts() -> None:
    allowed = ["click", "type"]
    assert parse_action(EXAMPLES["click"], kinds=allowed) == Click(x=10, y=20)
    message = str(rejection(EXAMPLES["drag"], kinds=allowed))
    assert "'drag' is not allowed here" in message
    assert "click, type" in message
    with pytest.raises(InvalidActionError, match="teleport"):
        parse_action(EXAMPLES["click"], kinds=["click", "teleport"])


def test_direct_construction_validates_and_accepts_a_list_of_keys() -> None:
    hotkey = Hotkey(keys=["ctrl", "S"])
    assert hotkey.keys == ("ctrl", "S")  # original names are kept
    assert hotkey.keysyms() == ["ctrl", "s"]
    with pytest.raises(ValidationError, match="unknown key"):
        Hotkey(keys=["ctrl", "nope"])
    with pytest.raises(ValidationError, match="both x and y"):
        TypeText(text="a", x=1)


def test_keysyms_of_hotkey_and_press() -> None:
    assert Hotkey(keys=["Control", "Shift", "+"]).keysyms() == ["ctrl", "shift", "plus"]
    assert Hotkey(keys=["win", "page_down"]).keysyms() == ["super", "Next"]
    assert Press(key="Esc").keysym() == "Escape"
    assert Press(key="Esc").key == "Esc"


@pytest.mark.parametrize(
    ("name", "keysym"),
    [
        ("ctrl", "ctrl"),
        ("CONTROL", "ctrl"),
        ("Alt", "alt"),
        ("shift", "shift"),
        ("super", "super"),
        ("win", "super"),
        ("meta", "super"),
        ("enter", "Return"),
        ("Return", "Return"),
        ("esc", "Escape"),
        ("Escape", "Escape"),
        ("tab", "Tab"),
        ("backspace", "BackSpace"),
        ("BackSpace", "BackSpace"),
        ("delete", "Delete"),
        ("del", "Delete"),
        ("insert", "Insert"),
        ("space", "space"),
        (" ", "space"),
        ("up", "Up"),
        ("Down", "Down"),
        ("left", "Left"),
        ("right", "Right"),
        ("home", "Home"),
        ("end", "End"),
        ("pageup", "Prior"),
        ("page_up", "Prior"),
        ("Prior", "Prior"),
        ("pagedown", "Next"),
        ("page_down", "Next"),
        ("f1", "F1"),
        ("F12", "F12"),
        ("f24", "F24"),
        ("menu", "Menu"),
        ("printscreen", "Print"),
        ("capslock", "Caps_Lock"),
        ("a", "a"),
        ("S", "s"),
        ("7", "7"),
        ("+", "plus"),
        ("-", "minus"),
        (",", "comma"),
        (".", "period"),
        ("/", "slash"),
        ("=", "equal"),
        (";", "semicolon"),
        ("'", "apostrophe"),
        ("[", "bracketleft"),
        ("]", "bracketright"),
        ("\\", "backslash"),
        ("`", "grave"),
        ("plus", "plus"),
        (" enter ", "Return"),
        ("é", "é"),
    ],
)
def test_normalize_key(name: str, keysym: str) -> None:
    assert normalize_key(name) == keysym


@pytest.mark.parametrize(
    "name", ["", "   ", "hyper", "f25", "f0", "ctrl+s", "ctrl + s", "\n", "KP_9"]
)
def test_normalize_key_rejects_unknown_names_with_examples(name: str) -> None:
    with pytest.raises(InvalidActionError) as caught:
        normalize_key(name)
    message = str(caught.value)
    expected = ["split"] if "+" in name else ["enter", "pagedown", "one character"]
    for fragment in expected:
        assert fragment in message


def test_key_table_values_are_accepted_as_names() -> None:
    for keysym in set(KEY_NAMES.values()):
        assert normalize_key(keysym) == keysym


def test_json_schema_covers_all_kinds_and_subsets_only_those() -> None:
    schema = action_json_schema()
    assert set(schema["discriminator"]["mapping"]) == set(ACTION_TYPES)
    assert len(schema["oneOf"]) == len(ACTION_TYPES)
    for definition in schema["$defs"].values():
        assert definition["required"][0] == "kind"  # a model must always name the kind
        assert definition["additionalProperties"] is False
        assert definition["description"]
        for name, prop in definition["properties"].items():
            assert prop.get("description"), f"{definition['title']}.{name} has no description"

    subset = action_json_schema(["hotkey", "click"])
    assert set(subset["discriminator"]["mapping"]) == {"click", "hotkey"}
    assert set(subset["$defs"]) == {"Click", "Hotkey"}

    single = action_json_schema(["wait"])
    assert single["properties"]["kind"]["const"] == "wait"
    assert single["properties"]["seconds"]["exclusiveMinimum"] == 0


@pytest.mark.parametrize("kinds", [[], ["click", "jump"]])
def test_json_schema_rejects_empty_or_unknown_subsets(kinds: list[str]) -> None:
    with pytest.raises(InvalidActionError):
        action_json_schema(kinds)


def test_describe_actions_mentions_every_kind_and_parameter() -> None:
    text = describe_actions()
    lines = text.splitlines()
    assert len(lines) == len(ACTION_TYPES)
    for line, (kind, action_class) in zip(lines, ACTION_TYPES.items(), strict=True):
        assert line.startswith(f"{kind}(")
        assert " — " in line
        for name in action_class.model_fields:
            if name != "kind":
                assert f"{name}:" in line, f"{name} missing from {line!r}"
    assert "click(x: int, y: int) — Left-click at screen pixel (x, y)." in lines
    assert any(line.startswith("scroll(x: int, y: int, direction: ") for line in lines)
    assert "amount: int = 3" in text
    assert "x: int | None = None" in text
    assert 'summary: str = ""' in text
    assert describe_actions(["press", "done"]).splitlines()[0].startswith("press(key: str")


def test_each_description_is_one_line_of_the_prompt() -> None:
    for action_class in ACTION_TYPES.values():
        assert action_class.__doc__ and action_class.__doc__.strip()
    assert len(describe_actions().splitlines()) == len(ACTION_TYPES)


def test_action_points() -> None:
    assert action_points(Click(x=1, y=2)) == [(1, 2)]
    assert action_points(DoubleClick(x=3, y=4)) == [(3, 4)]
    assert action_points(RightClick(x=5, y=6)) == [(5, 6)]
    assert action_points(Drag(start_x=1, start_y=2, end_x=3, end_y=4)) == [(1, 2), (3, 4)]
    assert action_points(Scroll(x=9, y=8, direction="up")) == [(9, 8)]
    assert action_points(TypeText(text="a", x=7, y=6)) == [(7, 6)]
    for keyboard_or_meta in (
        TypeText(text="a"),
        Hotkey(keys=["ctrl", "s"]),
        Press(key="tab"),
        Wait(seconds=1),
        OpenApp(app="calculator"),
        SelectText(target="x"),
        Answer(text="1"),
        Done(),
        Fail(reason="r"),
    ):
        assert action_points(keyboard_or_meta) == []


def test_check_on_screen_boundaries() -> None:
    check_on_screen(Click(x=0, y=0), 1920, 1080)
    check_on_screen(Click(x=1919, y=1079), 1920, 1080)
    check_on_screen(Press(key="a"), 1, 1)
    with pytest.raises(InvalidActionError, match=r"\(1920, 5\).*1920x1080"):
        check_on_screen(Click(x=1920, y=5), 1920, 1080)
    with pytest.raises(InvalidActionError, match=r"\(5, 1080\)"):
        check_on_screen(Scroll(x=5, y=1080, direction="down"), 1920, 1080)
    with pytest.raises(InvalidActionError, match=r"\(2000, 10\)"):  # the drag's end point
        check_on_screen(Drag(start_x=1, start_y=1, end_x=2000, end_y=10), 1920, 1080)
    with pytest.raises(InvalidActionError, match="type"):
        check_on_screen(TypeText(text="a", x=0, y=5000), 1920, 1080)


def test_only_done_and_fail_are_terminal() -> None:
    terminal = {kind for kind in EXAMPLES if is_terminal(parse_action(EXAMPLES[kind]))}
    assert terminal == {"done", "fail"}


# --- fuzzing -------------------------------------------------------------------------------------

_FIELD_NAMES = sorted(
    {name for action_class in ACTION_TYPES.values() for name in action_class.model_fields}
)
_json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["ctrl", "ctrl+s", "enter", "up", "S", "+", ""])
)
_json_values = st.recursive(
    _json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
_action_like = st.dictionaries(
    st.sampled_from(_FIELD_NAMES) | st.text(max_size=8) | st.integers(),
    _json_values,
    max_size=6,
).flatmap(
    lambda fields: (
        st.sampled_from([*ACTION_TYPES, "Click", "", "x"]).map(
            lambda kind: {**fields, "kind": kind}
        )
        | st.just(fields)
    )
)
_anything = (
    _action_like
    | _json_values
    | _action_like.map(lambda value: json.dumps(value, default=str))
    | _json_values.map(json.dumps)
    | st.text()
)


@settings(max_examples=400, deadline=None)
@given(_anything)
def test_parse_action_returns_an_action_or_raises_invalid_action_error(data: Any) -> None:
    try:
        action = parse_action(data)
    except InvalidActionError as error:
        assert str(error)
        assert isinstance(error.details, list)
        return
    assert type(action) in ACTION_TYPES.values()
    assert parse_action(action.model_dump_json()) == action


def test_a_drag_that_does_not_move_is_refused_as_a_click_in_disguise() -> None:
    with pytest.raises(InvalidActionError, match="drag must end somewhere else"):
        parse_action({"kind": "drag", "start_x": 5, "start_y": 5, "end_x": 5, "end_y": 5})
    assert parse_action({"kind": "drag", "start_x": 5, "start_y": 5, "end_x": 6, "end_y": 5})


# --- a skill call that names an action ------------------------------------------------------------


def test_a_skill_call_naming_an_offered_action_is_that_action() -> None:
    offered = ("use_skill", "editor_open", "click")
    called = UseSkill(skill="editor_open", args={"path": "Documents/memo.txt"})
    action = skill_call_as_action(called, offered)
    assert action.kind == "editor_open" and action.path == "Documents/memo.txt"  # type: ignore[union-attr]
    # Not offered to the role, a real skill, or arguments that do not fit: as it was.
    assert skill_call_as_action(called, ("use_skill", "click")) is called
    skill = UseSkill(skill="read_text_file", args={"path": "Documents/memo.txt"})
    assert skill_call_as_action(skill, offered) is skill
    wrong = UseSkill(skill="editor_open", args={"file": 3})
    assert skill_call_as_action(wrong, offered) is wrong
