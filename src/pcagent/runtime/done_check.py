"""Checking a subtask's ``done`` against the desktop instead of believing it.

A small model says ``done`` when it has typed something, or when it has given up on a step; the
run then ends "finished" with nothing achieved. Before a subtask counts as done:

1. every value it must report has been reported;
2. where the subtask asks for a named file to be saved or written ("save it as report.docx",
   or "save it as report", whatever extension the application gives it), the file exists in HOME and no open window holds unsaved changes to it — read off the disk
   and the applications, not asked of a model;
3. where a calculator subtask writes out an expression ("compute 12 * 7 + 5"), its value is on
   the screen (the model typed the expression and never pressed =, and said done);
4. otherwise, when the step before ``done`` was an application action that read its effect back
   and found it done, that check supports it;
5. otherwise, when a Progress agent keeps the subtask's account, its judgement of the ``done``
   step must say the subtask is complete.

A refused ``done`` goes back to the Decision agent with the reason.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from pcagent.env.protocol import UnsavedDocument
from pcagent.perception.listing import parse_listing

#: A file name with an extension that starts with a letter ("report.docx", "a_b-2.py").
_FILE_NAME = re.compile(
    r"(?<![\w.])((?:[\w\-]+/)*[\w\-]*[A-Za-z][\w\-]*\.[A-Za-z][A-Za-z0-9]{0,4})\b"
)
#: Words with which a subtask asks for a file to end up on disk.
_WRITE_WORDS = re.compile(r"\b(save|saved|saving|write|written|create|store|export)\b", re.I)


def files_to_save(description: str) -> list[str]:
    """The file names (no folder) a subtask asks to be saved or written; [] when it asks for
    none."""
    if not _WRITE_WORDS.search(description):
        return []
    names = [PurePosixPath(match).name for match in _FILE_NAME.findall(description)]
    return list(dict.fromkeys(names))


#: "save it as stocks", "save the document as Report": a name without an extension (the
#: application adds its own), followed by no dot or word character.
_SAVED_AS = re.compile(
    r"\b(?:save|saved|saving|store)\b[^.;]*?\bas\s+[\"'“]?([A-Za-z0-9][\w\-]*)[\"'”]?(?![\w.\-])",
    re.I,
)


def names_to_save(description: str) -> list[str]:
    """The names without an extension a subtask asks a file to be saved as ("save it as
    stocks in the Documents folder": "stocks"); the application picks the extension."""
    return list(dict.fromkeys(_SAVED_AS.findall(description)))


#: "save it", "save the document": saving what is open, under its own name.
_SAVE = re.compile(r"\bsave\b", re.I)


def saving_asked(description: str) -> bool:
    """Whether the subtask asks for a file to end up on disk: a named one, with or without an
    extension, or what is open ("... and save it")."""
    return bool(
        _SAVE.search(description) or files_to_save(description) or names_to_save(description)
    )


def _stem(name: str) -> str:
    return PurePosixPath(name).stem.casefold()


def unsaved_in(name: str, unsaved: Sequence[UnsavedDocument]) -> bool:
    """Whether an open window holds unsaved changes to the file called ``name``."""
    for document in unsaved:
        if document.document and PurePosixPath(document.document).name == name:
            return True
        if not document.document and name in document.title:
            return True
    return False


def file_problem(
    description: str, documents: Mapping[str, str], unsaved: Sequence[UnsavedDocument]
) -> str | None:
    """Why the files the subtask asks to save are not saved; None when they are (or it names
    none). ``documents`` maps the file names in HOME to their paths."""
    for name in files_to_save(description):
        if name not in documents:
            return f"{name} is not saved anywhere in HOME yet"
        if unsaved_in(name, unsaved):
            return f"{name} has unsaved changes in its window; save it first"
    stems = names_to_save(description)
    for stem in stems:
        saved = [name for name in documents if _stem(name) == stem.casefold()]
        if not saved:
            return f"no file named {stem} (with any extension) is saved in HOME yet"
        if any(unsaved_in(name, unsaved) for name in saved):
            return f"{stem} has unsaved changes in its window; save it first"
    if not stems and not files_to_save(description) and _SAVE.search(description) and unsaved:
        # "make the title bold and save it": what is open must be saved
        titles = ", ".join(document.title for document in unsaved)
        return f"{titles} has unsaved changes; save it first"
    return None


#: An arithmetic expression written out in a subtask: numbers joined by at least one operator.
_EXPRESSION = re.compile(
    r"\(?\s*-?\d+(?:\.\d+)?\s*\)?(?:\s*[-+*/×÷x]\s*\(?\s*-?\d+(?:\.\d+)?\s*\)?)+"
)
_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def _arithmetic(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _arithmetic(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_arithmetic(node.operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_arithmetic(node.left), _arithmetic(node.right))
    raise ValueError("not plain arithmetic")


def written_expression(text: str) -> str | None:
    """The one arithmetic expression ``text`` writes out ("compute 12 x 7 + 5": "12 x 7 + 5");
    None when there is none or several."""
    found = [m.group(0).strip() for m in _EXPRESSION.finditer(text)]
    # Not dates, ranges, resolutions or phone numbers: "2025-05-01", "1/5/2025", "1920x1080".
    found = [
        f
        for f in found
        if re.search(r"\d\s*[-+*/×÷x]\s*\(?\s*-?\d", f)
        and not re.search(r"\d-\d|\d/\d+/\d|\dx\d", f)
    ]
    return found[0] if len(found) == 1 else None


def keyed_expression(written: str) -> str:
    """``written`` with the operators a calculator's keys take ("12 x 7 ÷ 2": "12 * 7 / 2")."""
    return re.sub(r"(?<=[\d)\s])[x×](?=[\s\d(])", "*", written).replace("÷", "/")


def expression_value(text: str) -> tuple[str, str] | None:
    """The one arithmetic expression ``text`` writes out ("compute 12 * 7 + 5") and its value
    as a calculator shows it ("89", "2.5"); None when there is none, several, or it cannot be
    computed (a division by zero)."""
    written = written_expression(text)
    if written is None:
        return None
    try:
        value = _arithmetic(ast.parse(keyed_expression(written), mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError):
        return None
    shown = str(int(value)) if value == int(value) else f"{value:.10g}"
    return written, shown


def display_problem(description: str, listing: str) -> str | None:
    """Why a calculator subtask that writes out an expression is not done: its value is not on
    the screen (the expression typed but never evaluated, or the display cleared). None when
    it is, or when the subtask writes out no expression."""
    found = expression_value(description)
    if found is None:
        return None
    written, shown = found
    # What the marks show (labels and values), not their numbers and coordinates, and not the
    # keys: the calculator's "5" key would otherwise pass for a result of 5.
    visible = [
        text
        for mark in parse_listing(listing)
        if "button" not in mark.role and mark.role != "toggle"
        for text in (mark.label, mark.value)
    ]
    digits_apart = re.sub(r"(?<=\d)[\u2009\u202f\u00a0 ,](?=\d{3}\b)", "", " ".join(visible))
    numbers = set(re.findall(r"-?\d+(?:\.\d+)?", digits_apart))
    if shown in numbers:
        return None
    return (
        f"the calculator does not show the value of {written} yet; evaluate it "
        "(calculator_evaluate, or type it and press Enter)"
    )


def done_problem(
    description: str,
    missing_outputs: Sequence[str],
    documents: Mapping[str, str] | None,
    unsaved: Sequence[UnsavedDocument],
    progress_completed: bool | None,
    *,
    verified_effect: str = "",
    calculator_listing: str | None = None,
) -> str | None:
    """Why ``done`` is not accepted for a subtask; None to accept it. ``documents`` is None
    when the desktop has no HOME to look at, ``progress_completed`` None without a Progress
    agent; ``verified_effect`` the verified application action just before, if any;
    ``calculator_listing`` the screen's listing when the subtask works in the calculator."""
    if missing_outputs:
        return f"report {', '.join(missing_outputs)} with an answer action first"
    if documents is not None and (files_to_save(description) or names_to_save(description)):
        return file_problem(description, documents, unsaved)
    if documents is not None and saving_asked(description):
        # only "save it": unsaved changes say no, no unsaved changes do not say the rest is done
        problem = file_problem(description, documents, unsaved)
        if problem is not None:
            return problem
    if calculator_listing is not None:
        problem = display_problem(description, calculator_listing)
        if problem is not None:
            return problem
    if verified_effect:
        return None
    if progress_completed is False:
        return "the account of the subtask says it is not complete; finish what remains"
    return None
