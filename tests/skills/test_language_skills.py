"""The language skills: what a model extracts is kept only when the text holds it; composed
text and translations are checked for what was asked. The real model path runs on smollm2."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TypeVar

import pytest
from pydantic import BaseModel, ValidationError
from tests.support import smollm2_config

from pcagent.agents.program import Program, ProgramStep, check_program
from pcagent.errors import PlanError
from pcagent.models import ModelRouter
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.models.structured import StructuredChatModel
from pcagent.runtime.loop.dispatch import ModelLanguage
from pcagent.skills import default_catalog
from pcagent.skills.language import (
    NOT_HELD_ADVICE,
    compose_text,
    extract_values,
    revise_text,
    translate_text,
)
from pcagent.skills.numbers_written import NUMBER_WRITTEN
from pcagent.skills.typed_replies import held_as_written, reply_model

T = TypeVar("T", bound=BaseModel)
MEMO = "Morning\n08:30  Breakfast\n10:15  Call with the agency\n11:30  Budget review\n"


class Answers:
    """A language model that answers from a list (orchestration only), keeping the prompts."""

    def __init__(self, *answers: dict[str, str]) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def answer(self, system: str, user: str, schema: type[T]) -> T | None:
        self.prompts.append(user)
        if not self.answers:
            return None
        try:  # a reply that does not validate is no usable reply, as the model layer gives
            return schema.model_validate(self.answers.pop(0))
        except ValidationError:
            return None


class Desk:
    def __init__(self, model: object) -> None:
        self.model = model

    def act(self, action: object) -> object:
        raise AssertionError("a language skill acted on the desktop")

    def home(self) -> None:
        return None

    def step(self) -> None:
        return None

    def screen_text(self) -> str:
        return ""

    def language(self) -> object:
        return self.model


ASK = {"text": MEMO, "names": ["event"], "what": "the second event of the morning"}


def test_a_value_the_text_holds_is_kept_and_lists_are_shown_counted() -> None:
    model = Answers({"event": "[2nd] 10:15  Call with the agency"})
    result = extract_values.call(Desk(model), ASK)
    assert result.ok and result.value == {"event": "10:15  Call with the agency"}
    assert "[2nd] 10:15  Call with the agency" in model.prompts[0]


class DeskInAStep(Desk):
    """A desk whose step belongs to a run of ``task``."""

    def __init__(self, model: object, task: str) -> None:
        super().__init__(model)
        self.task, self.hub = task, {}

    def step(self) -> object:
        return self


def test_the_person_s_request_says_which_value_is_meant() -> None:
    model = Answers({"event": "11:30  Budget review"}, {"event": "10:15  Call with the agency"})
    task = "When is my budget review? Set an alarm before it."
    assert extract_values.call(DeskInAStep(model, task), ASK).ok
    assert model.prompts[0].startswith(f"The person's request, for which value is meant: {task}")
    assert extract_values.call(Desk(model), ASK).ok  # outside a run: the text and the ask alone
    assert "request" not in model.prompts[1]


def test_a_date_the_text_writes_in_another_form_is_kept() -> None:
    mail = {"text": "You leave on 2 May 2025.", "names": ["leave"], "what": "the departure"}
    result = extract_values.call(Desk(Answers({"leave": "2025-05-02"})), mail)
    assert result.ok and result.value == {"leave": "2025-05-02"}
    wrong = extract_values.call(Desk(Answers({"leave": "2025-05-03"})), mail)
    assert not wrong.ok


def test_a_list_of_values_each_in_the_text_is_kept() -> None:
    page = {
        "text": "NVIDIA last closed at $131.38. Apple Inc. last closed at $227.52.",
        "names": ["prices"],
        "what": "the share prices",
    }
    result = extract_values.call(Desk(Answers({"prices": "131.38, 227.52"})), page)
    assert result.ok and result.value == {"prices": "131.38, 227.52"}
    assert extract_values.call(Desk(Answers({"prices": "NVIDIA and Apple"})), page).ok
    # One item the text does not hold refuses the whole list.
    assert not extract_values.call(Desk(Answers({"prices": "131.38, 415.26"})), page).ok


def test_a_value_the_text_does_not_hold_is_refused() -> None:
    result = extract_values.call(Desk(Answers({"event": "09:00 Standup"})), ASK)
    assert not result.ok and "not found in the text" in result.message


def test_a_value_the_text_does_not_hold_is_asked_for_once_more_told_so() -> None:
    """A rewording of pc01 (2026-12-03 to -06): the 1.5B model answered "20:00" for a memo's
    entry at 10:15, and the program ended there. Told what was refused, a model may copy the
    value; a second answer the text does not hold either fails the step, naming both."""
    model = Answers({"event": "20:00"}, {"event": "10:15  Call with the agency"})
    result = extract_values.call(Desk(model), ASK)
    assert result.ok and result.value == {"event": "10:15  Call with the agency"}
    assert len(model.prompts) == 2 and "Refused: event='20:00'" in model.prompts[1]
    assert model.prompts[1].startswith(model.prompts[0])
    twice = extract_values.call(Desk(Answers({"event": "20:00"}, {"event": "21:00"})), ASK)
    assert not twice.ok and "event='20:00'; again event='21:00'" in twice.message
    assert twice.message.endswith(NOT_HELD_ADVICE)  # what a re-plan is told to try instead
    assert not extract_values.call(Desk(Answers()), ASK).ok  # no usable reply
    assert not extract_values.call(Desk(None), ASK).ok  # no model configured


def test_a_list_whose_last_line_goes_astray_is_cut_to_what_the_text_holds() -> None:
    """pc20 at 2e14a63: three attractions copied whole, the fourth ended "at once at" where the
    page says "at once each time"; the whole look-up failed as not found."""
    sights = [
        "Senso-ji Temple: The city's oldest Buddhist temple.",
        "Tokyo Skytree: A broadcasting tower with two observation decks.",
        "Shibuya Crossing: Hundreds of people cross from every side at once each time.",
    ]
    ask = {"text": "Top sights\n" + "\n".join(sights), "names": ["sights"], "what": "the sights"}
    astray = "\n".join(
        [*sights[:2], "Shibuya Crossing: Hundreds of people cross from every side at once at"]
    )
    result = extract_values.call(Desk(Answers({"sights": astray})), ask)
    assert result.ok
    assert result.value == {
        "sights": "\n".join(
            [*sights[:2], "Shibuya Crossing: Hundreds of people cross from every side at once"]
        )
    }
    # A last line made up (less than half of it held) is left out; a made-up earlier line, or
    # a value of one line, is still refused.
    made_up = "\n".join([*sights[:2], "Tokyo Tower: a red and white tower of steel"])
    assert extract_values.call(Desk(Answers({"sights": made_up})), ask).value == {
        "sights": "\n".join(sights[:2])
    }
    for refused in ("\n".join(["Tokyo Tower: a tower", *sights[1:]]), "Tokyo Tower: a tower"):
        assert not extract_values.call(Desk(Answers({"sights": refused})), ask).ok


def test_an_extraction_of_a_name_the_text_never_writes_fails_before_the_model() -> None:
    """A rewording of pc20 (2026-12-04): "the sights to visit in Tokyo and Kyoto" extracted
    from a page about Tokyo alone, and the run said "finished"."""
    page = "Top tourist attractions in Tokyo\nSenso-ji Temple: the city's oldest temple."
    ask = {"text": page, "names": ["sights"], "what": "the sights to visit in Tokyo and Kyoto"}
    model = Answers({"sights": "Senso-ji Temple"})
    result = extract_values.call(Desk(model), ask)
    assert not result.ok and "says nothing of Kyoto" in result.message
    assert model.prompts == []  # refused before the model is asked
    # Another spelling of a name, an application, a folder or a path name nothing missing.
    for what in (
        "the sights of Tokyo's temples",
        "the temple in Tokyo as Mousepad shows the Documents folder",
        "the sights listed in Documents/Tokyo_sights.txt",
        "the URL of the sights in Tokyo",
    ):
        assert extract_values.call(
            Desk(Answers({"sights": "Senso-ji Temple"})), {**ask, "what": what}
        ).ok
    holiday = {
        "text": "Labor Day: 1 September 2025",
        "names": ["day"],
        "what": "the date of Labour Day",
    }
    assert extract_values.call(Desk(Answers({"day": "1 September 2025"})), holiday).ok


def test_composed_text_has_the_paragraphs_asked_for_and_a_translation_differs() -> None:
    ask = {"request": "two paragraphs about tea", "paragraphs": 2}
    # The reply is one string a paragraph, as many as asked.
    assert not compose_text.call(Desk(Answers({"paragraphs": ["One paragraph."]})), ask).ok
    two = compose_text.call(Desk(Answers({"paragraphs": ["Tea is old.", "Tea\nis good."]})), ask)
    assert two.ok and two.value == "Tea is old.\nTea is good."
    any_shape = compose_text.call(Desk(Answers({"text": "Tea."})), {"request": "a line on tea"})
    assert any_shape.ok and any_shape.value == "Tea."
    same = translate_text.call(
        Desk(Answers({"text": "hello"})), {"text": "hello", "language": "French"}
    )
    assert not same.ok
    # Only its spacing changed: the text was in that language already.
    note = {"text": "Travel plan\n\nDestination: Tokyo", "language": "en"}
    respaced = translate_text.call(
        Desk(Answers({"text": "Travel plan\nDestination:  Tokyo"})), note
    )
    assert not respaced.ok and "in that language already" in respaced.message
    german = translate_text.call(Desk(Answers({"text": "Reiseplan\nZiel: Tokio"})), note)
    assert german.ok


def test_rows_a_look_up_found_are_the_facts_as_lines() -> None:
    """Two cities' sights found with ``web_search_each`` are written up from its rows, passed
    whole (the training template browser_attractions_document)."""
    model = Answers({"paragraphs": ["Rome has the Colosseum.", "Dublin has Temple Bar."]})
    rows = [["Rome", "Colosseum, Pantheon"], ["Dublin", "Temple Bar"]]
    ask = {"request": "a paragraph on each city's sights", "facts": rows, "paragraphs": 2}
    written = compose_text.call(Desk(model), ask)
    assert written.ok, written.message
    assert "Facts to use:\nRome, Colosseum, Pantheon\nDublin, Temple Bar" in model.prompts[0]


def test_a_part_picked_out_of_a_text_is_no_translation_of_it() -> None:
    """pc02: a page of results "translated" into English came back as "Offline Search"."""
    page = "Title: Empire State Building to Brooklyn Museum - Offline Maps\n" * 10
    part = translate_text.call(
        Desk(Answers({"text": "Offline Search"})), {"text": page, "language": "English"}
    )
    assert not part.ok and "use extract_values" in part.message
    # A language that writes shorter keeps well over a fifth of the length: a translation.
    sentence = "The meeting with John is at the Brooklyn Museum at two o'clock."
    chinese = translate_text.call(
        Desk(Answers({"text": "与约翰的会议在两点钟于布鲁克林博物馆举行。"})),
        {"text": sentence, "language": "Chinese"},
    )
    assert chinese.ok, chinese.message


def test_a_text_whose_translation_came_back_short_is_translated_line_by_line() -> None:
    """gen-2041-5: a French letter of three lines came back as its first line translated."""
    letter = (
        "Le jardin\n\nCe printemps, nous plantons des tomates.\nLe soir, nous arrosons les fleurs."
    )
    lines = (
        "The garden",
        "This spring, we plant tomatoes.",
        "In the evening, we water the flowers.",
    )
    model = Answers({"text": "The garden"}, *({"text": line} for line in lines))
    result = translate_text.call(Desk(model), {"text": letter, "language": "English"})
    assert result.ok, result.message
    assert result.value == "\n".join([lines[0], "", *lines[1:]])  # the blank line kept
    assert "line by line (3 lines)" in result.evidence
    assert model.prompts[2] == "Translate into English:\nCe printemps, nous plantons des tomates."


def test_the_request_written_back_is_no_composed_text() -> None:
    """Seen with the 1.5B model: asked for a translation, it answered with its request and the
    facts, which the next step then saved into the user's document."""
    ask = {"request": "Write an English translation of the text", "facts": "0: 周末计划"}
    echo = "Write an English translation of the text\nFacts to use:\n0: 周末计划"
    written_back = compose_text.call(Desk(Answers({"text": echo})), ask)
    assert not written_back.ok and "wrote back the request" in written_back.message
    translated = compose_text.call(Desk(Answers({"text": "Weekend plan"})), ask)
    assert translated.ok and translated.value == "Weekend plan"


def test_the_real_model_s_extraction_is_kept_only_when_the_text_holds_it(tmp_path: Path) -> None:
    config = smollm2_config(tmp_path)
    with ModelRouter(config) as router:
        language = ModelLanguage(router.for_role("composer"))
        result = extract_values.call(Desk(language), ASK)
    if result.ok:
        assert isinstance(result.value, dict) and result.value["event"]
        assert result.value["event"] in MEMO
    else:
        assert "not found in the text" in result.message or "no usable reply" in result.message


class DeskAfter(Desk):
    """A desk whose step comes after steps that handed over ``hub``."""

    def __init__(self, model: object, hub: dict[str, str]) -> None:
        super().__init__(model)
        self.hub, self.task = hub, ""

    def step(self) -> object:
        return self


NO_ROUTE = (
    "Title: No directions - Offline Maps\n"
    "Address: http://maps.local/directions?from=Empire+State+Building&to=14%3A00\n"
    "Text:\nUnknown place: '14:00'. Choose one of the known places below.\n"
    'Fields:\n- "To" / "to" (text) = "14:00"'
)
MINUTES = {"text": NO_ROUTE, "names": ["minutes"], "what": "the travel time in minutes"}


def test_a_number_found_only_inside_a_value_the_run_supplied_is_refused() -> None:
    """pc02 (2026-11-29): "14" read off a map's "Unknown place: '14:00'" as the minutes."""
    memo = MEMO + "14:00  Meeting with John\n"
    hub = {"s2": memo, "s3": '{"meeting_time": "14:00"}'}
    echoed = extract_values.call(DeskAfter(Answers({"minutes": "14"}), hub), MINUTES)
    assert not echoed.ok and "only inside what earlier steps supplied" in echoed.message
    assert "minutes='14' (in '14:00')" in echoed.message
    # The same number standing on its own in the page is found; so is one from the memo
    # itself, which an earlier step read (a text read is no value supplied).
    page = {**MINUTES, "text": NO_ROUTE + "\nBy subway: 14 min"}
    assert extract_values.call(DeskAfter(Answers({"minutes": "14"}), hub), page).ok
    from_memo = {"text": memo, "names": ["time"], "what": "the meeting's time"}
    found = extract_values.call(DeskAfter(Answers({"time": "14:00"}), hub), from_memo)
    assert found.ok and found.value == {"time": "14:00"}


ECHO = (
    "Title: trip time to Brooklyn Museum on 11:30 - Offline Search\n"
    "Address: http://search.local/?q=trip+time+to+Brooklyn+Museum+on+11%3A30\n"
    "Text:\nAbout 10 results\n\nEmpire State Building to Brooklyn Museum - Offline Maps\n"
)


def test_a_value_the_run_had_found_again_only_in_a_page_s_echo_lines_is_refused() -> None:
    """A rewording of pc03 (2026-12-06): the meeting's time, put into a search, read back off
    the results page's title as the trip time, and the alarm set at it."""
    hub = {"s2": '{"time": "11:30", "place": "Brooklyn Museum"}'}
    ask = {"text": ECHO, "names": ["trip_time"], "what": "the trip time"}
    echoed = extract_values.call(DeskAfter(Answers({"trip_time": "11:30"}), hub), ask)
    assert not echoed.ok and "trip_time='11:30' (in '11:30')" in echoed.message
    # Where the page's text gives it too, or the run never had it, it is found.
    page = {**ask, "text": ECHO + "Open from 11:30 to 18:00.\n"}
    assert extract_values.call(DeskAfter(Answers({"trip_time": "11:30"}), hub), page).ok
    fresh = DeskAfter(Answers({"trip_time": "11:30"}), {"s2": '{"place": "Brooklyn Museum"}'})
    assert extract_values.call(fresh, ask).ok
    # The search box of the page holds the query too (pc03r1 at 4dad89f, the same day): a
    # form field's value is what was typed, no finding; the page after the fields is read.
    boxed = ECHO + 'Fields:\n- "Search the web" / "q" (text) = "trip time to Museum on 11:30"\n'
    in_box = {**ask, "text": boxed}
    refused = extract_values.call(DeskAfter(Answers({"trip_time": "11:30"}), hub), in_box)
    assert not refused.ok and "trip_time='11:30' (in '11:30')" in refused.message
    after = {**ask, "text": boxed + "Title: Directions\nLeave at 11:30 for the museum.\n"}
    assert extract_values.call(DeskAfter(Answers({"trip_time": "11:30"}), hub), after).ok


SCRIPT = "def half(n):\n    return n / 2\n\n\nprint(half(number))\n"


def test_a_revision_changes_the_text_and_keeps_the_rest() -> None:
    ask = {"text": SCRIPT, "request": "Fix the error in the Python code"}
    fixed = ["def half(n):", "    return n / 2", "", "", "print(half(8))"]
    revised = revise_text.call(Desk(Answers({"lines": fixed})), ask)
    assert revised.ok and revised.value == "\n".join(fixed) + "\n"
    assert "1 of 3 lines changed" in revised.evidence
    # A code fence around the lines is no part of the text; the indentation is.
    fenced = revise_text.call(Desk(Answers({"lines": ["```python", *fixed, "```"]})), ask)
    assert fenced.ok and fenced.value == revised.value
    # The text given back, or a text written anew, is no revision.
    same = revise_text.call(Desk(Answers({"lines": SCRIPT.splitlines()})), ask)
    assert not same.ok and "unchanged" in same.message
    anew = revise_text.call(Desk(Answers({"lines": ["The variable number is not defined."]})), ask)
    assert not anew.ok and "keeps 0 of the text's 3 lines" in anew.message
    assert not revise_text.call(Desk(Answers()), ask).ok  # no usable reply


def test_one_name_for_several_values_is_refused_before_the_program_runs() -> None:
    reading = {"id": "s1", "skill": "web_search", "args": {"query": "three share prices"}}
    extraction = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["price", "price", "price"], "what": "prices"},
    }
    program = Program(steps=[ProgramStep.model_validate(one) for one in (reading, extraction)])
    with pytest.raises(PlanError, match="a name of its own; repeated: price"):
        check_program(program, default_catalog(), apps=["browser"])
    distinct = {**extraction, "args": {**extraction["args"], "names": ["first", "second"]}}
    check_program(
        Program(steps=[ProgramStep.model_validate(one) for one in (reading, distinct)]),
        default_catalog(),
        apps=["browser"],
    )


def test_a_reply_the_value_s_use_refuses_is_asked_again_with_the_refusal() -> None:
    """The model layer's re-ask is the real one (a scripted backend answers): the first reply,
    the trip's title, is refused by ``shift_time``'s hours and the second is kept."""
    trip = "Trip to Lisbon\nFlight time: 2.5 hours\n"
    backend = ScriptedBackend([json.dumps({"text": "Trip to Lisbon"}), json.dumps({"text": "2.5"})])
    language = ModelLanguage(StructuredChatModel(backend, validation_retries=1))
    asked = {"text": trip, "names": ["text"], "what": "the trip"}
    result = extract_values.call(Desk(language), {**asked, "uses": {"text": "shift_time.hours"}})
    assert result.ok and result.value == {"text": "2.5"}
    first = backend.requests[0].messages[-1].text
    assert "Values: text (goes to shift_time's hours: a number; How many hours." in first
    reask = backend.requests[1].messages[-1].text
    assert "shift_time's hours" in reask and "valid number" in reask
    # Without the use, the title is kept as the text holds it: the later step would refuse it.
    unchecked = ScriptedBackend([json.dumps({"text": "Trip to Lisbon"})])
    plain = ModelLanguage(StructuredChatModel(unchecked, validation_retries=1))
    assert extract_values.call(Desk(plain), asked).value == {"text": "Trip to Lisbon"}


def test_a_time_of_day_is_answered_under_the_pattern_a_time_is_written_in() -> None:
    """The reply's grammar holds the model to a time where the value goes to an alarm's time
    (the parameter declares how a time is written): one of the times the text writes (a
    rewording of pc01 answered "20:00", which the memo does not hold, in five runs), or, in a
    text that writes none, any time; without the use, to any text."""
    backend = ScriptedBackend([json.dumps({"text": "10:15"})] * 2)
    language = ModelLanguage(StructuredChatModel(backend, validation_retries=0))
    asked = {"text": MEMO, "names": ["text"], "what": "the memo"}
    result = extract_values.call(Desk(language), {**asked, "uses": {"text": "set_alarm.time"}})
    assert result.ok and result.value == {"text": "10:15"}
    offered = backend.requests[0].schema["properties"]["text"]["enum"]
    assert offered == ["08:30", "10:15", "11:30"]
    # ... asked again with them the other way round, and kept only where both answers agree
    # (offered a memo's times for "the text of the memo", the 1.5B model chose the first
    # each way, "08:30" and "16:30", 2026-12-07).
    assert backend.requests[1].schema["properties"]["text"]["enum"] == offered[::-1]
    ordered = Answers({"text": "08:30"}, {"text": "11:30"})
    by_order = extract_values.call(Desk(ordered), {**asked, "uses": {"text": "set_alarm.time"}})
    assert not by_order.ok
    assert "depend on the order they were offered in: text='08:30' or '11:30'" in by_order.message
    refused = extract_values.call(
        Desk(Answers({"text": "20:00"})), {**asked, "uses": {"text": "set_alarm.time"}}
    )
    assert not refused.ok
    timeless = ScriptedBackend([json.dumps({"text": "9:15"})])
    extract_values.call(
        Desk(ModelLanguage(StructuredChatModel(timeless, validation_retries=0))),
        {**asked, "text": "Breakfast, then a call", "uses": {"text": "set_alarm.time"}},
    )
    pattern = timeless.requests[0].schema["properties"]["text"]["pattern"]
    assert re.fullmatch(pattern, "9:15") and not re.fullmatch(pattern, "Memo for Tuesday")
    # A number written inside a longer one is no time of it.
    assert held_as_written(r"^[0-9]{1,2}[:.][0-9]{2}$", "$131.38 at 9.45") == ("9.45",)
    on_a_date = "On 11.03.2025 at 9.15. Then 14:00."
    assert held_as_written(r"^[0-9]{1,2}[:.][0-9]{2}$", on_a_date) == ("9.15", "14:00")
    plain = ScriptedBackend([json.dumps({"text": "10:15"})])
    extract_values.call(Desk(ModelLanguage(StructuredChatModel(plain))), asked)
    assert "pattern" not in plain.requests[0].schema["properties"]["text"]


PLAN = "Destination: Tokyo\nLeaving: 3 March 2025, 09:40\nBack home: 10 March 2025\n"


def test_a_date_is_chosen_among_the_dates_the_text_writes_both_ways_round() -> None:
    """Where the value goes to a date (a count of days), the reply chooses among the dates the
    text writes, and is asked again with them the other way round: a rewording of pc23 counted
    the days to a trip's return for "the trip's date" (written "2025-03-10") and said
    finished. The same date written twice is one choice, whichever way it is written."""
    asked = {"text": PLAN, "names": ["date"], "what": "the trip's date"}
    use = {"uses": {"date": "days_between.end"}}
    backend = ScriptedBackend([json.dumps({"date": "3 March 2025"})] * 2)
    language = ModelLanguage(StructuredChatModel(backend, validation_retries=0))
    result = extract_values.call(Desk(language), {**asked, **use})
    assert result.ok and result.value == {"date": "3 March 2025"}
    offered = backend.requests[0].schema["properties"]["date"]["enum"]
    assert offered == ["3 March 2025", "10 March 2025"]
    assert backend.requests[1].schema["properties"]["date"]["enum"] == offered[::-1]
    by_order = Answers({"date": "3 March 2025"}, {"date": "10 March 2025"})
    failed = extract_values.call(Desk(by_order), {**asked, **use})
    assert not failed.ok and "depend on the order" in failed.message
    page = (
        "Labour Day falls on Thursday, 1 May 2025.\nDate: 2025-05-01\nChristmas: 25 December 2025"
    )
    alike = Answers({"date": "Thursday, 1 May 2025"}, {"date": "2025-05-01"})
    kept = extract_values.call(Desk(alike), {**asked, "text": page, **use})
    assert kept.ok and kept.value == {"date": "Thursday, 1 May 2025"}
    dateless = ScriptedBackend([json.dumps({"date": "3rd of March 2025"})])
    extract_values.call(
        Desk(ModelLanguage(StructuredChatModel(dateless, validation_retries=0))),
        {**asked, "text": "Leaving early in March", **use},
    )
    pattern = dateless.requests[0].schema["properties"]["date"]["pattern"]
    assert re.fullmatch(pattern, "3rd of March 2025") and re.fullmatch(pattern, "2025-03-03")
    assert not re.fullmatch(pattern, "early in March")


def test_a_use_no_skill_has_leaves_the_reply_a_text() -> None:
    model = Answers({"value": "anything the text holds"})
    asked = {"text": "anything the text holds", "names": ["value"], "what": "it"}
    result = extract_values.call(Desk(model), {**asked, "uses": {"value": "no_skill.none"}})
    assert result.ok and result.value == {"value": "anything the text holds"}


def test_a_value_whose_line_its_use_takes_is_kept_for_the_call_to_read_the_line() -> None:
    """Words of a route, where its minutes are wanted, pass: their one line holds the minutes
    (the call reads them from there); a line without them does not."""
    route = "Route to the museum\n24 min by tram\n"
    asked = {
        "text": route,
        "names": ["minutes"],
        "what": "the travel time",
        "uses": {"minutes": "set_alarm.minutes_before"},
    }
    kept = extract_values.call(Desk(Answers({"minutes": "by tram"})), asked)
    assert kept.value == {"minutes": "by tram"}
    refused = extract_values.call(Desk(Answers({"minutes": "Route to the museum"})), asked)
    assert not refused.ok and "no usable reply" in refused.message


PLACES = "Spring trip, candidate destinations\n\n1. Singapore\n2. Bangkok\n3. Dubai\n"
EACH = {
    "text": PLACES,
    "names": ["place"],
    "what": "the candidate places",
    "uses": {"place": "web_search_each.things"},
}


def test_a_value_that_goes_to_a_list_is_asked_for_as_a_list() -> None:
    """A rewording of pc06 (2026-12-05): asked in one text for the places a look-up of each
    takes, the 1.5B model answered one place, four times; the reply is now a list of as many
    items as the parameter takes, each held by the text, passed on as a list."""
    backend = ScriptedBackend([json.dumps({"place": ["1. Singapore", "Bangkok", "Dubai"]})])
    language = ModelLanguage(StructuredChatModel(backend, validation_retries=0))
    result = extract_values.call(Desk(language), EACH)
    assert result.ok and result.value == {"place": ["Singapore", "Bangkok", "Dubai"]}
    shape = backend.requests[0].schema["properties"]["place"]
    assert shape["type"] == "array" and (shape["minItems"], shape["maxItems"]) == (2, 8)
    assert extract_values.call(Desk(Answers({"place": "Singapore"})), {**EACH, "uses": {}}).ok


@pytest.mark.parametrize(
    ("reply", "refusal"),
    [
        (["Singapore", "singapore"], "no usable reply"),  # one item twice
        (["Singapore"], "no usable reply"),  # fewer than the look-up takes
        (["Singapore", "Paris"], "values not found in the text: place="),  # one invented
    ],
)
def test_a_list_reply_is_checked_item_by_item(reply: list[str], refusal: str) -> None:
    result = extract_values.call(Desk(Answers({"place": reply})), EACH)
    assert not result.ok and refusal in result.message


def test_no_usable_extraction_says_why_and_what_each_value_had_to_be() -> None:
    """A travel time asked for where an alarm's time of day goes: every reply is refused, and
    the failure the re-plan reads says why and what the value had to be (a real structured
    model over a scripted backend, the run's own ``ModelLanguage``)."""
    refused = json.dumps({"time": "38 min"})
    model = ModelLanguage(StructuredChatModel(ScriptedBackend([refused] * 3)))
    route = "Empire State Building to Brooklyn Museum: 38 min by subway"
    ask = {"text": route, "names": ["time"], "what": "the travel time"}
    result = extract_values.call(Desk(model), {**ask, "uses": {"time": "set_alarm.time"}})
    assert not result.ok
    assert "the language model gave no usable reply: " in result.message
    assert "time: String should match pattern" in result.message  # the model layer's reason
    assert "time goes to set_alarm's time" in result.message


def test_rows_a_look_up_found_are_read_as_lines() -> None:
    """A rewording of pc11: ``web_search_each``'s rows passed whole to an extraction failed on
    the text's type, and the re-plan redid the look-ups."""
    model = Answers({"rating": "8.7/10"})
    rows = [["Interstellar", "8.7/10"], ["12 Angry Men", "9.0/10"]]
    ask = {"text": rows, "names": ["rating"], "what": "Interstellar's rating"}
    found = extract_values.call(Desk(model), ask)
    assert found.ok and found.value == {"rating": "8.7/10"}, found.message
    assert "Text:\nInterstellar, 8.7/10\n" in model.prompts[0]
    assert "12 Angry Men, 9.0/10\n" in model.prompts[0]
    wrong = extract_values.call(Desk(Answers({"rating": "7.5/10"})), ask)
    assert not wrong.ok


PRICE_PAGE = "Title: Apple Inc. (AAPL) - Stocks\nText:\nApple Inc. (AAPL)\nLast price: $227.52\n"


def test_a_value_compared_as_a_number_is_answered_as_one() -> None:
    """pc07 at 9d0c5d5: asked for a company's "stock" twice, the model answered its ticker."""
    ask = {"text": PRICE_PAGE, "names": ["stock"], "what": "the stock", "numbers": ["stock"]}
    ticker = extract_values.call(Desk(Answers({"stock": "AAPL"})), ask)
    assert not ticker.ok and "no usable reply" in ticker.message
    model = Answers({"stock": "$227.52"})
    price = extract_values.call(Desk(model), ask)
    assert price.ok and price.value == {"stock": "$227.52"}, price.message
    assert "Values: stock (a number, as the text writes it)" in model.prompts[0]
    for written in ("8.7/10", "1.4 billion", "6 h 20 min", "35%", "131.38 USD", "€1,299.00"):
        page = {**ask, "text": f"It is {written}."}
        assert extract_values.call(Desk(Answers({"stock": written})), page).ok, written


def test_the_real_model_answers_a_number_under_the_number_grammar(tmp_path: Path) -> None:
    """The pattern is a grammar the local server takes, and holds the reply to a number
    (smollm2, too small to copy the right one: its value is not judged here)."""
    config = smollm2_config(tmp_path)
    schema = reply_model(["stock"], {}, PRICE_PAGE, ["stock"])
    with ModelRouter(config) as router:
        language = ModelLanguage(router.for_role("composer"))
        reply = language.answer("Copy the value.", f"Text:\n{PRICE_PAGE}\nValues: stock", schema)
        times = reply_model(["time"], {"time": "set_alarm.time"}, MEMO)
        chosen = language.answer("Copy the value.", f"Text:\n{MEMO}\nValues: time", times)
    assert reply is not None, language.refused
    assert re.fullmatch(NUMBER_WRITTEN, reply.stock), reply
    # A choice among the times the text writes is a grammar the server takes too.
    assert chosen is not None and chosen.time in ("08:30", "10:15", "11:30"), chosen
