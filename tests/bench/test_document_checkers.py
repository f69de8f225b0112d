"""Document, workbook, list-order, alarm-window and Python-function checkers on prepared files:
what must pass passes, and the near misses fail."""

from __future__ import annotations

from pathlib import Path

import docx
import openpyxl
import pytest
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt

from pcagent.bench.checkers import CheckContext, CheckerError, run_checker
from pcagent.bench.fixtures import write_clocks_settings, write_docx
from pcagent.bench.tasks import DocumentSpec

DOC = "Documents/doc.docx"


@pytest.fixture
def context(tmp_path: Path) -> CheckContext:
    (tmp_path / "Documents").mkdir()
    return CheckContext(home=tmp_path)


def check(name: str, context: CheckContext, /, **params: object) -> bool:
    result = run_checker(name, params, context)
    assert result.reason
    return result.passed


def _document(context: CheckContext, paragraphs: list[str], title: str = "A Title") -> Path:
    path = context.home / DOC
    write_docx(path, DocumentSpec(title=title, paragraphs=paragraphs))
    return path


def _edit(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    document = docx.Document(str(path))
    change([p for p in document.paragraphs if p.text.strip()])
    document.save(str(path))


def test_line_spacing_reads_the_document_default_and_direct_settings(
    context: CheckContext,
) -> None:
    path = _document(context, ["One.", "Two.", "Three."])

    def spacing(paragraphs: list[int], value: float) -> bool:
        return check("docx_line_spacing", context, path=DOC, paragraphs=paragraphs, spacing=value)

    assert spacing([1, 2, 3], 1.15)  # python-docx's template default (276/240)
    assert not spacing([1], 1.5)
    _edit(path, lambda ps: [setattr(p.paragraph_format, "line_spacing", 1.5) for p in ps[1:3]])
    assert spacing([1, 2], 1.5)
    assert not spacing([1, 2, 3], 1.5)  # the third one was not changed
    assert spacing([3], 1.15)
    _edit(path, lambda ps: setattr(ps[3].paragraph_format, "line_spacing", Pt(18)))
    assert not spacing([3], 1.5)  # exactly 18 pt is not "1.5 lines"
    assert not spacing([9], 1.5)


def test_alignment_underline_and_font_size(context: CheckContext) -> None:
    path = _document(context, ["Body one.", "Body two."])
    assert check("docx_alignment", context, path=DOC, paragraph=0, alignment="left")
    assert not check("docx_alignment", context, path=DOC, paragraph=0, alignment="center")
    _edit(path, lambda ps: setattr(ps[1], "alignment", WD_ALIGN_PARAGRAPH.CENTER))
    assert not check("docx_alignment", context, path=DOC, paragraph=0, alignment="center")
    _edit(path, lambda ps: setattr(ps[0], "alignment", WD_ALIGN_PARAGRAPH.CENTER))
    assert check("docx_alignment", context, path=DOC, paragraph=0, alignment="center")
    with pytest.raises(CheckerError, match="alignment must be"):
        check("docx_alignment", context, path=DOC, paragraph=0, alignment="middle")

    assert not check("docx_underline", context, path=DOC, paragraph=-1)
    _edit(path, lambda ps: [setattr(r, "underline", True) for r in ps[1].runs])
    assert not check("docx_underline", context, path=DOC, paragraph=-1)  # not the last one
    assert check("docx_underline", context, path=DOC, paragraph=1)
    _edit(path, lambda ps: [setattr(r, "underline", True) for r in ps[-1].runs])
    assert check("docx_underline", context, path=DOC, paragraph=-1)
    assert not check("docx_underline", context, path=DOC, paragraph=-1, only=True)

    assert check("docx_font_size", context, path=DOC, paragraph=0, points=26)  # Title style
    assert check("docx_font_size", context, path=DOC, paragraph=1, points=11)  # doc default
    _edit(path, lambda ps: [setattr(r.font, "size", Pt(28)) for r in ps[0].runs])
    assert check("docx_font_size", context, path=DOC, paragraph=0, points=28)
    assert not check("docx_font_size", context, path=DOC, paragraph=0, points=26)


def test_paragraphs_about_each_subject_and_mentions(context: CheckContext) -> None:
    _document(context, ["Alibaba and OpenAI are both technology companies."])
    about = {"path": DOC, "subjects": ["Alibaba", "OpenAI"]}
    assert not check("docx_paragraphs_about", context, **about)  # one paragraph for both
    _document(context, ["Alibaba sells online.", "OpenAI, unlike Alibaba, builds models."])
    assert check("docx_paragraphs_about", context, **about)
    _document(context, ["Alibaba sells online."])
    assert not check("docx_paragraphs_about", context, **about)

    groups = [["Skytree", "Senso-ji"], ["Kinkaku", "Fushimi"]]
    _document(context, ["Tokyo: the Skytree.", "Kyoto: Fushimi Inari."])
    assert check("docx_mentions", context, path=DOC, groups=groups)
    _document(context, ["Tokyo: the Skytree and Senso-ji."])
    assert not check("docx_mentions", context, path=DOC, groups=groups)


def test_text_after_an_anchor(context: CheckContext) -> None:
    params = {"path": DOC, "anchor": "博物馆", "texts": ["picnic", "museum"]}
    _document(context, ["去公园野餐。", "去博物馆。"], title="计划")
    assert not check("docx_text_after", context, **params)
    _document(context, ["We go for a picnic, or to the museum.", "去公园野餐。", "去博物馆。"])
    assert not check("docx_text_after", context, **params)  # above the text, not below
    _document(context, ["去公园野餐。", "去博物馆。", "A picnic, or the museum."])
    assert check("docx_text_after", context, **params)
    _document(context, ["A picnic, or the museum."])
    assert not check("docx_text_after", context, **params)  # the original is gone


def _sheet(context: CheckContext, rows: list[list[object]]) -> None:
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    workbook.save(str(context.home / "Documents/sheet.xlsx"))


def test_xlsx_rows_order_headers_and_alternatives(context: CheckContext) -> None:
    expected = [
        ["india", "1450935791"],
        ["china", "1419321278"],
        ["united states|usa", "345426571"],
    ]
    params = {"path": "Documents/sheet.xlsx", "rows": expected, "ordered": True}
    _sheet(context, [["Country", "People"], ["India", 1450935791], ["China", 1419321278],
                     ["USA", 345426571]])  # fmt: skip
    assert check("xlsx_rows", context, **params)
    _sheet(context, [["China", 1419321278], ["India", 1450935791], ["USA", 345426571]])
    assert not check("xlsx_rows", context, **params)  # not in descending order
    assert check("xlsx_rows", context, **{**params, "ordered": False})
    _sheet(context, [["India", 1450935791], ["China", 1419321278], ["USA", 345426570]])
    assert not check("xlsx_rows", context, **{**params, "ordered": False})  # one number off
    _sheet(context, [["India", None], ["China", 1419321278], ["USA", 345426571]])
    assert not check("xlsx_rows", context, **{**params, "ordered": False})
    _sheet(context, [["NVIDIA Corporation", "131.38"]])
    assert check("xlsx_rows", context, path="Documents/sheet.xlsx", rows=[["nvidia", "131.38"]])
    assert not check("xlsx_rows", context, path="Documents/none.xlsx", rows=[["nvidia", "1"]])


def test_text_in_order(context: CheckContext) -> None:
    path = context.home / "Documents/ratings.txt"
    texts = ["Shawshank", "Professional", "Space Odyssey"]
    path.write_text("Shawshank 9.3\nLeon: The Professional 8.5\n2001: A Space Odyssey 8.3\n")
    assert check("text_file_in_order", context, path="Documents/ratings.txt", texts=texts)
    path.write_text("2001: A Space Odyssey 8.3\nShawshank 9.3\nLeon: The Professional 8.5\n")
    assert not check("text_file_in_order", context, path="Documents/ratings.txt", texts=texts)
    path.write_text("Shawshank 9.3\nLeon: The Professional 8.5\n")
    assert not check("text_file_in_order", context, path="Documents/ratings.txt", texts=texts)


def test_alarm_between(context: CheckContext) -> None:
    window = {"earliest": "12:45", "latest": "13:22"}

    def alarm(hour: int, minute: int, active: str = "true") -> None:
        entry = f"{{'hour': <{hour}>, 'minute': <{minute}>, 'active': <{active}>}}"
        write_clocks_settings(context.home, {"alarms": f"[{entry}]"})

    alarm(13, 20)
    assert check("clock_alarm_between", context, **window)
    alarm(13, 23)  # one minute too late to arrive on time
    assert not check("clock_alarm_between", context, **window)
    alarm(12, 44)
    assert not check("clock_alarm_between", context, **window)
    alarm(13, 0, active="false")
    assert not check("clock_alarm_between", context, **window)
    with pytest.raises(CheckerError, match="HH:MM"):
        check("clock_alarm_between", context, earliest="noon", latest="13:00")


def test_python_function_returns(context: CheckContext) -> None:
    path = context.home / "Documents/kth.py"
    cases = [[[3, 1, 5, 2, 4], 2, 4], [[7, 7, 3], 1, 7]]
    params = {"path": "Documents/kth.py", "function": "kth_largest", "cases": cases}
    path.write_text("def kth_largest(numbers, k):\n    return sorted(numbers)[-k]\n")
    assert check("python_function_returns", context, **params)
    path.write_text("def kth_largest(numbers, k):\n    return sorted(numbers)[k - 1]\n")
    assert not check("python_function_returns", context, **params)  # k-th smallest
    path.write_text("def kth(numbers, k):\n    return sorted(numbers)[-k]\n")
    assert not check("python_function_returns", context, **params)  # wrong name
    path.write_text("def kth_largest(numbers, k)\n    return 1\n")
    assert not check("python_function_returns", context, **params)  # syntax error
    path.write_text("def kth_largest(numbers, k):\n    while True:\n        pass\n")
    assert not check("python_function_returns", context, **params, timeout_s=1.0)
