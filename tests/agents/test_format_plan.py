"""The formatting a subtask's words ask for, read off its clauses."""

from __future__ import annotations

from pcagent.agents.format_plan import FormatRequest, format_requests, read_paragraphs


def test_each_clause_names_its_paragraphs_and_its_format() -> None:
    asked = "make the heading italic, set the line spacing of the first three paragraphs to 2"
    assert format_requests(asked) == [
        FormatRequest("title", 0, {"italic": True}),
        FormatRequest("first", 3, {"line_spacing": 2.0}),
    ]
    assert format_requests("Centre the title and underline the last paragraph, then save it") == [
        FormatRequest("title", 0, {"alignment": "center"}),
        FormatRequest("last", 0, {"underline": True}),
    ]
    assert format_requests("decrease the font size of the second paragraph by one step") == [
        FormatRequest("number", 2, {"size_step": "smaller"})
    ]
    assert format_requests("set the font size of paragraph 4 to 14 pt") == [
        FormatRequest("number", 4, {"font_size": 14.0})
    ]
    assert format_requests("make the title bold and italic") == [
        FormatRequest("title", 0, {"bold": True, "italic": True})
    ]
    # "it" is what the clause before named: one request for both
    assert format_requests("make the title bold and center it, and save it") == [
        FormatRequest("title", 0, {"bold": True, "alignment": "center"})
    ]
    assert format_requests("underline the last paragraph, then make it italic") == [
        FormatRequest("last", 0, {"underline": True, "italic": True})
    ]
    # writing, or formatting without saying what: nothing to read off
    assert format_requests("Write two paragraphs about tea and save it as tea") == []
    assert format_requests("make it look nicer") == []


def test_paragraph_numbers_follow_the_reading() -> None:
    reading = "step 4, writer_read: 0: Tea\n1: First.\n2: Second.\n3: Third.\n4: "
    texts = read_paragraphs(reading)
    assert texts == ["Tea", "First.", "Second.", "Third.", ""]
    assert FormatRequest("title").paragraphs(None) == (0,)
    assert FormatRequest("first", 2).paragraphs(None) == (1, 2)  # after the title
    assert FormatRequest("last").paragraphs(None) is None  # needs the reading
    assert FormatRequest("last").paragraphs(texts) == (3,)  # the last that holds text
    assert read_paragraphs("step 5, writer_format: paragraphs [0] bold") is None
