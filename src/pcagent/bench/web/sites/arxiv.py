"""arxiv.org: recent submissions, search, an abstract page and a one-page PDF per paper."""

from __future__ import annotations

import textwrap

from pcagent.bench.web.data import PAPERS
from pcagent.bench.web.pdf import one_page_pdf
from pcagent.bench.web.sites import pages
from pcagent.bench.web.sites.pages import PageRequest, PageResponse, Site, escape

_NAME = "arXiv"


def paper_pdf(paper_id: str) -> bytes:
    """The PDF that arxiv.org serves at /pdf/<paper_id>."""
    paper = PAPERS[paper_id]
    lines = [
        *textwrap.wrap(", ".join(paper["authors"]), 88),
        f"arXiv:{paper_id} [{paper['category']}] submitted {paper['submitted']}",
        "",
        "Abstract",
        *textwrap.wrap(paper["abstract"], 88),
    ]
    return one_page_pdf(paper["title"], lines)


#: The pages of a paper: its abstract, and its PDF.
_ABSTRACT = r"/abs/([0-9]{4}\.[0-9]{4,5})/?"
_PDF = r"/pdf/([0-9]{4}\.[0-9]{4,5})(?:\.pdf)?"


def arxiv_search(query: str) -> list[str]:
    """The ids of the papers arxiv.org/search lists for ``query``, in the order shown: those whose
    title, authors or id hold every word of the query (ignoring case, accents and punctuation),
    newest submission first."""
    found = pages.searched(
        query, {i: f"{p['title']} {' '.join(p['authors'])} {i}" for i, p in PAPERS.items()}
    )
    return _newest_first(found)


def _newest_first(paper_ids: list[str]) -> list[str]:
    return sorted(paper_ids, key=lambda p: (PAPERS[p]["submitted"], p), reverse=True)


def _paper_item(paper_id: str) -> str:
    paper = PAPERS[paper_id]
    return (
        f'<li><a href="/abs/{paper_id}">arXiv:{paper_id}</a> '
        f"<b>{escape(paper['title'])}</b> — {escape(', '.join(paper['authors']))}</li>"
    )


def _arxiv(request: PageRequest) -> PageResponse:
    query = request.param("query") or request.param("q")
    form = pages.search_form("/search", "query", query, "Search arXiv")
    if request.path == "/":
        items = "".join(_paper_item(p) for p in _newest_first(list(PAPERS)))
        body = (
            f"<h1>arXiv.org e-Print archive</h1>{form}<h2>Recent submissions</h2><ul>{items}</ul>"
        )
        return pages.page(_NAME, "arXiv.org e-Print archive", body)
    if request.path.rstrip("/") == "/search":
        found = arxiv_search(query)
        items = "".join(_paper_item(p) for p in found)
        result = f"<ul>{items}</ul>" if found else "<p>Sorry, your query returned no results.</p>"
        return pages.page(_NAME, "Search | arXiv e-print repository", f"{form}{result}")
    if (paper_id := pages.item_at(request.path, _ABSTRACT, PAPERS)) is not None:
        paper = PAPERS[paper_id]
        body = (
            f"{form}<p>{escape(paper['category'])} · Submitted on {escape(paper['submitted'])}</p>"
            f"<h1>{escape(paper['title'])}</h1>"
            f"<p>Authors: {escape(', '.join(paper['authors']))}</p>"
            f"<h2>Abstract</h2><blockquote>{escape(paper['abstract'])}</blockquote>"
            f'<p><a href="/pdf/{paper_id}">Download PDF</a></p>'
        )
        return pages.page(_NAME, f"[{paper_id}] {paper['title']}", body)
    if (pdf := pages.item_at(request.path, _PDF, PAPERS)) is not None:
        return PageResponse(
            200,
            paper_pdf(pdf),
            "application/pdf",
            (("Content-Disposition", f'attachment; filename="{pdf}.pdf"'),),
        )
    return pages.not_found(_NAME, f"No paper at {request.path}.")


ARXIV_SITE = Site(
    "arxiv.org",
    _NAME,
    "Research paper archive",
    "https",
    _arxiv,
    aliases=("www.arxiv.org", "export.arxiv.org"),
)
