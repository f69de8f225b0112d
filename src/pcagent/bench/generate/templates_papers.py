"""Templates for papers on the offline arxiv.org: a paper found by its title and its PDF
downloaded, and a paper's abstract written into a new document.

Why: downloading is a browser skill of its own (``follow_link`` on a file link saves the file
in Downloads), and no training program downloaded anything; asked to download a paper, the
1.5B planner searched and stopped, or read a PDF that was never saved. A paper is found by a
web search for its title, its result followed by the title. (arxiv.org's own search form is
left out: its results link a paper by its number, which no instruction gives, so the program
could not name the link to follow; since 2026-12-02 a third template searches arxiv.org itself
and follows a result by its place, ``follow_result``.)
"""

from __future__ import annotations

from itertools import pairwise

from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.vocabulary import DOCUMENT_STEMS
from pcagent.bench.tasks import ReferenceStep, SubGoal
from pcagent.bench.web.data import PAPERS
from pcagent.bench.web.sites.arxiv import arxiv_search

#: The papers no built-in task downloads or finds by a search ("Attention Is All You Need",
#: and the three a search for "multimodal agent" lists).
PAPER_IDS: tuple[str, ...] = tuple(
    sorted(
        paper_id
        for paper_id, paper in PAPERS.items()
        if paper_id != "1706.03762" and "multimodal agent" not in paper["title"].lower()
    )
)
#: The link of a paper's page that downloads its PDF (the offline arxiv.org's, as the real one).
DOWNLOAD_LINK = "Download PDF"
SITE = "arxiv.org"


class PaperFound(TemplateAttributes):
    paper_id: str
    title: str

    @property
    def download(self) -> str:
        """Where the browser saves the paper's PDF (a path in HOME)."""
        return f"Downloads/{self.paper_id}.pdf"


def _draw_paper(source: Draw) -> tuple[str, str]:
    paper_id = source.rng.choice(PAPER_IDS)
    return paper_id, PAPERS[paper_id]["title"]


def _to_paper(a: PaperFound) -> list[ProgramStep]:
    """The steps that end on the paper's page: a web search for its title, then the result
    whose link reads the title."""
    return [
        programs.call("s1", "web_search", query=a.title),
        programs.call("s2", "follow_link", text=a.title),
    ]


def _downloaded(a: PaperFound, slot: Slot, final: bool) -> list[SubGoal]:
    """The paper's page visited, then its PDF in Downloads."""
    visited = parts.node(
        slot,
        "visited",
        "web_visited",
        {"host": SITE, "path_prefix": f"/abs/{a.paper_id}"},
        final=False,
        description=f'the browser opened the page of "{a.title}"',
    )
    downloaded = parts.node(
        slot,
        "downloaded",
        "file_downloaded",
        {"name": f"{a.paper_id}.pdf"},
        after=[visited.id],
        final=final,
        description=f"{a.paper_id}.pdf is in Downloads",
    )
    return [visited, downloaded]


def _references(a: PaperFound) -> tuple[list[ReferenceStep], list[ReferenceStep]]:
    """The GUI and the application-action ways to the paper's page and its download."""
    address = f"https://{SITE}/abs/{a.paper_id}"
    return (
        [
            gui.act("open_app", app="browser"),
            gui.act("hotkey", keys=["ctrl", "l"]),
            gui.act("type", text=address + "\n"),
            gui.wait_for(a.title),
            gui.click(DOWNLOAD_LINK, "link"),
            gui.act("wait", seconds=2),
        ],
        [
            gui.act("browser_open", url=address),
            gui.act("browser_click", text=DOWNLOAD_LINK),
        ],
    )


class BrowserPaperDownload(SubtaskTemplate[PaperFound], spec="browser_paper_download"):
    """Find a paper by its title and download its PDF."""

    def draw(self, source: Draw) -> PaperFound:
        paper_id, title = _draw_paper(source)
        return PaperFound(paper_id=paper_id, title=title)

    def build(self, attributes: PaperFound, slot: Slot) -> Fragment:
        a = attributes
        reference, reference_api = _references(a)
        steps = _to_paper(a)
        link = programs.call(f"s{len(steps) + 1}", "follow_link", text=DOWNLOAD_LINK)
        return self.fragment(
            a,
            slot,
            f'Find the paper "{a.title}" with a web search and download its PDF ({a.download})',
            words={"title": a.title},
            nodes=_downloaded(a, slot, final=True),
            reference=reference,
            reference_api=reference_api,
            program=FragmentProgram((*steps, link)),
            services=("web",),
        )


class PaperAbstract(PaperFound):
    #: The new document's name, without .docx.
    stem: str

    @property
    def path(self) -> str:
        return f"Documents/{self.stem}.docx"


def abstract_checked(paper_id: str) -> list[str]:
    """What the document must hold of the paper's abstract: its first and last five words, so
    a text that leaves the abstract out or cuts it short fails, and a different line break
    passes."""
    words = PAPERS[paper_id]["abstract"].rstrip(".").split()
    return [" ".join(words[:5]), " ".join(words[-5:])]


class BrowserPaperAbstract(SubtaskTemplate[PaperAbstract], spec="browser_paper_abstract"):
    """Find a paper by its title, download its PDF, and write its abstract (read off the
    paper's page) into a new word-processor document."""

    def draw(self, source: Draw) -> PaperAbstract:
        paper_id, title = _draw_paper(source)
        stem = source.names.pick(DOCUMENT_STEMS, "document name")
        return PaperAbstract(paper_id=paper_id, title=title, stem=stem)

    def build(self, attributes: PaperAbstract, slot: Slot) -> Fragment:
        a = attributes
        abstract = PAPERS[a.paper_id]["abstract"]
        reference, reference_api = _references(a)
        checked = abstract_checked(a.paper_id)
        document = parts.new_writer_document(
            slot, a.stem, abstract, checked, f"{a.path} holds the abstract of {a.title}"
        )
        steps = _to_paper(a)
        page = steps[-1].id
        number = len(steps)
        found = f"s{number + 2}"
        program = (
            *steps,
            programs.call(f"s{number + 1}", "follow_link", text=DOWNLOAD_LINK),
            programs.call(
                found,
                "extract_values",
                text=programs.reference(page),
                names=["abstract"],
                what="the paper's abstract, whole",
            ),
            programs.call(
                f"s{number + 3}",
                "write_document",
                path=a.path,
                text=programs.reference(found, "abstract"),
            ),
        )
        return self.fragment(
            a,
            slot,
            f'Find the paper "{a.title}" with a web search, download its PDF and write its abstract '
            f"into {a.path}",
            words={"title": a.title, "stem": a.stem},
            nodes=[*_downloaded(a, slot, final=False), *document.nodes],
            reference=[*reference, *document.reference],
            reference_api=[*reference_api, *document.reference_api],
            program=FragmentProgram(program, output=programs.reference(f"s{number + 3}")),
            services=("web",),
            output=parts.file_output(a.path),
        )


#: Words of a title that make a query on their own no better than the rest.
_PLAIN_WORDS = frozenset({"a", "an", "the", "for", "from", "of", "with", "over", "are", "is"})
#: The places of a result an instruction may ask for ("the second result").
PLACES = ("first", "second", "third")


def site_searches() -> tuple[tuple[str, int, str], ...]:
    """Each (query, place, paper id) where arxiv.org's own search for ``query`` (two words of a
    title next to each other, neither plain, or one long word) lists a paper of :data:`PAPER_IDS` at
    ``place`` (1 to 3): the searches a program can make and the result it follows."""
    found: dict[tuple[str, int], str] = {}
    for paper_id in PAPER_IDS:
        words = [w.strip(":,").lower() for w in PAPERS[paper_id]["title"].split()]
        queries = [w for w in words if w not in _PLAIN_WORDS and len(w) > 4]
        queries += [f"{a} {b}" for a, b in pairwise(words) if not {a, b} & _PLAIN_WORDS]
        for query in queries:
            if "multimodal" in query:
                continue
            listed = arxiv_search(query)[: len(PLACES)]
            for place, listed_id in enumerate(listed, start=1):
                if listed_id in PAPER_IDS:
                    found.setdefault((query, place), listed_id)
    return tuple((query, place, paper) for (query, place), paper in sorted(found.items()))


class SitePaperSearch(PaperFound):
    #: The words searched for on the site, and the place of the result downloaded (1: first).
    query: str
    place: int

    @property
    def which(self) -> str:
        return PLACES[self.place - 1]


class BrowserSitePaperDownload(
    SubtaskTemplate[SitePaperSearch], spec="browser_site_paper_download"
):
    """Search arxiv.org itself for words and download the result at a place of its list. Why:
    its results link each paper by its number, which no instruction gives; a result is
    followed by its place (``follow_result``), and no training program did so (asked to
    download the first result of a search on arxiv.org, the 1.5B planner searched the web for
    the instruction's words and downloaded whatever the link model chose, pc15, 2026-12-02)."""

    def draw(self, source: Draw) -> SitePaperSearch:
        query, place, paper_id = source.rng.choice(site_searches())
        title = PAPERS[paper_id]["title"]
        return SitePaperSearch(paper_id=paper_id, title=title, query=query, place=place)

    def build(self, attributes: SitePaperSearch, slot: Slot) -> Fragment:
        a = attributes
        searched = parts.node(
            slot,
            "searched",
            "web_searched",
            {"host": SITE, "words": a.query.split()},
            final=False,
            description=f'arxiv.org searched for "{a.query}"',
        )
        visited, downloaded = _downloaded(a, slot, final=True)
        searched_address = f"https://{SITE}/search?query={a.query.replace(' ', '+')}"
        paper_address = f"https://{SITE}/abs/{a.paper_id}"
        program = (
            programs.call("s1", "open_page", address=SITE),
            programs.call("s2", "fill_form", fields=[{"label": "Search arXiv", "value": a.query}]),
            programs.call("s3", "follow_result", place=a.place),
            programs.call("s4", "follow_link", text=DOWNLOAD_LINK),
        )
        return self.fragment(
            a,
            slot,
            f'Search arxiv.org for "{a.query}" and download the {a.which} result ({a.download})',
            words={"query": a.query, "which": a.which},
            nodes=[searched, visited.model_copy(update={"after": [searched.id]}), downloaded],
            reference=[
                gui.act("open_app", app="browser"),
                gui.act("hotkey", keys=["ctrl", "l"]),
                gui.act("type", text=searched_address + "\n"),
                gui.wait_for("Search"),
                gui.act("hotkey", keys=["ctrl", "l"]),
                gui.act("type", text=paper_address + "\n"),
                gui.wait_for(a.title),
                gui.click(DOWNLOAD_LINK, "link"),
                gui.act("wait", seconds=2),
            ],
            reference_api=[
                gui.act("browser_open", url=f"https://{SITE}/"),
                gui.act("browser_fill", label="Search", value=a.query, submit=True),
                gui.act("browser_open", url=paper_address),
                gui.act("browser_click", text=DOWNLOAD_LINK),
            ],
            program=FragmentProgram(program),
            services=("web",),
        )
