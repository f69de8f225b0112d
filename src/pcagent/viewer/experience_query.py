"""The page graph's retrieval, asked from the viewer: what a Decision agent would be told on a
screen like the one described, and the programs the Manager would get for an instruction."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pcagent.experience.screens import Screen
from pcagent.viewer.layout import esc, page, table, url_part


@dataclass(frozen=True)
class Question:
    """What the form asks: the screen (application, window title, the listing's labels) and the
    subtask and instruction worked on."""

    app: str = ""
    window: str = ""
    labels: str = ""
    subtask: str = ""
    instruction: str = ""

    @property
    def listing(self) -> str:
        """The labels as a listing the screen summary can read (one button per label)."""
        names = [n.strip() for n in self.labels.split(",") if n.strip()]
        return "\n".join(f'{i} button "{name}" @0,0' for i, name in enumerate(names, start=1))


def experience_query_page(path: Path, apps: list[str], question: Question) -> str:
    """The form, and when it names an application, what retrieval answers."""
    from pcagent.experience.loading import open_experience

    options = "".join(
        f'<option value="{esc(a)}"{" selected" if a == question.app else ""}>{esc(a)}</option>'
        for a in apps
    )
    form = (
        '<form class="filters query" method="get" action="/experience/query">'
        f'<input type="hidden" name="graph" value="{esc(str(path))}">'
        f'<select name="app">{options}</select>'
        f'<input name="window" value="{esc(question.window)}" placeholder="window title">'
        f'<input name="labels" value="{esc(question.labels)}" placeholder="labels, comma-separated">'
        f'<input name="subtask" value="{esc(question.subtask)}" placeholder="subtask">'
        f'<input name="instruction" value="{esc(question.instruction)}" placeholder="instruction">'
        "<button type=submit>ask</button></form>"
    )
    answer = ""
    if question.app:
        experience = open_experience(path)
        screen = Screen.of(question.app, question.window, question.listing)
        rows = [
            f'<tr><td><a href="/experience/nodes/{node.id}?graph={url_part(str(path))}">'
            f"{node.id}</a></td><td>{esc(node.title)}</td><td>{score:.2f}</td></tr>"
            for node, score in experience.similar_pages(screen)
        ]
        lines = experience.guidance(
            question.app, question.window, question.listing, question.subtask or question.window
        )
        plans = experience.similar_plans(question.instruction) if question.instruction else ""
        answer = (
            "<h2>Pages like it</h2>"
            + table(["page", "title", "similarity"], rows)
            + "<h2>What Decision would be told</h2>"
            + f"<pre class=guidance>{esc(lines) or '(no page like this in the graph)'}</pre>"
            + f"<p class=muted>retrieval {experience.timings_ms[-1]:.1f} ms</p>"
            + (
                f"<h2>Programs the Manager would get</h2><pre class=plans>{esc(plans)}</pre>"
                if question.instruction
                else ""
            )
        )
    return page("Ask the page graph", f"<h1>Ask the page graph</h1>{form}{answer}")
