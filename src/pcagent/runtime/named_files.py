"""The files a subtask's words, or the words before it, name: shared by the rules that attach,
open or save a file the words mean ("send this file", "open it")."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

#: An e-mail address: "ann@example.test" names no file.
ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
#: A file name with an extension that starts with a letter, maybe after folders.
_FILE_NAME = re.compile(
    r"(?<![\w./@-])((?:[\w-]+/)*[\w-]*[A-Za-z][\w-]*\.[A-Za-z][A-Za-z0-9]{0,4})\b"
)


def file_names(words: str) -> list[str]:
    """The file names ``words`` mention, in order, addresses left out."""
    return _FILE_NAME.findall(ADDRESS.sub(" ", words))


def last_named(texts: Sequence[str], known: Callable[[str], str]) -> str:
    """The path ``known`` gives (a name -> its path in HOME, "" when unknown) for the last file
    name of the last of ``texts`` that names a known one; "" when none does."""
    for text in reversed(texts):
        for name in reversed(file_names(text)):
            path = known(name)
            if path:
                return path
    return ""
