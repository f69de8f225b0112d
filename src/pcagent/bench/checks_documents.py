"""Checkers on saved documents (.docx via python-docx) and workbooks (.xlsx via openpyxl).

A task that edits a document is done when the change is saved, so these read the file, never the
window. Formatting is read the way a word processor shows it: a run's own setting, else its
paragraph style's, else that style's base styles', else the document default. Paragraph numbers
count non-empty paragraphs from 0 (the title); negative numbers count from the end (-1 = last).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from docx.oxml.ns import qn

from pcagent.bench.checker_types import CheckContext, CheckerError, CheckResult, checker
from pcagent.bench.value_matching import normalise_text, parse_number, same_value

# --- reading .docx -------------------------------------------------------------------------------


def _paragraphs(path: Path) -> list[Any]:
    import docx

    return [p for p in docx.Document(str(path)).paragraphs if p.text.strip()]


def _open(context: CheckContext, path: str) -> tuple[list[Any], CheckResult | None]:
    """The non-empty paragraphs, or a failed result saying why there are none to check."""
    target = context.path(path)
    if not target.is_file():
        return [], CheckResult.no(f"{path} does not exist")
    return _paragraphs(target), None


def _pick(paragraphs: list[Any], index: int, path: str) -> tuple[Any, CheckResult | None]:
    if not -len(paragraphs) <= index < len(paragraphs):
        return None, CheckResult.no(f"{path} has only {len(paragraphs)} non-empty paragraphs")
    return paragraphs[index], None


def _styles(paragraph: Any) -> list[Any]:
    """The paragraph's style and its base styles, nearest first."""
    chain, style = [], paragraph.style
    while style is not None and style not in chain:
        chain.append(style)
        style = style.base_style
    return chain


def _inherited(paragraph: Any, own: Any, read: Callable[[Any], Any]) -> Any:
    """``own`` if set, else the first setting ``read`` finds along the paragraph's styles."""
    for style in _styles(paragraph):
        if own is not None:
            break
        own = read(style)
    return own


def _run_property(paragraph: Any, run: Any, name: str) -> Any:
    return _inherited(paragraph, getattr(run.font, name), lambda s: getattr(s.font, name))


def _paragraph_property(paragraph: Any, name: str) -> Any:
    own = getattr(paragraph.paragraph_format, name)
    return _inherited(paragraph, own, lambda s: getattr(s.paragraph_format, name))


def _default_size_pt(paragraph: Any) -> float | None:
    """The document default font size (``w:docDefaults``), in points."""
    styles = paragraph.part.document.styles.element
    found = styles.xpath("w:docDefaults/w:rPrDefault/w:rPr/w:sz/@w:val")
    return int(found[0]) / 2 if found else None


def _default_line_spacing(paragraph: Any) -> float:
    """The document default line spacing (``w:docDefaults``) in lines; single if unset."""
    styles = paragraph.part.document.styles.element
    found = styles.xpath("w:docDefaults/w:pPrDefault/w:pPr/w:spacing")
    if not found:
        return 1.0
    line, rule = found[0].get(qn("w:line")), found[0].get(qn("w:lineRule"), "auto")
    return int(line) / 240 if line and rule == "auto" else 1.0


def _text_runs(paragraph: Any) -> list[Any]:
    return [run for run in paragraph.runs if run.text.strip()]


def _all_runs(paragraph: Any, test: Callable[[Any], bool]) -> bool:
    runs = _text_runs(paragraph)
    return bool(runs) and all(test(run) for run in runs)


def _is_bold(paragraph: Any) -> bool:
    return _all_runs(paragraph, lambda run: bool(_run_property(paragraph, run, "bold")))


def _is_underlined(paragraph: Any) -> bool:
    return _all_runs(paragraph, lambda run: bool(_run_property(paragraph, run, "underline")))


def _sizes_pt(paragraph: Any) -> list[float | None]:
    default = _default_size_pt(paragraph)
    sizes = []
    for run in _text_runs(paragraph):
        size = _run_property(paragraph, run, "size")
        sizes.append(size.pt if size is not None else default)
    return sizes


def _preview(paragraph: Any) -> str:
    text = paragraph.text.strip()
    return repr(text if len(text) <= 40 else text[:40] + "…")


# --- .docx checkers ------------------------------------------------------------------------------


@checker
def docx_contains(context: CheckContext, path: str, texts: list[str]) -> CheckResult:
    """A .docx document's text contains every one of ``texts`` (case and spacing ignored)."""
    paragraphs, failed = _open(context, path)
    if failed:
        return failed
    text = normalise_text(" ".join(p.text for p in paragraphs))
    missing = [t for t in texts if normalise_text(t) not in text]
    if missing:
        return CheckResult.no(f"{path} lacks {missing}")
    return CheckResult.ok(f"{path} contains {texts}")


@checker
def docx_mentions(context: CheckContext, path: str, groups: list[list[str]]) -> CheckResult:
    """For every group of alternatives, the document mentions at least one (case ignored): e.g.
    one attraction of each city."""
    paragraphs, failed = _open(context, path)
    if failed:
        return failed
    text = normalise_text(" ".join(p.text for p in paragraphs))
    unmet = [group for group in groups if not any(normalise_text(item) in text for item in group)]
    if unmet:
        return CheckResult.no(f"{path} mentions none of {unmet[0]}")
    return CheckResult.ok(f"{path} mentions one of each of {len(groups)} groups")


def _assign(options: Sequence[set[int]], taken: frozenset[int] = frozenset()) -> bool:
    """Whether each subject can get a paragraph of its own (tiny bipartite matching)."""
    if not options:
        return True
    return any(_assign(options[1:], taken | {i}) for i in options[0] - taken)


@checker
def docx_paragraphs_about(context: CheckContext, path: str, subjects: list[str]) -> CheckResult:
    """Every subject is named in a paragraph of its own: "two paragraphs introducing Alibaba and
    OpenAI" is not met by one paragraph about both."""
    paragraphs, failed = _open(context, path)
    if failed:
        return failed
    options = [
        {i for i, p in enumerate(paragraphs) if normalise_text(subject) in normalise_text(p.text)}
        for subject in subjects
    ]
    absent = [s for s, found in zip(subjects, options, strict=True) if not found]
    if absent:
        return CheckResult.no(f"no paragraph of {path} names {absent}")
    if not _assign(options):
        return CheckResult.no(f"{path} names {subjects} but not each in a paragraph of its own")
    return CheckResult.ok(f"{path} has a paragraph about each of {subjects}")


@checker
def docx_text_after(context: CheckContext, path: str, anchor: str, texts: list[str]) -> CheckResult:
    """The paragraph containing ``anchor`` is still there, and the paragraphs after it contain
    every one of ``texts`` (e.g. a translation written below the original)."""
    paragraphs, failed = _open(context, path)
    if failed:
        return failed
    places = [
        i for i, p in enumerate(paragraphs) if normalise_text(anchor) in normalise_text(p.text)
    ]
    if not places:
        return CheckResult.no(f"{path} no longer contains {anchor!r}")
    after = normalise_text(" ".join(p.text for p in paragraphs[places[-1] + 1 :]))
    missing = [t for t in texts if normalise_text(t) not in after]
    if missing:
        return CheckResult.no(f"below {anchor[:20]!r}… {path} lacks {missing}")
    return CheckResult.ok(f"below the original, {path} contains {texts}")


def _whole_paragraph(
    context: CheckContext,
    path: str,
    paragraph: int,
    only: bool,
    test: Callable[[Any], bool],
    quality: str,
) -> CheckResult:
    """Paragraph number ``paragraph`` has ``quality`` throughout (``test``); with ``only``, no
    other paragraph has it anywhere."""
    paragraphs, failed = _open(context, path)
    chosen, failed = (None, failed) if failed else _pick(paragraphs, paragraph, path)
    if failed:
        return failed
    if not test(chosen):
        return CheckResult.no(f"paragraph {paragraph} {_preview(chosen)} is not (all) {quality}")
    if only:
        others = [i for i, p in enumerate(paragraphs) if p is not chosen and test(p)]
        if others:
            return CheckResult.no(f"paragraphs {others} of {path} are {quality} too")
    return CheckResult.ok(f"paragraph {paragraph} of {path} is {quality}")


@checker
def docx_bold(context: CheckContext, path: str, paragraph: int, only: bool = False) -> CheckResult:
    """Paragraph number ``paragraph`` of a .docx is bold throughout; with ``only``, no other
    paragraph is bold."""
    return _whole_paragraph(context, path, paragraph, only, _is_bold, "bold")


@checker
def docx_underline(
    context: CheckContext, path: str, paragraph: int, only: bool = False
) -> CheckResult:
    """Paragraph number ``paragraph`` is underlined throughout; with ``only``, no other is."""
    return _whole_paragraph(context, path, paragraph, only, _is_underlined, "underlined")


_ALIGNMENTS = {"left": 0, "center": 1, "right": 2, "justify": 3}


@checker
def docx_alignment(context: CheckContext, path: str, paragraph: int, alignment: str) -> CheckResult:
    """Paragraph number ``paragraph`` is aligned ``left``, ``center``, ``right`` or ``justify``
    (no alignment set reads as left)."""
    if alignment not in _ALIGNMENTS:
        raise CheckerError(f"docx_alignment: alignment must be one of {list(_ALIGNMENTS)}")
    paragraphs, failed = _open(context, path)
    chosen, failed = (None, failed) if failed else _pick(paragraphs, paragraph, path)
    if failed:
        return failed
    value = _paragraph_property(chosen, "alignment")
    actual = 0 if value is None else int(value)
    # python-docx reads "both" (justified, as LibreOffice writes it) as 3 and "start"/"end" as
    # left/right; anything else compares by number.
    if actual == _ALIGNMENTS[alignment]:
        return CheckResult.ok(f"paragraph {paragraph} of {path} is aligned {alignment}")
    shown = {number: name for name, number in _ALIGNMENTS.items()}.get(actual, str(value))
    return CheckResult.no(f"paragraph {paragraph} {_preview(chosen)} is aligned {shown}")


@checker
def docx_line_spacing(
    context: CheckContext, path: str, paragraphs: list[int], spacing: float
) -> CheckResult:
    """Each listed paragraph has proportional line spacing ``spacing`` (1.5 = "1.5 lines");
    unset spacing reads as the document default."""
    found, failed = _open(context, path)
    if failed:
        return failed
    wrong = []
    for index in paragraphs:
        chosen, failed = _pick(found, index, path)
        if failed:
            return failed
        value = _paragraph_property(chosen, "line_spacing")
        actual = _default_line_spacing(chosen) if value is None else value
        if not isinstance(actual, float) or abs(actual - spacing) > 0.01:
            shown = f"{actual:g} lines" if isinstance(actual, float) else f"exactly {actual.pt} pt"
            wrong.append(f"{index} ({shown})")
    if wrong:
        return CheckResult.no(f"line spacing is not {spacing:g} in paragraphs {', '.join(wrong)}")
    return CheckResult.ok(f"paragraphs {paragraphs} of {path} have {spacing:g} line spacing")


@checker
def docx_font_size(context: CheckContext, path: str, paragraph: int, points: float) -> CheckResult:
    """Every run of paragraph number ``paragraph`` is ``points`` pt."""
    found, failed = _open(context, path)
    chosen, failed = (None, failed) if failed else _pick(found, paragraph, path)
    if failed:
        return failed
    sizes = _sizes_pt(chosen)
    if sizes and all(size is not None and abs(size - points) < 0.01 for size in sizes):
        return CheckResult.ok(f"paragraph {paragraph} of {path} is {points:g} pt")
    shown = sorted({f"{size:g} pt" if size is not None else "unknown" for size in sizes})
    return CheckResult.no(
        f"paragraph {paragraph} {_preview(chosen)} is {', '.join(shown)}, not {points:g} pt"
    )


# --- .xlsx ---------------------------------------------------------------------------------------


def _sheet_rows(context: CheckContext, path: str, sheet: str) -> list[tuple[Any, ...]] | None:
    import openpyxl

    target = context.path(path)
    if not target.is_file():
        return None
    workbook = openpyxl.load_workbook(str(target), data_only=True, read_only=True)
    try:
        worksheet = workbook[sheet] if sheet else workbook.worksheets[0]
        return [tuple(row) for row in worksheet.iter_rows(values_only=True)]
    finally:
        workbook.close()


@checker
def xlsx_cell(
    context: CheckContext, path: str, cell: str, value: str, sheet: str = ""
) -> CheckResult:
    """A workbook cell (e.g. ``D2``) holds ``value`` (numbers compare as numbers; a formula counts
    by its saved result)."""
    import openpyxl

    target = context.path(path)
    if not target.is_file():
        return CheckResult.no(f"{path} does not exist")
    workbook = openpyxl.load_workbook(str(target), data_only=True, read_only=True)
    try:
        worksheet = workbook[sheet] if sheet else workbook.worksheets[0]
        actual = worksheet[cell].value
    finally:
        workbook.close()
    if actual is not None and same_value(actual, value):
        return CheckResult.ok(f"{cell} = {actual!r}")
    return CheckResult.no(f"{cell} = {actual!r}, expected {value!r}")


def _cell_matches(cell: Any, wanted: str) -> bool:
    if cell is None:
        return False
    if parse_number(str(wanted)) is not None:
        return same_value(cell, wanted)
    return any(
        normalise_text(choice) in normalise_text(str(cell)) for choice in str(wanted).split("|")
    )


@checker
def xlsx_rows(
    context: CheckContext, path: str, rows: list[list[str]], ordered: bool = False, sheet: str = ""
) -> CheckResult:
    """Each expected row (e.g. ``[India, 1450935791]``) is a row of the sheet starting in column
    A; other rows, such as a header, are allowed. Numbers compare as numbers; a text matches a
    cell containing it ("NVIDIA" in "NVIDIA Corporation"), and ``"United States|USA"`` accepts
    either. With ``ordered``, the rows appear in the given order."""
    found = _sheet_rows(context, path, sheet)
    if found is None:
        return CheckResult.no(f"{path} does not exist")
    positions = []
    for expected in rows:
        matches = [
            index
            for index, row in enumerate(found)
            if len(row) >= len(expected)
            and all(_cell_matches(cell, want) for cell, want in zip(row, expected, strict=False))
        ]
        if not matches:
            near = [row[: len(expected)] for row in found if row and row[0] is not None][:6]
            return CheckResult.no(f"no row {expected} in {path}; rows start {near}")
        positions.append(matches[0])
    if ordered and positions != sorted(positions):
        return CheckResult.no(f"the rows of {path} are not in the order {[r[0] for r in rows]}")
    return CheckResult.ok(f"{path} has the rows {[r[0] for r in rows]}")
