"""The skills pcagent offers, collected from their modules, and what models are shown of them.

One module per application, named after it in the catalog (:mod:`pcagent.applications`),
declares its skills with :func:`~pcagent.skills.base.skill`;
:func:`default_catalog` gathers them (no registry is filled at import). A catalog narrowed to
the applications a desktop offers (:meth:`SkillCatalog.for_apps`) is what the Manager plans with
and what the Decision agent may call.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from types import ModuleType

from pcagent.skills import (
    browser,
    calculator,
    clock,
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
    text_editor,
    calculator,
    clock,
    writer,
    spreadsheet,
    file_manager,
    mail,
    browser,
)


class SkillCatalog:
    """Skills by name, in the order prompts list them."""

    def __init__(self, skills: Iterable[Skill]) -> None:
        self._skills: dict[str, Skill] = {}
        for one in skills:
            if one.name in self._skills:
                raise SkillError(f"two skills are named {one.name!r}")
            self._skills[one.name] = one

    def get(self, name: str) -> Skill:
        try:
            return self._skills[name]
        except KeyError:
            raise SkillError(
                f"no skill {name!r}; the skills are: {', '.join(self._skills)}"
            ) from None

    def names(self) -> list[str]:
        return list(self._skills)

    def __iter__(self) -> Iterator[Skill]:
        return iter(self._skills.values())

    def __len__(self) -> int:
        return len(self._skills)

    def __contains__(self, name: object) -> bool:
        return name in self._skills

    def for_apps(self, apps: Iterable[str], *, language: bool = True) -> SkillCatalog:
        """The skills whose applications are all among ``apps`` (and the language skills when
        ``language``)."""
        offered = set(apps)
        return SkillCatalog(
            one for one in self if set(one.apps) <= offered and (language or not one.needs_language)
        )

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
