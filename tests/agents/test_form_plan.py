"""What goes into a web form's fields: read off the page, proposed by the Composer, checked."""

from __future__ import annotations

import json

from tests.agents.scripted import ScriptedModels

from pcagent.agents.composer import Composer
from pcagent.agents.form_plan import FormField, checked_plan, form_fields

READING = """Title: Trains - Rail Test
Address: http://rail.test/
Text:
Find a train
Buttons:
- "Find trains"
Fields:
- "Single" / "kind" (radio) = "checked"
- "Return ticket" / "kind" (radio) = "unchecked"
- "Leaving from" / "origin" (text) = ""
- "Going to" / "destination" (text) = ""
- "Travel date" / "YYYY-MM-DD" (text) = ""
- "Railcard" (checkbox) = "on"
- "Photo" (file) = ""
Links:
- "Help" -> http://rail.test/help"""


def test_the_fields_a_page_reading_lists() -> None:
    fields = form_fields(READING)
    assert [field.label for field in fields] == [
        "Single",
        "Return ticket",
        "Leaving from",
        "Going to",
        "Travel date",
        "Railcard",
    ]  # a file field is never filled; the links after the fields are no fields
    assert fields[4] == FormField(("Travel date", "YYYY-MM-DD"), "text", "")
    assert fields[0] == FormField(("Single", "kind"), "radio", "checked")
    assert form_fields("Title: x\nText:\nno form here") == []


def test_a_proposed_plan_is_checked_against_the_form_and_the_words() -> None:
    fields = form_fields(READING)
    proposed = [
        ("leaving from", "Bergen"),  # any case
        ("Going to", "Oslo"),
        ("Travel date", "14 March 2026"),  # written as the field asks
        ("Seat", "window"),  # no such field
        ("Single", "true"),  # choices come from the subtask's words, not the model
    ]
    words = "Then look for a return-ticket train for that trip on rail.test"
    assert checked_plan(proposed, fields, words) == [
        ("Return ticket", "true"),
        ("Leaving from", "Bergen"),
        ("Going to", "Oslo"),
        ("Travel date", "2026-03-14"),
    ]
    # a choice already ticked is left as it is
    assert checked_plan([], fields, "look for a single ticket") == []
    # a date field given no date is left out
    assert checked_plan([("Travel date", "soon")], fields, "search") == []


def test_the_composer_proposes_values_for_the_listed_fields() -> None:
    reply = {"fields": [{"label": "Leaving from", "value": "Bergen"}]}
    models = ScriptedModels(composer=[json.dumps(reply)])
    fields = form_fields(READING)
    proposed = Composer(models.for_role("composer")).compose_form(
        "search for a train for it", fields, {"trip": "Bergen to Oslo"}, 3
    )
    assert proposed == [("Leaving from", "Bergen")]
    prompt = models.prompts("composer")[0]
    assert '- "Leaving from" / "origin" (text)' in prompt and "trip = Bergen to Oslo" in prompt
