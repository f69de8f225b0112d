"""The shared text helpers: the forms the layers compare and shorten text in."""

from __future__ import annotations

from pcagent.text import (
    comparable,
    contains,
    folded,
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
