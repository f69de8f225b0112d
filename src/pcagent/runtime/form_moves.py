"""Moves the run makes by rule to search through a site's own form.

"Then search for a round-trip flight for it on booking.com in the browser" names the site and
points back at what was found before (the journey). A web search for those words finds the site,
not the flights; the 1.5B model then opened the site and said ``done`` over its empty form. So:

1. the run opens the site the subtask names (:func:`site_move`), once the browser is in front
   (or the address it says to go to, :func:`~pcagent.runtime.rule_moves.address_move`, for
   "Go to https://arxiv.org/, search for ...");
2. it reads the page, whose reading lists the form's fields (:func:`form_read_move`);
3. the Composer says which value goes into which field, and the run checks that against the
   form (:mod:`pcagent.agents.form_plan`), and fills the fields one step each, the last one
   submitting the form (:func:`fill_move`); a site's one-field search box simply gets the
   subtask's search words (:func:`site_search_words`), no model asked.

Every step is an ordinary recorded step (its thought marked ``[run]``), checked like any other;
a field the page refuses hands the subtask back to the model.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pcagent import actions as act
from pcagent.agents.composer import Composer
from pcagent.agents.decision import Decision
from pcagent.agents.form_plan import checked_plan, form_fields, search_box_plan
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import Role
from pcagent.runtime.rule_moves import (
    address_named,
    first_page,
    last_succeeded,
    search_words,
    used,
    working_in,
)

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


def site_search_words(words: str) -> str:
    """What a subtask that goes to an address and searches there ("Go to https://arxiv.org/,
    search for papers about "multimodal agent", and ...") types into the site's search box:
    the quoted phrase of its search words if they hold one, else those words; "" when it does
    not say both."""
    found = search_words(words)
    if not (found and address_named(words)):
        return ""
    quoted = _QUOTED.search(found)
    return quoted.group(1).strip() if quoted else found


#: A quoted phrase: what a person types into a search box.
_QUOTED = re.compile(r"[\"“'‘]([^\"”'’]{2,100})[\"”'’]")


def fills_form(words: str) -> bool:
    """Whether a subtask searches through a site's own form (either way above)."""
    return bool(searched_site(words) or site_search_words(words))


def site_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]
) -> Decision | None:
    """The step that opens the site a subtask searches through, before it opened anything."""
    site = searched_site(subtask.description)
    if not site:
        return None
    reasoning = f"[run] the subtask searches through {site}: opening it"
    return first_page(subtask, role, front_app, history, site, reasoning)


def form_read_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]
) -> Decision | None:
    """Right after the site a subtask searches through opened, the step that reads the page
    (its reading lists the form's fields); once, and never after a field was filled."""
    if not fills_form(subtask.description):
        return None
    if (
        not working_in("browser", FILL_KIND, subtask, role, front_app)
        or READ_KIND not in role.kinds
    ):
        return None
    if (
        not last_succeeded(OPEN_KIND, history)
        or used(READ_KIND, history)
        or used(FILL_KIND, history)
    ):
        return None
    return Decision(
        reasoning="[run] the subtask fills in the site's form: reading its fields",
        action=act.ACTION_TYPES[READ_KIND].model_validate({"kind": READ_KIND}),
    )


def just_read_form(subtask: SubtaskSpec, history: Sequence[str]) -> bool:
    """Whether the subtask searches through a site and its latest step read the page: the
    moment to plan the form's filling."""
    return fills_form(subtask.description) and last_succeeded(READ_KIND, history)


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


def plan_form(
    subtask: SubtaskSpec,
    reading: str,
    instruction: str,
    known: Mapping[str, str],
    composer: Composer,
    step: int,
) -> list[tuple[str, str]]:
    """What to fill into the form a page ``reading`` lists, for ``subtask``: a one-field search
    box gets the subtask's search words; any other form what the Composer proposes (asked with
    the whole ``instruction`` beside the subtask and the ``known`` values), checked against the
    form. [] when the page has no form or nothing fits."""
    fields = form_fields(reading)
    box = search_box_plan(fields, site_search_words(subtask.description))
    if box or not fields:
        return box
    words = f"{subtask.description} (from the task: {instruction})"
    proposed = composer.compose_form(words, fields, known, step)
    return checked_plan(proposed or [], fields, subtask.description)
