"""What a person may ask an application to leave done at the end of a task, and which skills
do it.

Why: each skill checks its own effect (the file saved holds the text, the alarm is listed),
so a program that leaves out part of what was asked ends with every check passed: asked to
download a paper and type its abstract into a document, the 1.5B planner read the paper's page
and saved the abstract, the download left out, and the run said "finished" (two rewordings of
pc10, 2026-12-03). Whether the instruction asks for an application at all is read already
(:mod:`pcagent.agents.named_apps`); these are the ends one application can be asked for,
said as the options of one question a model chooses among
(:mod:`pcagent.agents.left_out_effects`): a choice between a few ends reads better for the
small model than "yes" or "no" to one of them, which it said to whatever the instruction
mentioned (docs/agents.md).

An end is made when, for each of its ``needs``, the program calls one of the skills named
there; the first end of each application needs nothing (the application only looked at).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class End:
    """One end an application may be asked for, and the skills that make it."""

    words: str
    #: Each entry: skills of which the program calls one.
    needs: tuple[tuple[str, ...], ...] = ()

    def made(self, called: set[str]) -> bool:
        """Whether skills ``called`` make this end."""
        return all(called & set(alternatives) for alternatives in self.needs)

    def missing(self, called: set[str]) -> tuple[str, ...]:
        """The skills, one of each need not met, that would make it."""
        return tuple(
            skill
            for alternatives in self.needs
            if not called & set(alternatives)
            for skill in alternatives
        )


#: Per application (its name in the catalog): how a question names it, and its ends.
ENDS: dict[str, tuple[str, tuple[End, ...]]] = {
    "text_editor": (
        "the text editor",
        (
            End("a file only opened or read, nothing saved"),
            End("a plain-text file written or changed, and saved", (("write_text_file",),)),
        ),
    ),
    "writer": (
        "the word processor",
        (
            End("a document only opened or read, nothing saved"),
            End("a new document written and saved", (("write_document",),)),
            End("a document's paragraphs formatted and saved", (("format_paragraphs",),)),
        ),
    ),
    "mail": (
        "the mail client",
        (
            End("mails only read, nothing sent or saved"),
            End("an e-mail sent", (("send_mail",),)),
            End("a received mail's attachment saved into a folder", (("save_attachment",),)),
            End(
                "a received mail's attachment saved, and an e-mail sent",
                (("save_attachment",), ("send_mail",)),
            ),
        ),
    ),
    "browser": (
        "the web browser",
        (
            End("web pages only searched or read"),
            End("a file downloaded from a web page", (("follow_link",),)),
        ),
    ),
    "clock": (
        "the clock application",
        (
            End("an alarm set", (("set_alarm",),)),
            End("a city added to the world clocks", (("add_world_clock",),)),
            End("an alarm set and a city added", (("set_alarm",), ("add_world_clock",))),
        ),
    ),
    "file_manager": (
        "the file manager",
        (
            End("a file only opened or a folder looked at, nothing moved"),
            End("files moved or copied into a folder", (("move_files",),)),
            End("a new, empty folder made", (("make_folder", "move_files"),)),
        ),
    ),
    "spreadsheet": (
        "the spreadsheet",
        (
            End("a workbook only opened or read, nothing saved"),
            End("values written into cells and saved", (("fill_cells", "sort_sheet"),)),
        ),
    ),
}
