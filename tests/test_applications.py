"""The application catalog is the one list of applications: every layer's view of an application
is derived from it, and nothing names an application the catalog does not hold. Pure: no desktop."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

from pcagent import actions as act
from pcagent.action_handlers import declared
from pcagent.agents.roles import default_pool
from pcagent.applications import APPLICATIONS, FAMILIES, applications_of, opener_of_suffix
from pcagent.bench.grounding_phrases import APP_PURPOSES, purpose_of
from pcagent.env import app_interfaces
from pcagent.env.app_interfaces.file_manager import OPENERS
from pcagent.env.apps import APPS, LaunchContext, app_infos
from pcagent.skills import default_catalog


def test_the_sandbox_starts_exactly_the_catalogs_applications_as_the_catalog_describes_them() -> (
    None
):
    assert list(APPS) == list(APPLICATIONS)
    context = LaunchContext(home=Path("/home/someone"), sandbox_id="test")
    for name, spec in APPS.items():
        app = APPLICATIONS[name]
        assert spec.command(context)[0] == app.program
        assert (spec.description, spec.window_classes, spec.title_hint) == (
            app.description,
            app.window_classes,
            app.title_hint,
        )
        assert (spec.edits_documents, spec.key_pause, spec.startup_timeout) == (
            app.edits_documents,
            app.key_pause,
            app.startup_timeout,
        )
    editors = {info.name for info in app_infos() if info.edits_documents}
    assert editors == {name for name, app in APPLICATIONS.items() if app.edits_documents}


def test_every_family_works_in_some_application_and_becomes_one_role() -> None:
    assert all(applications_of(family) for family in FAMILIES)
    pool = default_pool(APPLICATIONS, act.APP_ACTION_KINDS)
    assert pool.names() == ["app_launcher", *(family.name for family in FAMILIES)]
    for family in FAMILIES:
        assert pool.get(family.name).apps == applications_of(family)
    assert pool.for_app("spreadsheet").name == "office_editor"  # type: ignore[union-attr]


def test_actions_and_skills_name_only_the_catalogs_applications() -> None:
    owners = {cls.belongs_to for cls in act.ACTION_TYPES.values()} - {None}
    assert owners <= set(APPLICATIONS)
    assert owners == set(APPLICATIONS), "an application without its own actions"
    used = {app for one in default_catalog() for app in one.apps}
    assert used <= set(APPLICATIONS)


def test_documents_open_in_the_catalogs_openers_and_labels_mean_what_it_says() -> None:
    assert opener_of_suffix() == OPENERS
    assert OPENERS[".csv"] == "spreadsheet" and OPENERS[".odt"] == "writer"
    assert OPENERS[".md"] == "text_editor"
    assert set(APP_PURPOSES) <= set(APPLICATIONS)
    assert purpose_of("browser", "Back") == "Go back to the previous web page"
    assert purpose_of("file_manager", "Back") == "Go back to the folder shown before"
    assert purpose_of("writer", "Bold") == "Make the selected text bold"


def _applications_handled_in(module_name: str) -> set[str]:
    """The applications whose actions the functions and methods of a module carry out."""
    module = importlib.import_module(module_name)
    found: set[str] = set()
    for value in vars(module).values():
        if inspect.isclass(value) and value.__module__ == module_name:
            candidates = list(vars(value).values())
        elif inspect.isfunction(value) and value.__module__ == module_name:
            candidates = [value]
        else:
            continue
        for candidate in candidates:
            found |= {cls.belongs_to for cls in declared(candidate)} - {None}
    return found


def test_a_module_that_serves_one_application_is_named_after_it() -> None:
    interfaces = {}
    for info in pkgutil.iter_modules(app_interfaces.__path__):
        apps = _applications_handled_in(f"{app_interfaces.__name__}.{info.name}")
        if len(apps) == 1:
            interfaces[info.name] = apps.pop()
    assert interfaces, "no interface module was found"
    assert {module: app for module, app in interfaces.items() if module != app} == {}
    skills: dict[str, set[str]] = {}
    for one in default_catalog():
        module = one.run.__module__.rsplit(".", 1)[-1]
        skills.setdefault(module, set()).update(one.apps)
    single = {module: apps.pop() for module, apps in skills.items() if len(apps) == 1}
    assert {"writer", "spreadsheet", "calculator", "clock"} <= set(single)
    assert {module: app for module, app in single.items() if module != app} == {}
