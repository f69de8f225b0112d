"""Moves the run makes by rule to search through a site's own form.

"Then search for a round-trip flight for it on booking.com in the browser" names the site and
points back at what was found before (the journey). A web search for those words finds the site,
not the flights; the 1.5B model then opened the site and said ``done`` over its empty form. So:

1. the run opens the site the subtask names (:func:`site_move`), once the browser is in front;
2. it reads the page, whose reading lists the form's fields (:func:`form_read_move`);
3. the Composer says which value goes into which field, and the run checks that against the
   form (:mod:`pcagent.agents.form_plan`), and fills the fields one step each, the last one
   submitting the form (:func:`fill_move`).

Every step is an ordinary recorded step (its thought marked ``[run]``), checked like any other;
a field the page refuses hands the subtask back to the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pcagent import actions as act
from pcagent.agents.decision import Decision
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import Role
from pcagent.runtime.rule_moves import first_page, used, working_in

READ_KIND = "browser_read"
FILL_KIND = "browser_fill"
OPEN_KIND = "browser_open"
#: "search for a flight ... on booking.com", "look for a hotel at www.example.test": a search
#: through the site a subtask names.
_SEARCH_ON_SITE = re.compile(
    r"\b(?:search|searches|look)\b[^.;]*?\b(?:on|at|via)\s+(?:the\s+)?(?:site\s+|website\s+)?"
    r"(?P<site>(?:www\.)?[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\."
    r"(?:com|org|net|io|co|uk|de|fr|jp|info|test|local))\b",
    re.I,
)
#: Words that point back at something found before ("for it", "for that journey").
_POINTS_BACK = re.compile(r"\b(?:it|its|them|that|those|these|this)\b", re.I)


def searched_site(words: str) -> str:
    """The site a subtask searches through, when its words also point back at something found
    before (the form is to be filled from it); "" otherwise (a web search serves better)."""
    match = _SEARCH_ON_SITE.search(words)
    if match is None or not _POINTS_BACK.search(words):
        return ""
    return match.group("site")


def site_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]
) -> Decision | None:
    """The step that opens the site a subtask searches through, before it opened anything."""
    site = searched_site(subtask.description)
    if not site:
        return None
    reasoning = f"[run] the subtask searches through {site}: opening it"
    return first_page(subtask, role, front_app, history, site, reasoning)


def _last(history: Sequence[str], kind: str) -> bool:
    """Whether the subtask's latest step took ``kind`` with success."""
    if not history:
        return False
    line = history[-1]
    return line.partition(": ")[2].startswith(f"{kind}(") and line.endswith("-> success")


def form_read_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]
) -> Decision | None:
    """Right after the site a subtask searches through opened, the step that reads the page
    (its reading lists the form's fields); once, and never after a field was filled."""
    if not searched_site(subtask.description):
        return None
    if (
        not working_in("browser", FILL_KIND, subtask, role, front_app)
        or READ_KIND not in role.kinds
    ):
        return None
    if not _last(history, OPEN_KIND) or used(READ_KIND, history) or used(FILL_KIND, history):
        return None
    return Decision(
        reasoning="[run] the subtask fills in the site's form: reading its fields",
        action=act.ACTION_TYPES[READ_KIND].model_validate({"kind": READ_KIND}),
    )


def just_read_form(subtask: SubtaskSpec, history: Sequence[str]) -> bool:
    """Whether the subtask searches through a site and its latest step read the page: the
    moment to plan the form's filling."""
    return bool(searched_site(subtask.description)) and _last(history, READ_KIND)


def fill_move(
    subtask: SubtaskSpec,
    role: Role,
    front_app: str,
    history: Sequence[str],
    plan: Sequence[tuple[str, str]],
) -> Decision | None:
    """The step that fills the next field of ``plan`` (label, value) not filled yet, the last
    text field submitting the form; None when all are, a fill failed (the model takes over),
    or there is no plan."""
    if not plan or not working_in("browser", FILL_KIND, subtask, role, front_app):
        return None
    fills = [line for line in history if line.partition(": ")[2].startswith(f"{FILL_KIND}(")]
    if any(not line.endswith("-> success") for line in fills) or len(fills) >= len(plan):
        return None
    label, value = plan[len(fills)]
    typed = [index for index, (_l, v) in enumerate(plan) if v != "true"]
    submit = bool(typed) and len(fills) == typed[-1]
    return Decision(
        reasoning=f"[run] the subtask fills in the site's form: {label!r}"
        + (" (then submits it)" if submit else ""),
        action=act.ACTION_TYPES[FILL_KIND].model_validate(
            {"kind": FILL_KIND, "label": label, "value": value, "submit": submit}
        ),
    )
