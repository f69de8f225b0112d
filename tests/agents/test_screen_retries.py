"""A failed skill step retried on the screen is told its task in words, with the values found."""

from __future__ import annotations

from pcagent.agents.filled_values import with_named_values
from pcagent.agents.hub import CommunicationHub
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.screen_retries import TASK_CHARACTERS, screen_cannot_retry, screen_retry
from pcagent.skills import default_catalog

CATALOG = default_catalog()


def _failed(skill: str, **args: object) -> SubtaskSpec:
    return SubtaskSpec(id="s3", description=f"{skill}(...)", skill=skill, app="x", args=args)


def test_the_retry_says_what_the_skill_was_to_do_and_its_references_become_filled_slots() -> None:
    rows = [["Name", "Price"], [{"from": "s2", "key": "name"}, {"from": "s2", "key": "price"}]]
    failed = _failed("fill_cells", path="Documents/prices.xlsx", rows=rows)
    retry = screen_retry(failed, CATALOG, "s4")
    assert (retry.id, retry.skill, retry.args, retry.app) == ("s4", "", {}, "x")
    assert retry.description.startswith("On the screen, do what fill_cells was to do (Write rows")
    assert '"Documents/prices.xlsx"' in retry.description
    filled = with_named_values(retry.description, {"s2": {"name": "Kiwi", "price": "2.40"}})
    assert "[Kiwi, 2.40]" in filled and "{s2" not in filled


def test_a_whole_steps_value_is_left_to_the_hub_and_hidden_check_arguments_are_not_shown() -> None:
    failed = _failed("web_search_each", value="share price", things={"from": "s1"}, numbers=True)
    retry = screen_retry(failed, CATALOG, "s2")
    assert "things: {s1}" in retry.description and "numbers" not in retry.description
    told = CommunicationHub({"s1": "AAPL, MSFT"}).instantiate(retry)
    assert 'value: "share price"; things: AAPL, MSFT' in told


def test_long_values_are_clipped_and_the_task_fits_a_subtask() -> None:
    text = "word " * 400
    retry = screen_retry(_failed("write_text_file", path="a.txt", text=text), CATALOG, "s2")
    assert len(retry.description) <= TASK_CHARACTERS and "…" in retry.description
    many = [f"Documents/file-{n}.txt" for n in range(40)]
    retry = screen_retry(_failed("move_files", files=many, into="Kept"), CATALOG, "s2")
    assert len(retry.description) <= TASK_CHARACTERS
    assert retry.description.startswith("On the screen, do what move_files was to do with files")


def test_a_step_of_no_known_skill_keeps_its_words_and_only_skills_of_no_app_cannot_retry() -> None:
    unknown = SubtaskSpec(id="s1", description="tidy the desk", skill="tidy")
    assert screen_retry(unknown, CATALOG, "s2").description == "tidy the desk"
    assert screen_cannot_retry(_failed("set_alarm", time="09:00"), CATALOG) == ""
    assert "works in no application" in screen_cannot_retry(_failed("days_between"), CATALOG)


def test_the_retry_is_told_what_the_call_met_when_it_failed() -> None:
    """A form's fill failed on a field the page lacks; the retry, told only the call, typed into
    that field until the loop check ended the run (a rewording of pc06, 2026-12-07)."""
    fields = [{"label": "Round trip", "value": "true"}, {"label": "From", "value": "Beijing"}]
    reason = "its skill failed: browser_fill failed: no field on this page reads 'Round trip'"
    retry = screen_retry(_failed("fill_form", fields=fields), CATALOG, "s5", reason)
    assert retry.description.endswith(f"The call failed: {reason}")
    assert '"Round trip"' in retry.description and len(retry.description) <= TASK_CHARACTERS
    told = screen_retry(_failed("fill_form", fields=fields), CATALOG, "s5", "x" * 500)
    assert told.description.endswith("x…") and len(told.description) <= TASK_CHARACTERS
