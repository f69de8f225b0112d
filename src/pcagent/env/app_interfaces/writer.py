"""writer_read, writer_insert and writer_format on the text document in front (see
:mod:`pcagent.env.app_interfaces.office`): the requests sent to LibreOffice, and the check that
what LibreOffice reads back is what the action asked for."""

from __future__ import annotations

from typing import Any

from pcagent.action_handlers import handles
from pcagent.app_actions import WriterFormat, WriterInsert, WriterRead
from pcagent.env.app_interfaces.office_handle import OfficeDocuments
from pcagent.env.observation import ActionResult
from pcagent.errors import AppInterfaceError

#: Characters of a paragraph shown in listings and messages.
PREVIEW = 60
#: Characters of a whole document listing (writer_read, writer_open).
LISTING_LIMIT = 8000
#: What ends a listing cut at :data:`LISTING_LIMIT` (its paragraph count is then no bound).
LISTING_CUT = " [...]"


def paragraph_listing(paragraphs: list[str]) -> str:
    """Numbered paragraphs, one a line ("0: Title"), as the agent refers to them."""
    lines = [f"{number}: {text}" for number, text in enumerate(paragraphs)]
    listing = "\n".join(lines)
    if len(listing) > LISTING_LIMIT:
        listing = listing[:LISTING_LIMIT] + LISTING_CUT
    return listing


def _preview(text: str) -> str:
    return repr(text if len(text) <= PREVIEW else text[:PREVIEW] + "...")


@handles(WriterRead)
def read_paragraphs(interface: OfficeDocuments, action: WriterRead) -> ActionResult:
    answer = interface.on_document("writer_read", "text")
    return ActionResult(
        ok=True,
        message=f"{answer['title']}: {len(answer['paragraphs'])} paragraphs",
        output=paragraph_listing(answer["paragraphs"]),
        verified=True,
    )


@handles(WriterInsert)
def _insert(interface: OfficeDocuments, action: WriterInsert) -> ActionResult:
    answer = interface.on_document(
        "writer_insert", "text", text=action.text, where=action.where, paragraph=action.paragraph
    )
    if answer["paragraphs"] != answer["expected"]:
        raise AppInterfaceError(
            "the document does not read back as expected after the insertion: "
            + paragraph_listing(answer["paragraphs"])[:500]
        )
    place = {
        "end": "at the end",
        "after": f"after paragraph {action.paragraph}",
        "before": f"before paragraph {action.paragraph}",
        "replace": f"in place of paragraph {action.paragraph}",
    }[action.where]
    added = action.text.count("\n") + 1
    return ActionResult(
        ok=True,
        message=f"inserted {added} paragraph(s) {place} of {answer['title']} (not saved yet)",
        output=paragraph_listing(answer["paragraphs"]),
        verified=True,
    )


def _wanted(action: WriterFormat) -> dict[str, Any]:
    """The properties the action sets, as the worker reads them back."""
    wanted = {
        name: getattr(action, name)
        for name in ("bold", "italic", "underline", "alignment", "line_spacing", "font_size")
        if getattr(action, name) is not None
    }
    return wanted


@handles(WriterFormat)
def _format(interface: OfficeDocuments, action: WriterFormat) -> ActionResult:
    wanted = _wanted(action)
    changes = {**wanted, "size_step": action.size_step}
    if action.size_step:
        # The sizes before the step are needed to check it: read them first.
        sizes = _sizes(interface, action)
    answer = interface.on_document(
        "writer_format",
        "text",
        paragraphs=list(action.paragraphs),
        matching=action.matching,
        changes=changes,
    )
    wrong = []
    for found in answer["formats"]:
        expected = dict(wanted)
        if action.size_step:
            expected["font_size"] = sizes.get(found["paragraph"])
        for name, value in expected.items():
            actual = found[name]
            same = (
                isinstance(actual, int | float) and abs(float(actual) - float(value)) < 0.01
                if isinstance(value, float) and not isinstance(value, bool)
                else actual == value
            )
            if not same:
                wrong.append(f"paragraph {found['paragraph']} {name} is {actual}, not {value}")
    if wrong:
        raise AppInterfaceError("the format did not take: " + "; ".join(wrong))
    shown = ", ".join(f"{name}={value}" for name, value in wanted.items())
    if action.size_step:
        shown = ", ".join(filter(None, (shown, f"one size {action.size_step}")))
    numbers = [found["paragraph"] for found in answer["formats"]]
    output = "\n".join(
        f"{found['paragraph']}: {_preview(found['text'])} bold={found['bold']} "
        f"italic={found['italic']} underline={found['underline']} size={found['font_size']} "
        f"align={found['alignment']} spacing={found['line_spacing']}"
        for found in answer["formats"]
    )
    return ActionResult(
        ok=True,
        message=f"paragraphs {numbers} of {answer['title']}: {shown} (not saved yet)",
        output=output,
        verified=True,
    )


def _sizes(interface: OfficeDocuments, action: WriterFormat) -> dict[int, float]:
    """The size each chosen paragraph will have after the size step, from its size now."""
    from pcagent.env.office_writer_actions import next_size

    answer = interface.on_document(
        "writer_format",
        "text",
        paragraphs=list(action.paragraphs),
        matching=action.matching,
        changes={},
    )
    sizes = {}
    for found in answer["formats"]:
        if found["font_size"] == "mixed":
            raise AppInterfaceError(
                f"paragraph {found['paragraph']} has mixed font sizes; give font_size instead"
            )
        sizes[found["paragraph"]] = next_size(float(found["font_size"]), action.size_step or "")
    return sizes
