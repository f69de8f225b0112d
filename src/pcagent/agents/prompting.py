"""Prompt templates: one Markdown file per agent in ``prompts/``, filled with ``$name`` fields.

Why files: prompts are read and tuned far more often than the code around them, and a diff of a
prompt should show only the prompt. ``string.Template`` is used (not ``str.format``) because the
templates contain JSON examples full of braces. A template has a system part and a user part,
separated by a line ``--- user ---``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from string import Template

from pcagent.agents.base import bullet_list, value_list
from pcagent.agents.failed_inputs import refused_inputs
from pcagent.agents.plan import Replanning
from pcagent.errors import ConfigurationError

_SEPARATOR = "\n--- user ---\n"


@cache
def prompt_part(name: str) -> str:
    """The text of ``prompts/<name>.md``: a whole template, or a part some prompts show and
    others leave out (the Manager's own example, left out where memory shows programs)."""
    try:
        text = resources.files("pcagent.agents.prompts").joinpath(f"{name}.md").read_text("utf-8")
    except FileNotFoundError:
        raise ConfigurationError(f"no prompt template {name!r} in pcagent/agents/prompts") from None
    return text.strip()


@cache
def _templates(name: str) -> tuple[Template, Template]:
    text = prompt_part(name)
    if _SEPARATOR not in text:
        raise ConfigurationError(f"prompt template {name!r} lacks the '--- user ---' line")
    system, user = text.split(_SEPARATOR, 1)
    return Template(system.strip()), Template(user.strip())


def render(name: str, **values: object) -> tuple[str, str]:
    """The (system, user) texts of template ``name`` with every ``$field`` filled.

    A field the template uses but ``values`` lacks is a :class:`ConfigurationError` (a bug in the
    agent, caught by its tests), never a silently unfilled prompt.
    """
    system, user = _templates(name)
    strings = {key: str(value) for key, value in values.items()}
    try:
        return system.substitute(strings), user.substitute(strings)
    except KeyError as error:
        raise ConfigurationError(f"prompt template {name!r} needs the field {error}") from None


def role_notes(role: str, *, app_actions: bool = False) -> str:
    """The know-how of one role (``pcagent/agents/notes/<role>.md``): short, general facts about
    its applications that small models get wrong, kept as data rather than grown into prompts.
    With ``app_actions`` (the role has application actions), the notes on using them
    (``<role>.app.md``) replace the mouse-and-keyboard ones: a small model given both followed the
    keystroke recipe. "" for a role without notes."""
    names = [f"{role}.app.md", f"{role}.md"] if app_actions else [f"{role}.md"]
    for name in names:
        try:
            notes = resources.files("pcagent.agents.notes").joinpath(name).read_text("utf-8")
        except FileNotFoundError:
            continue
        return notes.strip()
    return ""


def desktops_text(environments: Mapping[str, Sequence[str]]) -> str:
    """The Manager's prompt part for a run across several desktops (each desktop's name and
    applications; each step names the one it works on); "" for one desktop."""
    if len(environments) <= 1:
        return ""
    lines = "\n".join(
        f"- {name}: {', '.join(apps) or 'no applications listed'}"
        for name, apps in environments.items()
    )
    return (
        "This task spans several desktops. Give every step the desktop it works on as "
        f'"environment", one of:\n{lines}\n'
    )


def replan_context(replanning: Replanning, first: int) -> str:
    """What a re-plan's prompt says after the instruction: the steps finished and the values
    found (referred to by id, never redone), the step that failed and why, and the number the
    new steps start from (``first``). A skill's failure says what to change (the folder that
    holds the mail, days_between for dates, the field's value the site refused): the re-plan
    is asked to do that. Asked instead for "another way (a gui step where a skill failed)",
    the 1.5B planner answered screen steps that looped to their cap where one corrected call
    would have done (3 of the 24 re-planned runs of the 25 and the 50 passed, 2026-12-05)."""
    finished, failed = replanning.finished, replanning.failed
    refused = refused_inputs(failed, finished, replanning.reason)
    return (
        "Already finished (do not repeat them; refer to their values by id):\n"
        + bullet_list([f"{s.id}: {s.description}" for s in finished])
        + "\nValues found so far:\n"
        + value_list(dict(replanning.hub))
        + f"\nThis step failed: {failed.id}: {failed.description}\nWhy: {replanning.reason}\n"
        + (f"{refused}\n" if refused else "")
        + "Write only the remaining steps. Where Why says what to change, do that: the same "
        "skill with its arguments corrected, or the skill it names; a gui step only where no "
        f"skill can do what is left. Number them from s{first} on."
    )
