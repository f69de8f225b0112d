"""The names an extraction asks about that the text it reads never writes.

Why: asked for the sights of two cities, the 1.5B planner searched once for both, read a page
about one, extracted "the sights to visit in Tokyo and Kyoto" from it, and wrote Tokyo's sights
alone into the document; every step's check passed and the run said "finished" (a rewording of
pc20, 2026-12-04). Asked for a film's running time, it extracted "the running time of Copper
Sky", an example's film, from the page of the film asked for (a rewording of pc11, the same
day). The description is the model's; that a name in it stands nowhere in the text is in what
was read, so the extraction fails before its model is asked, and the run re-plans.

A name is a capitalised word of the description that is not its first, not part of a path, a
file's name or a slot, not written all in capitals (an abbreviation names a kind as often as a
thing: "the PDF link", "the URL"), not an application's name ("the time in Mousepad") nor a
folder of HOME ("the memo in the Documents folder"); the text writes it when one of its words
begins with the name's first four letters ("Labour Day" on a page of "Labor Day"). Of the 51
extractions recorded on this machine's runs (2026-12-05), the two above were the only ones to
fail so; the gold programs' descriptions name films, countries and people that the texts they
read hold.
"""

from __future__ import annotations

import re

from pcagent.applications import application_words
from pcagent.env.home_template import FOLDERS
from pcagent.text import word_written

#: Characters of a path, a file's name or a slot: such a word names no thing asked about.
_NOT_A_NAME = re.compile(r"[/._{}@]")


def names_unread(what: str, text: str) -> list[str]:
    """The names ``what`` asks about that ``text`` never writes, each once, in order."""
    missing: list[str] = []
    for token in what.split()[1:]:
        name = token.strip(",;:!?()[]\"'.")
        if _NOT_A_NAME.search(name) or len(name) < 3 or not name[0].isupper() or name.isupper():
            continue
        if name.casefold() in application_words() or name in FOLDERS or name in missing:
            continue
        if not word_written(name, [text]):
            missing.append(name)
    return missing
