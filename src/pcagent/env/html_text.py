"""The visible text of an HTML mail body, as the mail client's interface shows it to the agents
and as the benchmark's mail checks read it: one reading, so both see the same lines."""

from __future__ import annotations

import re
from collections.abc import Collection
from html.parser import HTMLParser

#: Elements whose content is never shown.
HIDDEN = frozenset({"style", "script", "head"})
#: Elements that start and end a line.
BLOCKS = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "blockquote"})


class _VisibleText(HTMLParser):
    def __init__(self, hidden: Collection[str], blocks: Collection[str]) -> None:
        super().__init__(convert_charrefs=True)
        self._hidden_tags, self._blocks = hidden, blocks
        self._parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._hidden_tags:
            self._hidden += 1
        elif tag in self._blocks:
            self._parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._hidden_tags:
            self._hidden = max(0, self._hidden - 1)
        elif tag in self._blocks:
            self._parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self._parts.append(data)

    def text(self) -> str:
        lines = (" ".join(line.split()) for line in "".join(self._parts).splitlines())
        return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def visible_text(
    html: str, hidden: Collection[str] = HIDDEN, blocks: Collection[str] = BLOCKS
) -> str:
    """The text a reader sees: ``hidden`` elements left out, each of ``blocks`` on lines of its
    own, runs of white space folded and at most one empty line in a row."""
    reader = _VisibleText(hidden, blocks)
    reader.feed(html)
    reader.close()
    return reader.text()
