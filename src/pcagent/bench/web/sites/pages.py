"""What every offline website is made of: the request a site sees, the response it gives, the
:class:`Site` record, the shared page layout and HTML pieces, and the loose text matching its search
boxes use.

Pages are deliberately simple (headings, links, tables, forms with labelled fields) so that both
the accessibility tree and a screenshot show them clearly. Every page is a pure function of the
request: no cookies, no sessions, no clock.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field

from pcagent.text import without_accents


@dataclass(frozen=True)
class PageRequest:
    """One request as a site sees it: method, percent-decoded path, query and form fields, and
    whether it came over ``http`` or ``https``."""

    method: str
    path: str
    query: Mapping[str, list[str]] = field(default_factory=dict)
    form: Mapping[str, list[str]] = field(default_factory=dict)
    scheme: str = "http"

    def param(self, name: str) -> str:
        """The first value of a form field, else of a query parameter, stripped; "" if absent."""
        for source in (self.form, self.query):
            values = source.get(name)
            if values:
                return values[0].strip()
        return ""


@dataclass(frozen=True)
class PageResponse:
    status: int
    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Site:
    """One website: its canonical host, the scheme links to it use, and its request handler."""

    host: str
    name: str
    description: str
    scheme: str
    handle: Callable[[PageRequest], PageResponse]
    aliases: tuple[str, ...] = ()

    def url(self, path: str = "/") -> str:
        return f"{self.scheme}://{self.host}{path}"


# --- page layout and pieces ----------------------------------------------------------------------

_STYLE = """
body { font-family: 'DejaVu Sans', sans-serif; margin: 0; color: #1b1b1b; background: #fff; }
header { background: #24415f; padding: 10px 24px; }
header a { color: #fff; font-size: 20px; font-weight: bold; text-decoration: none; }
main { padding: 16px 24px; max-width: 960px; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: 4px 10px; }
label { display: inline-block; min-width: 90px; } .price { font-weight: bold; }
.result { margin-bottom: 14px; } .result cite { color: #2e7d32; font-style: normal; }
.error { color: #b00020; }
"""


def escape(value: object) -> str:
    """``value`` as text safe inside HTML content and quoted attributes."""
    return html.escape(str(value), quote=True)


def page(site_name: str, title: str, body: str, status: int = 200) -> PageResponse:
    """A whole HTML page: ``body`` (HTML) under a header linking to the site's home page."""
    document = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>\n"
        f'<body><header><a href="/">{escape(site_name)}</a></header>\n'
        f"<main>\n{body}\n</main></body></html>\n"
    )
    return PageResponse(status, document.encode())


def not_found(site_name: str, what: str) -> PageResponse:
    """A 404 page saying ``what`` is missing, with a link back to the site's home page."""
    body = (
        f'<h1>Not found</h1><p>{escape(what)}</p><p><a href="/">Back to {escape(site_name)}</a></p>'
    )
    return page(site_name, f"Not found - {site_name}", body, status=404)


def search_form(action: str, name: str, value: str, label: str) -> str:
    """A one-field search box that GETs ``action`` with the query in parameter ``name``."""
    return (
        f'<form action="{escape(action)}" method="get" role="search">'
        f'<input type="text" name="{escape(name)}" value="{escape(value)}" '
        f'aria-label="{escape(label)}" placeholder="{escape(label)}" size="40"> '
        '<button type="submit">Search</button></form>'
    )


def text_field(
    name: str, label: str, value: str | None = None, placeholder: str | None = None
) -> str:
    """A labelled text input (in its own paragraph) whose id and form field name are ``name``;
    ``value`` None leaves the value attribute out."""
    attributes = f'id="{name}" name="{name}"'
    if value is not None:
        attributes += f' value="{escape(value)}"'
    if placeholder is not None:
        attributes += f' placeholder="{escape(placeholder)}"'
    return f'<p><label for="{name}">{escape(label)}</label> <input {attributes}></p>'


def error_list(problems: Iterable[str]) -> str:
    """One error paragraph per problem, for a form that was filled in wrongly."""
    return "".join(f'<p class="error">{escape(problem)}</p>' for problem in problems)


def money(amount: float) -> str:
    """A US dollar amount as shown on every site: ``$1,299.00``."""
    return f"${amount:,.2f}"


# --- text matching -------------------------------------------------------------------------------


def fold(text: str) -> str:
    """Lower case without accents ("Léon" -> "leon"), so that what a person types without
    accents still matches."""
    return without_accents(text).casefold()


def words(text: str) -> list[str]:
    """The folded words of ``text``: an apostrophe joins ("New Year's" -> "new years"), any other
    punctuation separates words."""
    return re.findall(r"[a-z0-9]+", re.sub(r"['’]", "", fold(text)))


def stem(word: str) -> str:
    """``word`` without a plural "s" ("flights" -> "flight"); crude, so apply it to both sides of
    a comparison."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def item_at(
    path: str, pattern: str, items: Collection[str], spelled: Callable[[str], str] = str
) -> str | None:
    """The item a page's ``path`` names, where ``pattern`` (one group: the item's key, as
    ``spelled`` writes it) matches the whole path and the site has that item; else None."""
    match = re.fullmatch(pattern, path)
    key = spelled(match[1]) if match else None
    return key if key is not None and key in items else None


def searched(query: str, texts: Mapping[str, str]) -> list[str]:
    """The keys of ``texts`` whose text :func:`matches` the query, in their order: a site's
    search over its items, each item by the text it is found by."""
    return [key for key, text in texts.items() if matches(query, text)]


def matches(query: str, text: str) -> bool:
    """Every word of the query occurs in the text (a simple site search), ignoring case, accents,
    punctuation and a plural "s"."""
    text_words = {stem(word) for word in words(text)}
    wanted = [stem(word) for word in words(query)]
    return bool(wanted) and all(word in text_words for word in wanted)
