"""The skills pcagent offers, collected from their modules, and what models are shown of them.

One module per application, named after it in the catalog (:mod:`pcagent.applications`),
declares its skills with :func:`~pcagent.skills.base.skill`;
:func:`default_catalog` gathers them (no registry is filled at import). A catalog narrowed to
the applications a desktop offers (:meth:`SkillCatalog.for_apps`) is what the Manager plans with
and what the Decision agent may call.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from types import ModuleType

from pydantic import JsonValue

from pcagent.registry import Registry
from pcagent.skills import (
    browser,
    calculator,
    clock,
    code,
    file_manager,
    language,
    mail,
    spreadsheet,
    text_editor,
    writer,
)
from pcagent.skills import values as value_skills
from pcagent.skills.base import Skill, SkillError

_MODULES: tuple[ModuleType, ...] = (
    value_skills,
    language,
    code,
    text_editor,
    calculator,
    clock,
    writer,
    spreadsheet,
    file_manager,
    mail,
    browser,
)


class SkillCatalog(Registry[Skill]):
    """Skills by name, in the order prompts list them."""

    error = SkillError
    duplicate = "two skills are named {name!r}"
    missing = "no skill {name!r}; the skills are: {names}"

    def for_apps(self, apps: Iterable[str], *, language: bool = True) -> SkillCatalog:
        """The skills whose applications are all among ``apps`` (and the language skills when
        ``language``)."""
        offered = set(apps)
        return SkillCatalog(
            one for one in self if set(one.apps) <= offered and (language or not one.needs_language)
        )

    def acting_in(self, apps: Iterable[str]) -> SkillCatalog:
        """The skills that work in some of ``apps`` and only in them: what a Decision step in
        one of these applications is offered. Arithmetic and the language's skills are the
        program's steps; offered to a screen step, the 1.5B model called ``shift_time`` six
        times over in the text editor and ``days_between`` for a journey's length, and nothing
        on the screen changed (two runs' records, 2026-12-04)."""
        return SkillCatalog(one for one in self.for_apps(apps, language=False) if one.apps)

    def working_in(self, app: str) -> SkillCatalog:
        """The skills that work in ``app``; for no application (""), those that work in none
        (a value worked out or picked, the person told)."""
        if app:
            return SkillCatalog(one for one in self if app in one.apps)
        return SkillCatalog(one for one in self if not one.apps)

    def among(self, names: Collection[str]) -> SkillCatalog:
        """The skills named in ``names``, in the catalog's order (a name it lacks is left out)."""
        return SkillCatalog(one for one in self if one.name in names)

    def marked(self, skill: str, mark: str) -> dict[str, JsonValue]:
        """The parameters of ``skill`` that carry ``mark`` in their ``json_schema_extra``
        (``given``, ``moves``, ``numbers``, ``choice``), with its value (none for a skill the
        catalog lacks): the marks say what the checks and readings of a program look at."""
        if skill not in self:
            return {}
        found: dict[str, JsonValue] = {}
        for name, field in self.get(skill).parameters.model_fields.items():
            extra = field.json_schema_extra
            if isinstance(extra, dict) and extra.get(mark) is not None:
                found[name] = extra[mark]
        return found

    def prompt_lines(self, *, compact: bool = False) -> str:
        """One line per skill, ``name(params) -> returns: description``; ``compact``: the
        name and parameter names alone (a prompt that must fit a small context)."""
        if compact:
            return "\n".join(f"- {one.short_signature()}" for one in self)
        return "\n".join(f"- {one.signature()}" for one in self)


def default_catalog() -> SkillCatalog:
    """Every skill of pcagent's modules."""
    return SkillCatalog(
        value for module in _MODULES for value in vars(module).values() if isinstance(value, Skill)
    )
