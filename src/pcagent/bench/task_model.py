"""What a benchmark task is: its fixtures, sub-tasks, graph of checked sub-goals and reference
solution, as validated types.

Kept apart from the loading in :mod:`pcagent.bench.tasks` (YAML, size limits, the built-in
folders) so a reader of the task format finds it whole in one place; every name here is also
importable from :mod:`pcagent.bench.tasks`, where most callers take them from.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pcagent.actions import parse_action
from pcagent.agents.program import ProgramStep
from pcagent.bench.checkers import validate_params
from pcagent.env.apps import APPS
from pcagent.errors import BenchError


class TaskDefinitionError(BenchError):
    """A task file is invalid; the message names the file and the problem."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def _one_of(self, what: str, *fields: str) -> None:
        """Raises ValueError unless exactly one of ``fields`` is set: the task files' way of
        saying which kind of thing an entry is."""
        given = [name for name in fields if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(f"{what}: give exactly one of {', '.join(fields)} (got {given})")


class DocumentSpec(_Strict):
    """A word-processor document: a title paragraph (Title style) and body paragraphs."""

    title: str = ""
    paragraphs: list[str] = Field(default_factory=list)


class WorkbookSpec(_Strict):
    """A spreadsheet: one sheet, rows of cells (first row usually headers)."""

    sheet: str = "Sheet1"
    rows: list[list[str | int | float | None]] = Field(default_factory=list)


class FileFixture(_Strict):
    """A file written into HOME before the task: ``text``, a ``docx`` document or an ``xlsx``
    workbook (exactly one); ``environment`` names whose HOME (default: the task's first
    environment)."""

    path: str
    environment: str | None = None
    text: str | None = None
    docx: DocumentSpec | None = None
    xlsx: WorkbookSpec | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> FileFixture:
        self._one_of(self.path, "text", "docx", "xlsx")
        if self.path.startswith("/") or ".." in Path(self.path).parts:
            raise ValueError(f"{self.path}: fixture paths are relative to HOME")
        return self


class AttachmentSpec(_Strict):
    """A text file attached to a fixture message."""

    name: str
    text: str


class MessageFixture(_Strict):
    """A message in the mail client when the task starts (in the Inbox, or in Sent for
    ``sent`` fixtures, where ``to`` names the recipient)."""

    sender: str = ""
    to: str = ""
    subject: str
    body: str
    date: str = "2024-05-02 09:30"
    attachments: list[AttachmentSpec] = Field(default_factory=list)


class OpenApp(_Strict):
    """An application open when the task starts, optionally on a fixture file, on the named
    environment (default: the task's first)."""

    app: str
    file: str = ""
    environment: str | None = None


class Fixtures(_Strict):
    files: list[FileFixture] = Field(default_factory=list)
    open: list[OpenApp] = Field(default_factory=list)
    #: Benchmark services the task needs running: ``web`` (offline websites), ``mail`` (SMTP sink
    #: and a mail profile).
    services: list[Literal["web", "mail"]] = Field(default_factory=list)
    #: Alarms and world clocks pre-seeded in gnome-clocks' settings (GSettings key -> value text).
    gsettings: dict[str, str] = Field(default_factory=dict)
    #: Messages in the mail client's Inbox (needs the ``mail`` service): sender, subject, body,
    #: date ("2024-05-02 09:30").
    inbox: list[MessageFixture] = Field(default_factory=list)
    #: Messages the user sent earlier (the Sent folder); ``sender`` defaults to the user.
    sent: list[MessageFixture] = Field(default_factory=list)


class SubtaskSpec(_Strict):
    """One subtask of the task, as a person would split it (for SSR and manager accuracy)."""

    id: str
    description: str
    app: str
    #: Where the subtask is done (default: the task's first environment).
    environment: str | None = None


class SubGoal(_Strict):
    """One node of the sub-goal graph: a checker with parameters, inside one subtask.

    ``after`` names nodes that must pass first (the node is not checked before). ``final`` nodes
    are checked again at the end: what they check must still hold then (a saved file, a value).
    """

    id: str
    subtask: str
    checker: str
    params: dict[str, Any] = Field(default_factory=dict)
    after: list[str] = Field(default_factory=list)
    final: bool = True
    description: str = ""
    #: Whose state the checker reads: its HOME, desktop and services (default: the task's
    #: first environment).
    environment: str | None = None


class ReferenceStep(_Strict):
    """One step of a reference solution: an ``action`` (any typed action, as JSON), or a click
    on the element with this ``click`` name (and optional ``role``) in the current observation,
    or ``wait_for`` a window whose title contains the text, or ``wait_gone`` until no window's
    title contains it (a compose window closing once the mail is sent).

    ``if_open`` makes an action conditional: it runs only when a window titled like that is
    still open a few seconds later. A file chooser's Enter sometimes only accepts the location
    bar's completion and sometimes already picks the file; a second, conditional Enter covers
    both without a blind Enter landing in the window behind."""

    action: dict[str, Any] | None = None
    click: str | None = None
    role: str | None = None
    wait_for: str | None = None
    wait_gone: str | None = None
    if_open: str | None = None
    #: Where the step runs (default: the task's first environment).
    environment: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> ReferenceStep:
        self._one_of("a reference step", "action", "click", "wait_for", "wait_gone")
        if self.action is not None:
            parse_action(self.action)
        if self.if_open is not None and self.action is None:
            raise ValueError("if_open makes an action conditional; this step has no action")
        return self


#: The one environment of a task that names none.
DEFAULT_ENVIRONMENT = "main"
_ENVIRONMENT_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")


class Task(_Strict):
    """A benchmark task.

    ``environments`` names the desktops a cross-environment task spans (``[workstation,
    laptop]``); subtasks, sub-goals, reference steps and fixtures name the one they belong to,
    the first by default. The mail and web services and the Clocks settings belong to the first.
    A task that names none has one environment, :data:`DEFAULT_ENVIRONMENT`.
    """

    id: str
    instruction: str
    apps: list[str]
    environments: tuple[str, ...] = (DEFAULT_ENVIRONMENT,)
    #: The PC-Eval instruction this task re-creates (for the report).
    source: str = ""
    #: The id of the task whose instruction this one says in other words, with everything else
    #: (fixtures, sub-goals, references) the same: a rewording of the development set
    #: (``tasks_reworded/``). ``pcagent bench compare`` puts it beside that task; "" for a task
    #: of its own.
    rewords: str = ""
    fixtures: Fixtures = Field(default_factory=Fixtures)
    subtasks: list[SubtaskSpec]
    nodes: list[SubGoal]
    #: The author's solution through the GUI alone (mouse and keyboard); optional: a task runs
    #: with the references it has, and ``--agent reference`` skips a task without one.
    reference: list[ReferenceStep] = Field(default_factory=list)
    #: The author's solution with application actions wherever one fits (GUI for the rest).
    reference_api: list[ReferenceStep] = Field(default_factory=list)
    #: The gold program: the Manager's program that does the task with the skills (GUI steps
    #: where none fits), in its format (``{"id": "s1", "skill": ..., "args": ...}``). Training
    #: tasks generated from templates carry one, for long-term memory to show the Manager; the
    #: tasks measured with (the 25, their rewordings) carry none. None: no program.
    program: list[ProgramStep] | None = Field(default=None, min_length=1, max_length=20)

    def permitted_effects(self) -> tuple[str, ...]:
        """The safety categories the person giving this instruction permits, as ``[safety]
        allow`` would: a task whose graph checks that a mail was sent asks for the sending
        (which auto mode otherwise rejects at the relay)."""
        return ("send_mail",) if any(node.checker == "mail_sent" for node in self.nodes) else ()

    @model_validator(mode="after")
    def _consistent(self) -> Task:
        unknown_apps = sorted(
            {*self.apps, *(s.app for s in self.subtasks), *(o.app for o in self.fixtures.open)}
            - set(APPS)
        )
        if unknown_apps:
            raise ValueError(f"unknown apps {unknown_apps}; known: {sorted(APPS)}")
        self._check_environments()
        subtask_ids = {s.id for s in self.subtasks}
        node_ids = [n.id for n in self.nodes]
        if len(set(node_ids)) != len(node_ids):
            raise ValueError("sub-goal ids repeat")
        for node in self.nodes:
            if node.subtask not in subtask_ids:
                raise ValueError(f"sub-goal {node.id} names unknown subtask {node.subtask}")
            missing = [a for a in node.after if a not in node_ids]
            if missing:
                raise ValueError(f"sub-goal {node.id} comes after unknown nodes {missing}")
            validate_params(node.checker, node.params)
        _check_acyclic(self.nodes)
        return self

    def _check_environments(self) -> None:
        names = self.environments
        if not names:
            raise ValueError("environments: name at least one, or leave the field out")
        if len(set(names)) != len(names):
            raise ValueError(f"environments {list(names)} repeat a name")
        bad = [name for name in names if not _ENVIRONMENT_NAME.fullmatch(name)]
        if bad:
            raise ValueError(
                f"environment names {bad} are not lower-case words (letters, digits, - and _)"
            )
        parts: list[tuple[str, str | None]] = [
            *((f"fixture file {f.path}", f.environment) for f in self.fixtures.files),
            *((f"open application {o.app}", o.environment) for o in self.fixtures.open),
            *((f"subtask {s.id}", s.environment) for s in self.subtasks),
            *((f"sub-goal {n.id}", n.environment) for n in self.nodes),
            *((f"reference step {i}", r.environment) for i, r in enumerate(self.reference, 1)),
            *(
                (f"reference_api step {i}", r.environment)
                for i, r in enumerate(self.reference_api, 1)
            ),
        ]
        unknown = [f"{what} names {name!r}" for what, name in parts if name not in (None, *names)]
        if unknown:
            raise ValueError(
                f"unknown environments: {'; '.join(unknown)}; this task's environments are "
                f"{list(names)} (declare them in `environments:`)"
            )

    @property
    def is_cross_environment(self) -> bool:
        """Whether the task spans more than one desktop."""
        return len(self.environments) > 1

    def environment_of(
        self, part: FileFixture | OpenApp | SubtaskSpec | SubGoal | ReferenceStep
    ) -> str:
        """The environment ``part`` belongs to: the one it names, or the task's first."""
        return part.environment or self.environments[0]

    def fixture_files(self, environment: str) -> list[FileFixture]:
        """The fixture files written into ``environment``'s HOME."""
        return [f for f in self.fixtures.files if self.environment_of(f) == environment]

    def fixture_apps(self, environment: str) -> list[OpenApp]:
        """The applications open on ``environment`` when the task starts."""
        return [o for o in self.fixtures.open if self.environment_of(o) == environment]

    def has_reference(self, api: bool) -> bool:
        """Whether the task has a reference solution through the GUI (``api`` False) or with
        application actions (``api`` True)."""
        return bool(self.reference_api if api else self.reference)

    def node(self, node_id: str) -> SubGoal:
        return next(n for n in self.nodes if n.id == node_id)


def _check_acyclic(nodes: list[SubGoal]) -> None:
    remaining = {n.id: set(n.after) for n in nodes}
    while remaining:
        ready = [i for i, after in remaining.items() if not after]
        if not ready:
            raise ValueError(f"sub-goals {sorted(remaining)} depend on each other in a cycle")
        for node_id in ready:
            del remaining[node_id]
        for after in remaining.values():
            after.difference_update(ready)
