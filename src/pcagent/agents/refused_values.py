"""A value an application refused, sent again by a re-plan: a problem the Manager is re-asked
with.

Why: asked to search a flight for a journey a mail describes, the 1.5B Manager filled the flight
form's "From" with the mail's addressee, "Howie"; the site answered "Unknown city or airport:
'Howie'", and both re-plans filled "From" with "Howie" again (only a field's label changed, so
the call was not the same call), then a screen step typed it in and the run ended on it (pc16
at db209bf, 2026-12-06). What the site refused is in the failure the browser reports (the
refusal it quotes), and which of the failed call's own values it names is a comparison of typed
values with that text, never a reading of the person's words.
"""

from __future__ import annotations

from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.program import GUI, Program, ProgramStep, literal_texts

#: How a browser action reports a site's refusal of what a form or a link sent; the site's own
#: words follow it (``pcagent.env.app_interfaces.browser_tabs.landed``).
REFUSAL = "refusing what was sent:"
#: How a refusal names a value: quoted ("Unknown city or airport: 'Howie'"), each opening
#: quote with its closing one.
_QUOTES = {"'": "'", '"': '"', "\u2018": "\u2019", "\u201c": "\u201d"}


def with_refusals(failed: SubtaskSpec, reason: str) -> SubtaskSpec:
    """``failed`` with the literal values of its call that the refusal in ``reason`` quotes,
    as :attr:`SubtaskSpec.refused`; ``failed`` itself where there are none."""
    _, marked, answer = reason.partition(REFUSAL)
    if not marked:
        return failed
    answer = answer.casefold()
    refused = [
        value
        for value in dict.fromkeys(text.strip() for text in literal_texts(failed.args))
        if value
        and any(
            f"{opening}{value.casefold()}{closing}" in answer
            for opening, closing in _QUOTES.items()
        )
    ]
    return failed.model_copy(update={"refused": refused}) if refused else failed


def sends_refused(program: Program, failed: SubtaskSpec) -> str:
    """The problem when a step of ``program`` sends a value ``failed`` had refused (as a
    literal of a skill call, or in a screen step's task); "" otherwise."""
    for step in program.steps:
        again = [value for value in failed.refused if _sends(step, value)]
        if again:
            shown = ", ".join(repr(value) for value in again)
            return (
                f"{step.id} sends {shown} again, which the site refused when {failed.id} sent "
                "it: take the right value (the instruction's, or one an earlier step found) "
                "or find it first"
            )
    return ""


def _sends(step: ProgramStep, value: str) -> bool:
    wanted = value.casefold()
    if step.skill == GUI:
        return wanted in step.task.casefold()
    return any(text.strip().casefold() == wanted for text in literal_texts(step.args))
