"""The application catalog: every desktop application pcagent knows, one module each.

This is the one list of applications. The sandbox's launch table, the role pool, the skills' and
application actions' ``apps``, the grounding eval's label purposes and (through the environment's
application list) the safety guard's document editors all derive from it. Adding an application
starts here: one module with its :class:`Application`, named after it, listed in ``APPLICATIONS``.
"""

from __future__ import annotations

from functools import cache
from types import MappingProxyType

from pcagent.applications.base import Application, RoleFamily
from pcagent.applications.browser import BROWSER
from pcagent.applications.calculator import CALCULATOR
from pcagent.applications.clock import CLOCK
from pcagent.applications.families import FAMILIES
from pcagent.applications.file_manager import FILE_MANAGER
from pcagent.applications.mail import MAIL
from pcagent.applications.spreadsheet import SPREADSHEET
from pcagent.applications.text_editor import TEXT_EDITOR
from pcagent.applications.writer import WRITER
from pcagent.text import word_parts

#: Every application by logical name, in the order the planner's prompt lists them.
APPLICATIONS: MappingProxyType[str, Application] = MappingProxyType(
    {
        app.name: app
        for app in (
            TEXT_EDITOR,
            CALCULATOR,
            WRITER,
            SPREADSHEET,
            FILE_MANAGER,
            CLOCK,
            BROWSER,
            MAIL,
        )
    }
)


def applications_of(family: RoleFamily) -> frozenset[str]:
    """The logical names of the applications the role family works in."""
    return frozenset(app.name for app in APPLICATIONS.values() if app.family == family)


def opener_of_suffix() -> dict[str, str]:
    """Document suffix (lower case, with the dot) → the application that opens it."""
    return {suffix: app.name for app in APPLICATIONS.values() for suffix in app.opens}


@cache
def application_words() -> frozenset[str]:
    """Every word of the applications' names, case-folded ("libreoffice", "writer", "chromium",
    "clocks", "workbook"): where a step says it works, not a value it looks for or writes."""
    names = [
        name
        for app in APPLICATIONS.values()
        for name in (app.name, app.program, app.title_hint, *app.also_called)
    ]
    return frozenset(word.casefold() for name in names for word in word_parts(name))


__all__ = [
    "APPLICATIONS",
    "BROWSER",
    "CALCULATOR",
    "CLOCK",
    "FAMILIES",
    "FILE_MANAGER",
    "MAIL",
    "SPREADSHEET",
    "TEXT_EDITOR",
    "WRITER",
    "Application",
    "RoleFamily",
    "application_words",
    "applications_of",
    "opener_of_suffix",
]
