"""The Composer writes only the text; paragraphs asked for come as paragraphs."""

from __future__ import annotations

import json

from tests.agents.scripted import ScriptedModels

from pcagent.agents.composer import Composer, in_paragraphs, paragraphs_asked

TWO = (
    "Lisbon is the capital of Portugal. It lies on the Tagus. Oslo is the capital of Norway. "
    "It lies on a fjord."
)


def test_the_paragraphs_asked_for_are_counted() -> None:
    assert paragraphs_asked("Write two paragraphs, one on Lisbon and one on Oslo") == 2
    assert paragraphs_asked("write 3 paragraphs about tea") == 3
    assert paragraphs_asked("Write a paragraph about tea") == 0


def test_one_line_becomes_the_paragraphs_asked_for_at_a_new_subject() -> None:
    assert in_paragraphs(TWO, 2) == (
        "Lisbon is the capital of Portugal. It lies on the Tagus.\n"
        "Oslo is the capital of Norway. It lies on a fjord."
    )
    # no new subjects to split at: as evenly as the sentences go
    assert in_paragraphs("One. Two. Three.", 2).count("\n") == 1
    # already in paragraphs, not asked, or too few sentences: unchanged
    assert in_paragraphs("A.\nB.", 2) == "A.\nB."
    assert in_paragraphs(TWO, 0) == TWO
    assert in_paragraphs("Only one sentence.", 2) == "Only one sentence."


def test_the_composer_asks_with_the_subtask_and_the_values() -> None:
    models = ScriptedModels(composer=[json.dumps({"text": f'"{TWO}"'})])
    composer = Composer(models.for_role("composer"))
    text = composer.compose("Write two paragraphs, one on each city", {"city": "Oslo"}, 1)
    assert text is not None and text.count("\n") == 1 and not text.startswith('"')
    prompt = models.prompts("composer")[0]
    assert "Subtask: Write two paragraphs, one on each city" in prompt and "city = Oslo" in prompt


def test_the_composer_gives_a_sheet_s_rows_with_numbers_as_numbers() -> None:
    reply = {"rows": [["Lisbon", "$545,000"], ["Oslo", 709000.0], ["", ""], ["Rome", "2.8 m"]]}
    models = ScriptedModels(composer=[json.dumps(reply)])
    rows = Composer(models.for_role("composer")).compose_rows(
        "write the cities in column A and their populations in column B",
        {"cities": "Lisbon 545,000; Oslo 709,000"},
        1,
    )
    # a number with a currency sign or separators is a number; an empty row is left out
    assert rows == (("Lisbon", 545000), ("Oslo", 709000), ("Rome", "2.8 m"))
    prompt = models.prompts("composer")[0]
    assert "Subtask: write the cities in column A" in prompt and "Give the rows." in prompt


def test_rows_come_in_the_order_asked() -> None:
    from pcagent.agents.composer import in_order_asked

    rows = (("Peru", 34), ("Chile", 19.6), ("Brazil", 216))
    asked = "write the countries in column A in descending order of population, populations in B"
    assert in_order_asked(rows, asked) == (("Brazil", 216), ("Peru", 34), ("Chile", 19.6))
    assert in_order_asked(rows, "from the smallest to the largest") == (
        ("Chile", 19.6),
        ("Peru", 34),
        ("Brazil", 216),
    )
    assert in_order_asked(rows, "write the countries in column A") == rows  # no order asked
    mixed = (("Peru", "n/a"), ("Chile", 19.6))
    assert in_order_asked(mixed, asked) == mixed  # no column of numbers


def test_the_schema_s_words_are_no_text_and_the_schema_has_none_to_copy() -> None:
    from pcagent.agents.composer import ComposedRows, ComposedText

    models = ScriptedModels(composer=[json.dumps({"text": "The text, nothing else."})])
    assert Composer(models.for_role("composer")).compose("Write them into a file", {}, 1) is None
    for schema in (ComposedText, ComposedRows):
        assert "description" not in json.dumps(schema.model_json_schema())
