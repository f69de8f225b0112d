"""What the browser actions see of a page, read in one DevTools call, and how they pick from it.

One script, run in the page, lists the page's clickable targets (links and buttons) and form
fields with the names a person would use for them: a link's visible text, a field's label,
placeholder or aria-label. Only what is rendered counts, so a model is never offered a hidden
element. The same script, given an index, hands back that element itself, so the element acted
on is the one described, found by the same rules.

Picking by name (:func:`choose`) is plain Python: exact text first, then the same text in any
case, then text containing the words; several different matches are an error that lists them,
never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Protocol, TypeVar

from pcagent.errors import InvalidActionError
from pcagent.text import comparable, shortened, single_spaced


class _Shown(Protocol):
    def shown(self) -> str: ...


T = TypeVar("T", bound=_Shown)

#: Bounds of what :func:`describe` shows an agent.
TEXT_LIMIT = 6000
LINK_LIMIT = 40
BUTTON_LIMIT = 20
FIELD_LIMIT = 20
NAME_LIMIT = 80

# The argument is {list: "targets" | "fields", index: number | null}. Without an index it
# describes the page; with one it returns that element of the list.
PAGE_SCRIPT = """
(request) => {
  const clean = (text) => (text || '').replace(/\\s+/g, ' ').trim();
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const byIds = (ids) => clean((ids || '').split(/\\s+/)
    .map((id) => (id && document.getElementById(id)?.innerText) || '').join(' '));
  const isInput = (el) => el.tagName === 'INPUT';
  const targetText = (el) => clean(el.innerText)
    || (isInput(el) ? clean(el.value) : '')
    || clean(el.getAttribute('aria-label'))
    || byIds(el.getAttribute('aria-labelledby'))
    || clean(el.querySelector && el.querySelector('img[alt]')?.alt)
    || clean(el.getAttribute('title'));
  const fieldNames = (el) => {
    // A label that wraps its control also holds the control's own text (a list's options).
    const labelText = (label) => {
      const copy = label.cloneNode(true);
      copy.querySelectorAll('input, select, textarea').forEach((inner) => inner.remove());
      return clean(copy.textContent);
    };
    const names = [...(el.labels || [])].map(labelText);
    names.push(clean(el.getAttribute('aria-label')), byIds(el.getAttribute('aria-labelledby')),
      clean(el.getAttribute('placeholder')), clean(el.getAttribute('title')),
      clean(el.getAttribute('name')));
    return [...new Set(names.filter(Boolean))];
  };
  const notTyped = ['hidden', 'submit', 'button', 'reset', 'image'];
  const lists = {
    targets: [...document.querySelectorAll(
      'a[href], [role=link], button, input[type=submit], input[type=button], '
      + 'input[type=reset], input[type=image], [role=button], summary')],
    fields: [...document.querySelectorAll('input, textarea, select')]
      .filter((el) => !notTyped.includes(el.type)),
  };
  if (request.index !== null) return lists[request.list][request.index] || null;
  const targets = [];
  lists.targets.forEach((el, index) => {
    if (!shown(el)) return;
    const link = el.tagName === 'A';
    targets.push({index, text: targetText(el), href: link ? el.href : '',
                  kind: link || el.getAttribute('role') === 'link' ? 'link' : 'button'});
  });
  const fields = [];
  lists.fields.forEach((el, index) => {
    if (!shown(el)) return;
    const value = el.tagName === 'SELECT'
      ? clean(el.selectedOptions[0]?.text) : (['checkbox', 'radio'].includes(el.type)
        ? (el.checked ? 'checked' : 'unchecked') : el.value);
    fields.push({index, names: fieldNames(el), type: el.tagName === 'INPUT'
      ? el.type : el.tagName.toLowerCase(), value});
  });
  return {url: location.href, title: document.title,
          text: document.body ? document.body.innerText : '', targets, fields};
}
"""

# Where the page is and a fingerprint of what it shows: a change of any of them after a click
# or Enter is the page changing (a navigation, a new result list, an opened section).
SIGNATURE_SCRIPT = """
() => {
  const text = document.body ? document.body.innerText : '';
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return [location.href, document.title, text.length, hash];
}
"""


@dataclass(frozen=True)
class Target:
    """A link or button: what it reads and, for a link, where it leads."""

    index: int
    text: str
    href: str
    kind: str

    def shown(self) -> str:
        text = shortened(self.text, NAME_LIMIT) or "(no text)"
        return f'"{text}" -> {self.href}' if self.href else f'"{text}"'


@dataclass(frozen=True)
class Field:
    """A form field with every name it goes by (label, aria-label, placeholder, title, name)."""

    index: int
    names: tuple[str, ...]
    type: str
    value: str

    def shown(self) -> str:
        names = (
            " / ".join(f'"{shortened(name, NAME_LIMIT)}"' for name in self.names[:2])
            or "(no label)"
        )
        value = shortened(self.value.replace("\n", "\\n"), NAME_LIMIT)
        return f'{names} ({self.type}) = "{value}"'


@dataclass(frozen=True)
class PageView:
    url: str
    title: str
    text: str
    targets: tuple[Target, ...]
    fields: tuple[Field, ...]

    @classmethod
    def from_script(cls, data: dict[str, object]) -> PageView:
        """The view from :data:`PAGE_SCRIPT`'s answer (plain JSON values)."""
        targets = data.get("targets")
        fields = data.get("fields")
        return cls(
            url=str(data.get("url", "")),
            title=str(data.get("title", "")),
            text=str(data.get("text", "")),
            targets=tuple(
                Target(int(t["index"]), str(t["text"]), str(t["href"]), str(t["kind"]))
                for t in (targets if isinstance(targets, list) else [])
            ),
            fields=tuple(
                Field(int(f["index"]), tuple(map(str, f["names"])), str(f["type"]), str(f["value"]))
                for f in (fields if isinstance(fields, list) else [])
            ),
        )


def describe(view: PageView) -> str:
    """The page as an agent reads it: title, address, visible text (bounded), then its links,
    buttons and fields as short lists."""
    text = normalise_lines(view.text)
    if len(text) > TEXT_LIMIT:
        text = text[:TEXT_LIMIT] + f"\n… ({len(text) - TEXT_LIMIT} more characters)"
    parts = [f"Title: {view.title}", f"Address: {view.url}", "Text:", text or "(none)"]
    links = [t for t in view.targets if t.kind == "link"]
    buttons = [t for t in view.targets if t.kind == "button"]
    for heading, items, limit in (
        ("Links", links, LINK_LIMIT),
        ("Buttons", buttons, BUTTON_LIMIT),
        ("Fields", view.fields, FIELD_LIMIT),
    ):
        if items:
            more = f" (first {limit} of {len(items)})" if len(items) > limit else ""
            parts.append(f"{heading}{more}:")
            parts.extend(f"- {item.shown()}" for item in items[:limit])
    return "\n".join(parts)


def normalise_lines(text: str) -> str:
    """Rendered text with runs of blank lines and spaces squeezed (innerText keeps layout gaps)."""
    lines = (re.sub(r"[ \t\u00a0]+", " ", line).strip() for line in text.splitlines())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def choose(
    wanted: str,
    candidates: Sequence[T],
    names: Callable[[T], Sequence[str]],
    identity: Callable[[T], object],
    what: str,
    whats: str,
    closest: bool = False,
    word_starts: bool = False,
) -> T:
    """The one candidate named ``wanted``: exact name, then any case, then containing it, then
    (with ``word_starts``) the one whose name, of :data:`WORD_START_MINIMUM` characters or
    more, starts a word of it, then (with ``closest``) the one sharing clearly the longest run
    of text with it (:func:`closest_by_shared_text`). ``what`` and ``whats`` name one candidate
    and several in the errors. Why ``word_starts``, for a form's fields: a program filled a
    booking form's "Departure Date" where the field reads "Depart" (pc25, 2026-12-03), and
    the step failed on the first field.

    Candidates with the same ``identity`` (two links to one address) count as one. Raises
    :class:`InvalidActionError` listing the matches when several different ones match at the
    first level that has any, and listing what there is when none does.
    """
    query = single_spaced(wanted)
    folded = query.casefold()
    tests: tuple[Callable[[str], bool], ...] = (
        lambda name: name == query,
        lambda name: name.casefold() == folded,
        lambda name: folded in name.casefold(),
    )
    if word_starts:
        tests = (*tests, lambda name: _starts_a_word(name.casefold(), folded))
    for test in tests:
        matches = [c for c in candidates if any(test(single_spaced(n)) for n in names(c))]
        distinct: dict[object, T] = {}
        for candidate in matches:
            distinct.setdefault(identity(candidate), candidate)
        if len(distinct) == 1:
            return matches[0]
        if len(distinct) > 1 and word_starts and test is tests[-1]:
            best = _most_words_started(folded, list(distinct.values()), names)
            if best is not None:
                return best
        if distinct:
            listed = "; ".join(c.shown() for c in list(distinct.values())[:10])
            raise InvalidActionError(
                f"{len(distinct)} {whats} match {wanted!r}: {listed}. Use the full text of one"
            )
    if closest:
        near = closest_by_shared_text(wanted, candidates, names, identity)
        if near is not None:
            return near
    available = [c.shown() for c in candidates if any(names(c))]
    shown = "; ".join(available[:30]) + ("; …" if len(available) > 30 else "")
    raise InvalidActionError(
        f"no {what} on this page reads {wanted!r}"
        + (f"; the page has: {shown}" if available else f"; the page has no {whats}")
    )


#: Shortest name taken where it starts a word of the words asked for ("Depart", "Return").
WORD_START_MINIMUM = 4


def _starts_a_word(name: str, words: str) -> bool:
    """Whether ``name`` (its letters and digits, at least :data:`WORD_START_MINIMUM` of them)
    starts a word of ``words``."""
    if len(name.strip()) < WORD_START_MINIMUM:
        return False
    return re.search(rf"(?<!\w){re.escape(name.strip())}", words) is not None


def _most_words_started(
    words: str, candidates: Sequence[T], names: Callable[[T], Sequence[str]]
) -> T | None:
    """The one candidate whose names start clearly more of ``words`` than any other's: asked
    for a booking form's "Return date", the departure field matched by its ``name`` attribute
    "date" and the return field by its label "Return" (a rewording of pc25, 2026-12-05), and
    the step failed on two fields. Counted as the words' letters a candidate's names start,
    so the longer word started wins; None where the best two are level."""

    def started(candidate: T) -> int:
        return sum(
            len(word)
            for word in words.split()
            if any(
                _starts_a_word(single_spaced(name).casefold(), word) for name in names(candidate)
            )
        )

    ranked = sorted(candidates, key=started, reverse=True)
    if len(ranked) > 1 and started(ranked[0]) == started(ranked[1]):
        return None
    return ranked[0]


#: Shortest run of text a link must share with the words asked for to be taken for them, and
#: how much longer it must be than any other link's run.
SHARED_MINIMUM = 8
SHARED_MARGIN = 4


def closest_by_shared_text(
    wanted: str,
    candidates: Sequence[T],
    names: Callable[[T], Sequence[str]],
    identity: Callable[[T], object],
) -> T | None:
    """The candidate whose name shares clearly the longest run of characters with ``wanted``:
    a small model asks for a result's whole line ("arXiv:2410.02345 A Multimodal Agent ... —
    authors") where the link reads only part of it, or adds the page's title to a link's words.
    The run must be at least :data:`SHARED_MINIMUM` characters and half of the name, start the
    wanted words or be half of them, and be :data:`SHARED_MARGIN` longer than any other
    candidate's (a name found whole counts that much more); None otherwise."""
    folded = comparable(wanted)
    best: dict[object, tuple[int, T]] = {}
    for candidate in candidates:
        for name in names(candidate):
            text = comparable(name)
            if not text or not folded:
                continue
            run = SequenceMatcher(None, folded, text, autojunk=False).find_longest_match(
                0, len(folded), 0, len(text)
            )
            # at least half of the link's text, and either the words' start or half of them: a
            # site's name after a title ("... - Offline Maps") is the page's, not the link meant
            if run.size < SHARED_MINIMUM or 2 * run.size < len(text):
                continue
            if run.a != 0 and 2 * run.size < len(folded):
                continue
            # a name found whole in the words outranks one that shares as much only in part
            # (two result ids differing in their last digit)
            length = run.size + (SHARED_MARGIN if run.size == len(text) else 0)
            key = identity(candidate)
            if key not in best or best[key][0] < length:
                best[key] = (length, candidate)
    ranked = sorted(best.values(), key=lambda pair: -pair[0])
    if not ranked or (len(ranked) > 1 and ranked[0][0] - ranked[1][0] < SHARED_MARGIN):
        return None
    return ranked[0][1]
