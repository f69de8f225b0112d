"""The role pool: capability, action domain, refusal before execution."""

from __future__ import annotations

import json

import pytest

from pcagent import actions as act
from pcagent.agents import Role, RolePool, decision_schema, default_pool, generalist
from pcagent.env.apps import app_infos
from pcagent.errors import ConfigurationError, OutOfDomainError

#: The applications the sandbox desktop offers, as the run layer passes them.
SANDBOX_APPS = tuple(info.name for info in app_infos())


def test_default_pool_covers_the_application_families() -> None:
    pool = default_pool(SANDBOX_APPS)
    for name in ("app_launcher", "file_manager", "office_editor", "browser", "text_notes"):
        assert name in pool
    assert pool.for_app("calculator").name == "calculator_clock"  # type: ignore[union-attr]
    assert pool.for_app("clock").name == "calculator_clock"  # type: ignore[union-attr]
    assert pool.for_app("spreadsheet").name == "office_editor"  # type: ignore[union-attr]


def test_actions_outside_a_domain_are_refused() -> None:
    pool = default_pool(SANDBOX_APPS)
    launcher = pool.get("app_launcher")
    launcher.check(act.OpenApp(app="writer"))
    with pytest.raises(OutOfDomainError, match="may not use 'type'"):
        launcher.check(act.TypeText(text="hello"))
    calculator = pool.get("calculator_clock")
    with pytest.raises(OutOfDomainError, match="may not open 'mail'"):
        calculator.check(act.OpenApp(app="mail"))
    calculator.check(act.Done())  # common actions are always allowed


def test_adding_a_role_is_one_registration_and_names_are_unique() -> None:
    pool = default_pool(SANDBOX_APPS)
    pool.register(Role("terminal", "Runs shell commands.", frozenset({"type", "press"})))
    assert pool.get("terminal").allowed_kinds(with_human=False) == (
        "type",
        "press",
        "wait",
        "use_skill",
        "answer",
        "done",
        "fail",
    )
    with pytest.raises(ConfigurationError, match="already registered"):
        pool.register(Role("terminal", "again", frozenset()))
    with pytest.raises(ConfigurationError, match="unknown action kinds"):
        Role("bad", "x", frozenset({"teleport"}))
    with pytest.raises(ConfigurationError, match="registered roles"):
        RolePool().get("nobody")


def test_the_decision_schema_only_admits_the_roles_kinds() -> None:
    kinds = default_pool(SANDBOX_APPS).get("app_launcher").allowed_kinds(with_human=True)
    assert "ask_human" in kinds and "type" not in kinds
    schema = decision_schema(kinds)
    schema.model_validate({"reasoning": "r", "action": {"kind": "open_app", "app": "writer"}})
    with pytest.raises(ValueError):
        schema.model_validate({"reasoning": "r", "action": {"kind": "type", "text": "x"}})
    with pytest.raises(ValueError):
        schema.model_validate({"reasoning": "r" * 600, "action": {"kind": "done"}})


def test_the_decision_schema_names_only_the_roles_applications() -> None:
    role = default_pool(SANDBOX_APPS).get("text_notes")
    schema = decision_schema(role.allowed_kinds(with_human=False), tuple(sorted(role.apps)))
    reply = {"reasoning": "r", "action": {"kind": "open_app", "app": "text_editor"}}
    assert schema.model_validate(reply).action.app == "text_editor"  # type: ignore[attr-defined]
    for app in ("vim", "calculator"):  # invented, and another role's
        with pytest.raises(ValueError):
            schema.model_validate({**reply, "action": {"kind": "open_app", "app": app}})
    # the enum reaches the JSON schema that constrained decoding uses
    assert '"text_editor"' in json.dumps(schema.model_json_schema())


def test_a_pool_has_roles_only_for_the_applications_the_environment_offers() -> None:
    pool = default_pool(["text_editor", "writer"])
    assert pool.names() == ["app_launcher", "text_notes", "office_editor"]
    assert pool.get("app_launcher").apps == {"text_editor", "writer"}
    assert pool.get("office_editor").apps == {"writer"}  # no spreadsheet to open
    for role in pool:
        assert role.apps <= {"text_editor", "writer"}
    assert pool.for_app("spreadsheet") is None
    with pytest.raises(OutOfDomainError, match="may not open 'spreadsheet'"):
        pool.get("office_editor").check(act.OpenApp(app="spreadsheet"))


def test_with_one_application_its_specialist_wins_over_the_launcher() -> None:
    pool = default_pool(["mail"])
    assert pool.get("app_launcher").apps == pool.get("mail").apps == {"mail"}
    assert pool.for_app("mail").name == "mail"  # type: ignore[union-attr]


def test_the_launcher_stays_when_no_specialist_fits() -> None:
    pool = default_pool(["terminal"])
    assert pool.names() == ["app_launcher"]
    assert pool.get("app_launcher").apps == {"terminal"}


def test_the_generalist_may_open_every_application_offered_and_nothing_else() -> None:
    role = generalist(["calculator", "mail"])
    assert role.apps == {"calculator", "mail"}
    assert {"type", "click", "open_app", "select_text"} <= role.kinds
    role.check(act.OpenApp(app="mail"))
    with pytest.raises(OutOfDomainError, match="may not open 'writer'"):
        role.check(act.OpenApp(app="writer"))


def test_specialists_get_the_application_actions_of_their_applications_only() -> None:
    pool = default_pool(SANDBOX_APPS, act.APP_ACTION_KINDS)
    office = pool.get("office_editor")
    assert {"writer_format", "sheet_set"} <= office.kinds
    assert not {"mail_send", "files_copy", "calculator_evaluate"} & office.kinds
    assert not act.APP_ACTION_KINDS & pool.get("app_launcher").kinds
    every = set().union(*(role.kinds for role in pool))
    assert every >= act.APP_ACTION_KINDS  # each application action has a role
    # an environment without interfaces (or the gui_only ablation) gives none
    assert not act.APP_ACTION_KINDS & set().union(*(r.kinds for r in default_pool(SANDBOX_APPS)))
    assert "browser_open" in generalist(SANDBOX_APPS, act.APP_ACTION_KINDS).kinds


def test_an_application_action_of_another_application_is_refused() -> None:
    mail = default_pool(SANDBOX_APPS, act.APP_ACTION_KINDS).get("mail")
    mail.check(act.parse_action({"kind": "mail_read"}))
    wide = Role("wide", "anything", frozenset(act.APP_ACTION_KINDS), frozenset({"mail"}))
    with pytest.raises(OutOfDomainError, match="an action of 'writer'"):
        wide.check(act.parse_action({"kind": "writer_read"}))
