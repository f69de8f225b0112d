"""The shared text helpers: the forms the layers compare and shorten text in."""

from __future__ import annotations

import datetime as dt
import re

from pcagent.text import (
    DATE_WRITTEN,
    comparable,
    contains,
    date_as_hinted,
    date_written,
    dates_in,
    folded,
    lines_holding,
    same_date_written,
    shortened,
    single_spaced,
    without_accents,
)


def test_text_is_compared_without_case_spacing_or_accents_where_asked() -> None:
    assert single_spaced("  Save\n\tas \u00a0 PDF ") == "Save as PDF"
    assert comparable("STRASSE  Straße") == "strasse strasse"
    assert contains("The total is\n  42 EUR", "total IS 42")
    assert not contains("The total is 42", "total: 42")
    assert without_accents("Léon, Zürich") == "Leon, Zurich"
    assert folded("  São\tPaulo ") == folded("sao paulo") == "sao paulo"


def test_a_shortened_text_keeps_its_limit_and_marks_the_cut() -> None:
    assert shortened("Downloads", 9) == "Downloads"
    assert shortened("Downloads", 5) == "Down…"
    assert len(shortened("x" * 100, 24)) == 24


def test_a_date_is_one_date_in_each_unambiguous_form_it_is_written_in() -> None:
    mail = "You leave on 2 May 2025; the return is on May 9th, 2025. Sept. 3, 2024 2025-02-30"
    assert dates_in(mail) == {dt.date(2025, 5, 2), dt.date(2025, 5, 9), dt.date(2024, 9, 3)}
    assert dates_in("on 02/05/2025") == set()  # the 2nd of May or the 5th of February
    assert same_date_written("2025-05-02", mail) and same_date_written("9 May 2025", mail)
    assert not same_date_written("2025-05-03", mail)
    assert not same_date_written("leave 2025-05-02", mail)  # only a date alone


def test_a_date_is_written_the_way_a_field_s_hint_writes_dates() -> None:
    iso = ("Date", "YYYY-MM-DD")
    assert date_as_hinted("14 March 2025", iso) == "2025-03-14"
    assert date_as_hinted("Friday, 14 March 2025.", iso) == "2025-03-14"
    assert date_as_hinted("March 9th, 2025", ("when", "DD/MM/YYYY")) == "09/03/2025"
    assert date_as_hinted("2025-03-14", ("MM.DD.YYYY",)) == "03.14.2025"
    # No hint that writes a whole date, or no date alone: nothing to rewrite.
    assert date_as_hinted("14 March 2025", ("Date", "dd")) is None
    assert date_as_hinted("14 March 2025", ("YYYY-MM-MM",)) is None
    assert date_as_hinted("Berlin, 14 March 2025", iso) is None
    assert date_as_hinted("02/05/2025", iso) is None  # which day of which month is not said
    assert date_as_hinted("14 March 2025 and 15 March 2025", iso) is None


def test_the_lines_holding_a_value_are_found_as_a_person_compares() -> None:
    memo = "Morning\n08:30  Breakfast  with Lisa\n10:15  Call with the agency\n"
    assert lines_holding("breakfast with lisa", memo) == ["08:30  Breakfast  with Lisa"]
    assert lines_holding("with", memo) == [
        "08:30  Breakfast  with Lisa",
        "10:15  Call with the agency",
    ]
    assert lines_holding("  ", memo) == []  # nothing wanted: no line holds it
    assert lines_holding("dinner", memo) == []


def test_a_date_written_alone_is_read_with_or_without_its_weekday() -> None:
    for written in ("Monday 3 March 2025", "3rd of March 2025", "March 3, 2025", "2025-03-03"):
        assert date_written(written) == dt.date(2025, 3, 3), written
        assert re.fullmatch(DATE_WRITTEN, written), written
    assert date_written("3 March") is None and date_written("on 3 March 2025 at ten") is None
    assert not re.fullmatch(DATE_WRITTEN, "03/03/2025")
