"""A form's field named otherwise than the program named it: code fills the fields whose names
hold the label, a model says which field a label no field reads means, and code fills the one it
named. The page reading and the field matching are the browser's own (``web_page.describe``,
``web_page.choose``); the real model path runs on smollm2, the real browser in
tests/env/app_interfaces/test_browser_actions.py."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel
from tests.skills.test_browser_links import Chooses
from tests.skills.test_language_skills import Desk
from tests.support import smollm2_config

from pcagent.app_actions import BrowserFill, BrowserRead
from pcagent.env.app_interfaces.web_page import Field, PageView, choose, describe
from pcagent.errors import InvalidActionError
from pcagent.models import ModelRouter
from pcagent.runtime.loop.dispatch import ModelLanguage
from pcagent.skills.base import ActionOutcome
from pcagent.skills.browser import fill_form
from pcagent.skills.browser_forms import page_fields

T = TypeVar("T", bound=BaseModel)

FLIGHTS = PageView(
    url="http://flights.local/",
    title="Flights - Offline Booking",
    text="Search flights",
    targets=(),
    fields=(
        Field(0, ("One-way", "trip"), "radio", "checked"),
        Field(1, ("From", "from"), "text", ""),
        Field(2, ("To", "to"), "text", ""),
        Field(3, ("Depart", "YYYY-MM-DD"), "text", ""),
    ),
)


class FormPage(Desk):
    """A page whose fields fill by the browser's own matching of a label to a field."""

    def __init__(self, model: object) -> None:
        super().__init__(model)
        self.filled: dict[str, str] = {}
        self.acted: list[object] = []

    def act(self, action: object) -> ActionOutcome:
        self.acted.append(action)
        if isinstance(action, BrowserRead):
            return ActionOutcome(True, "read", describe(FLIGHTS), True)
        assert isinstance(action, BrowserFill)
        try:
            field = choose(
                action.label,
                FLIGHTS.fields,
                names=lambda f: f.names,
                identity=lambda f: f.index,
                what="field",
                whats="fields",
                word_starts=True,
            )
        except InvalidActionError as error:
            return ActionOutcome(False, str(error))
        self.filled[field.names[0]] = action.value
        return ActionOutcome(True, f"filled {field.names[0]}", action.value, True)


FORM = {
    "fields": [
        {"label": "From", "value": "Berlin"},
        {"label": "Arrival", "value": "Lisbon"},
        {"label": "Departure date", "value": "2026-07-03"},
    ]
}


def test_a_label_no_field_reads_fills_the_field_the_model_names() -> None:
    model = Chooses(2)  # of the fields not filled: 1. One-way, 2. To, 3. Depart
    page = FormPage(model)
    result = fill_form.call(page, FORM)
    assert result.ok, result.message
    assert page.filled == {"From": "Berlin", "To": "Lisbon", "Depart": "2026-07-03"}
    assert "no field reads 'Arrival'; the language model chose" in result.evidence
    prompt = model.prompts[0]
    assert "The step fills the field: Arrival" in prompt and "with the value: Lisbon" in prompt
    assert '2. "To" / "to" (text)' in prompt
    assert '"From"' not in prompt  # filled by this step already: not offered again
    submitted = [a for a in page.acted if isinstance(a, BrowserFill) and a.submit]
    assert [a.label for a in submitted] == ["Departure date"]  # Enter in the last field only


def test_without_a_model_or_with_none_fitting_the_step_fails_on_the_label() -> None:
    for model in (None, Chooses(0), Chooses(None)):
        page = FormPage(model)
        result = fill_form.call(page, FORM)
        assert not result.ok
        assert "no field on this page reads 'Arrival'" in result.message
        assert "To" not in page.filled


class RefusesValues(FormPage):
    """A page whose "To" field takes no value: the label found its field, the value failed."""

    def act(self, action: object) -> ActionOutcome:
        if isinstance(action, BrowserFill) and action.label == "To":
            return ActionOutcome(False, "\"To\" has no option 'Lisbon'")
        return super().act(action)


def test_a_label_that_names_a_field_whose_value_failed_asks_no_model() -> None:
    model = Chooses(3)
    form = {"fields": [{"label": "To", "value": "Lisbon"}, {"label": "From", "value": "Berlin"}]}
    result = fill_form.call(RefusesValues(model), form)
    assert not result.ok and "has no option 'Lisbon'" in result.message
    assert model.prompts == []


def test_a_reading_s_fields_are_their_lines_with_their_names() -> None:
    fields = page_fields(describe(FLIGHTS))
    assert [one.names for one in fields] == [f.names for f in FLIGHTS.fields]
    assert fields[3].label == "Depart" and fields[3].shown.startswith('"Depart" / "YYYY-MM-DD"')
    assert page_fields('Title: a page\nLinks:\n- "a" -> http://a.local/') == []


def test_the_real_model_answers_a_number_of_a_shown_field(tmp_path: Path) -> None:
    with ModelRouter(smollm2_config(tmp_path)) as router:
        page = FormPage(ModelLanguage(router.for_role("composer")))
        result = fill_form.call(page, {"fields": [{"label": "Destination", "value": "Lisbon"}]})
    assert set(page.filled) <= {"One-way", "From", "To", "Depart"}
    assert result.ok == bool(page.filled)
