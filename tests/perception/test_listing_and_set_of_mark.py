"""The compact listing, relevance pruning and the Set-of-Mark image on a recorded real screen."""

from __future__ import annotations

from PIL import Image

from pcagent.env.observation import Box, Element, Observation
from pcagent.perception import (
    baseline_listing,
    compact_listing,
    draw_set_of_mark,
    interactive_marks,
    prune_marks,
)
from pcagent.perception.listing import element_targets, mark_line
from pcagent.perception.marks import Mark
from pcagent.perception.ocr import OcrLine, OcrResult, OcrWord, ocr_marks, parse_tsv
from pcagent.perception.set_of_mark import PALETTE, luminance, place_tags, text_colour


def test_a_mark_line_has_number_role_label_value_states_and_centre() -> None:
    mark = Mark(
        number=7, role="toggle button", label="Bold", states=("checked",),
        box=Box(x=591, y=89, width=33, height=35),
    )  # fmt: skip
    assert mark_line(mark) == '7 toggle "Bold" checked @607,106'
    entry = Mark(number=3, role="text", label="Font Name", value="Calibri", box=mark.box)
    assert mark_line(entry) == '3 text "Font Name" ="Calibri" @607,106'


def test_long_text_is_cut_with_its_length(writer_screen: Observation) -> None:
    mark = Mark(
        number=1, role="paragraph", label="word " * 40, box=Box(x=0, y=0, width=9, height=9)
    )
    line = mark_line(mark)
    assert "…(+" in line and len(line) < 130


def test_the_listing_is_much_shorter_than_the_baseline(writer_screen: Observation) -> None:
    marks = interactive_marks(writer_screen)
    ours = compact_listing(marks)
    baseline = baseline_listing(writer_screen.elements)
    assert ours.count("\n") == len(marks)  # header + one line per mark
    assert len(ours) < 0.7 * len(baseline)
    for name in ("Bold", "Italic", "Underline", "Paragraph 3: the committee agreed on item 3."):
        assert f'"{name}"' in ours


def test_pruning_keeps_relevant_marks_with_their_numbers(writer_screen: Observation) -> None:
    marks = interactive_marks(writer_screen)
    kept = prune_marks(marks, "make the text bold and italic", limit=10)
    assert len(kept) == 10
    by_label = {m.label: m for m in marks}
    assert by_label["Bold"] in kept and by_label["Italic"] in kept
    assert [m.number for m in kept] == sorted(m.number for m in kept)
    assert prune_marks(marks[:5], "anything", limit=10) == marks[:5]


def test_set_of_mark_draws_every_box_in_a_contrasting_colour(writer_screen: Observation) -> None:
    marks = interactive_marks(writer_screen)
    image = draw_set_of_mark(writer_screen.screenshot, marks)
    assert image.size == writer_screen.screenshot.size
    assert image is not writer_screen.screenshot
    bold = next(m for m in marks if m.label == "Bold")
    # The box's left edge, half-way down, now has a palette colour; the original did not.
    x, y = bold.box.x, bold.box.center[1]
    drawn = image.getpixel((x, y))
    assert drawn in PALETTE
    assert writer_screen.screenshot.getpixel((x, y)) != drawn
    background = luminance(writer_screen.screenshot.getpixel((x - 3, y)))  # type: ignore[arg-type]
    assert abs(luminance(drawn) - background) >= 60  # type: ignore[arg-type]


def test_tags_do_not_hide_each_other_when_there_is_room() -> None:
    marks = [
        Mark(number=n, role="push button", box=Box(x=40 + 30 * n, y=40, width=28, height=28))
        for n in range(1, 11)
    ]
    tags = place_tags(marks, [(18, 14)] * len(marks), (800, 600))
    for index, tag in enumerate(tags):
        assert tag.x >= 0 and tag.right <= 800 and tag.y >= 0 and tag.bottom <= 600
        assert all(tag.intersection_area(other) == 0 for other in tags[index + 1 :])


def test_tag_text_is_readable_on_its_fill() -> None:
    for colour in PALETTE:
        assert abs(luminance(text_colour(colour)) - luminance(colour)) >= 90


def test_tesseract_tsv_becomes_screen_boxes_of_words() -> None:
    tsv = (
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
        "1\t1\t0\t0\t0\t0\t0\t0\t400\t200\t-1\t\n"
        "5\t1\t1\t1\t1\t1\t20\t40\t60\t20\t95.5\tHello\n"
        "5\t1\t1\t1\t1\t2\t90\t40\t80\t20\t91.0\tworld\n"
        "5\t1\t2\t1\t1\t1\t20\t100\t40\t20\t88.0\tNext\n"
    )
    words = parse_tsv(tsv, Box(x=100, y=50, width=200, height=100), scale=2.0)
    assert [w.text for w in words] == ["Hello", "world", "Next"]
    assert words[0].box == Box(x=110, y=70, width=30, height=10)
    assert words[0].line == words[1].line != words[2].line


def _line(text: str, box: Box) -> OcrLine:
    return OcrLine(text=text, box=box, words=(OcrWord(text=text, box=box, confidence=90, line=0),))


def test_ocr_text_already_in_the_tree_is_dropped_the_rest_becomes_text_marks() -> None:
    elements = [
        Element(id=0, role="push button", name="OK", box=Box(x=10, y=10, width=60, height=30)),
        Element(id=1, role="document web", name="Page", box=Box(x=0, y=0, width=400, height=300)),
    ]
    lines = [
        _line("OK", Box(x=25, y=15, width=20, height=14)),  # inside the button: a duplicate
        _line("Canvas text", Box(x=50, y=100, width=90, height=14)),  # only in the document
    ]
    result = OcrResult(words=[], lines=lines, region=Box(x=0, y=0, width=400, height=300))
    marks = ocr_marks(result, elements, first_number=5)
    assert [(m.number, m.label, m.source, m.element_id) for m in marks] == [
        (5, "Canvas text", "ocr", None)
    ]
    assert mark_line(marks[0]).startswith('5 ocrtext "Canvas text"')


def test_set_of_mark_on_an_empty_screen_is_a_plain_copy() -> None:
    screenshot = Image.new("RGB", (100, 50), "white")
    image = draw_set_of_mark(screenshot, [])
    assert image.tobytes() == screenshot.tobytes()


def test_element_targets_name_each_labelled_mark_as_listed() -> None:
    box = Box(x=0, y=0, width=10, height=10)
    marks = [
        Mark(number=1, role="push button", label="Save", box=box),
        Mark(number=2, role="push button", label="Close", box=box),
        Mark(number=3, role="push button", label="  Close ", box=box),
        Mark(number=4, role="text", label="", box=box),
        Mark(number=5, role="label", label='say "hi"', box=box),
    ]
    targets = element_targets(marks)
    assert {name: mark.number for name, mark in targets.items()} == {
        "Save": 1,
        "Close #2": 2,
        "Close #3": 3,
        "say 'hi'": 5,
    }
    for name, mark in targets.items():
        assert name.split(" #")[0] in mark_line(mark)
