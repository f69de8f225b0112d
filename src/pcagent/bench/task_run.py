"""Running one benchmark task: in a reset sandbox, with an agent, evaluated after every step.

Agents: ``reference`` (the task's scripted solution through the GUI), ``reference-api`` (its
solution with application actions), ``noop`` (does nothing; every task must fail
with it) and ``pcagent`` (the full system, or an ablation of it, with the configured model).
The sandbox is reset before the task (applications closed, HOME restored, fixtures written), and
the reset time is measured. Many tasks: :func:`pcagent.bench.runner.run_tasks` (threads on this
machine) and :func:`pcagent.bench.ray_runner.run_tasks_on_ray` (Ray).
"""

from __future__ import annotations

import contextlib
import sys
import time
import traceback
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pcagent import actions as act
from pcagent.bench.checkers import CheckContext
from pcagent.bench.environments import (
    TaskEnvironment,
    open_further_apps,
    prepare_further,
)
from pcagent.bench.evaluator import Contexts, GraphEvaluator, NodeState
from pcagent.bench.failure_causes import INTERNAL_ERROR, RunFacts, failure_causes
from pcagent.bench.fixtures import open_fixture_apps, prepare_home
from pcagent.bench.metrics import TaskOutcome
from pcagent.bench.pcagent_run import PcagentRunRecord, decision_counts, grade_run, run_pcagent
from pcagent.bench.reference import run_reference
from pcagent.bench.reference_recording import (
    RecordingEnvironment,
    finish_recording,
    start_recording,
)
from pcagent.bench.tasks import Task
from pcagent.code_version import code_version
from pcagent.config import DesktopConfig, PcAgentConfig
from pcagent.env.environment_set import environment_set
from pcagent.env.protocol import Environment, OutgoingMail
from pcagent.env.sandbox import SandboxDesktop
from pcagent.env.sandbox_config import SandboxConfig
from pcagent.errors import PcAgentError

if TYPE_CHECKING:
    from pcagent.assembly import RunParts
    from pcagent.runtime.record.store import RunStore

AgentName = Literal["reference", "reference-api", "noop", "pcagent"]


@dataclass
class TaskRun:
    """One task's result."""

    task: Task
    agent: str
    outcome: TaskOutcome
    nodes: list[NodeState]
    answers: list[str] = field(default_factory=list)
    run_id: str | None = None
    error: str | None = None
    #: How many times the task was started (a task whose worker died is run again elsewhere).
    attempts: int = 1
    #: The version of pcagent's code that ran it (on Ray, the actor's).
    code: str = field(default_factory=code_version)


@dataclass
class Services:
    """The benchmark services a sandbox's tasks use, started once per sandbox."""

    web: Any = None
    mail: Any = None

    def as_mapping(self) -> dict[str, Any]:
        return {name: value for name, value in (("web", self.web), ("mail", self.mail)) if value}


@contextlib.contextmanager
def services_for(tasks: Sequence[Task], folder: Any) -> Iterator[Services]:
    """Start the offline websites and the SMTP sink when some task needs them."""
    needed = {service for task in tasks for service in task.fixtures.services}
    services = Services()
    with contextlib.ExitStack() as stack:
        if "web" in needed:
            from pcagent.bench.web.server import OfflineWeb

            services.web = stack.enter_context(OfflineWeb().start())
        if "mail" in needed:
            from pcagent.bench.mail import SmtpSink

            services.mail = stack.enter_context(SmtpSink(folder=folder / "mail").start())
        yield services


def sandbox_config_for(services: Services, desktop: DesktopConfig | None = None) -> SandboxConfig:
    """The ``[desktop]`` settings (default: the defaults), with the browser pointed at the
    offline websites, released mail going on to the SMTP sink the checkers read, and a watchdog
    that closes the sandbox should the benchmark's process be killed outright."""
    from pcagent.assembly import sandbox_config

    flags = list(services.web.chromium_flags()) if services.web is not None else []
    config = sandbox_config(desktop or DesktopConfig(), browser_flags=flags)
    if services.mail is not None:
        config = config.model_copy(
            update={"mail_upstream": (services.mail.host, services.mail.port)}
        )
    return config.model_copy(update={"guard": True})


def _prepare(desktop: SandboxDesktop, task: Task, services: Services) -> float:
    """Reset the sandbox for ``task``; returns the reset time in seconds."""
    started = time.perf_counter()
    desktop.reset()
    prepare_home(desktop.home, task)
    if services.mail is not None and "mail" in task.fixtures.services:
        from pcagent.bench.mail_profile import MailMessage, write_mail_profile

        inbox = [MailMessage(**message.model_dump()) for message in task.fixtures.inbox]
        sent = [MailMessage(**message.model_dump()) for message in task.fixtures.sent]
        # The client sends to the sandbox's relay, which holds each message until it is
        # released on to the sink.
        relay_port = desktop.mail_relay_address[1]
        write_mail_profile(desktop.home, smtp_port=relay_port, inbox=inbox, sent=sent)
        services.mail.clear()
    if services.web is not None and "web" in task.fixtures.services:
        from pcagent.bench.web.server import trust_ca_in_home

        trust_ca_in_home(desktop.home, services.web.ca_pem_path)
        services.web.clear_log()
    return time.perf_counter() - started


def run_task(
    task: Task,
    agent: AgentName,
    desktop: SandboxDesktop,
    services: Services,
    *,
    config: PcAgentConfig | None = None,
    models: Any = None,
    ablation: str = "none",
    parts: RunParts | None = None,
    record_to: RunStore | None = None,
    further: Mapping[str, TaskEnvironment] | None = None,
) -> TaskRun:
    """Run one task on ``desktop`` (a started sandbox) and evaluate it.

    The ``pcagent`` agent runs with ``parts`` when given (their desktop must be ``desktop``: the
    runner keeps one per worker), else with parts assembled for this task from ``config``,
    ``models`` and ``ablation``. A reference solution is recorded as a run in ``record_to`` when
    given (what the page graph learns from); a pcagent run's record gets its grade either way.

    A cross-environment task runs on ``desktop`` as its first environment and on ``further``
    (by name) as the others; each is reset and given its fixtures, each reference step runs on
    the environment it names and each sub-goal is checked there. Raises :class:`PcAgentError`
    when one of its environments is missing from ``further``.
    """
    environments = _task_environments(task, desktop, further or {})
    reset_seconds = _prepare(desktop, task, services)
    reset_seconds += sum(prepare_further(task, environments[name]) for name in environments)
    started = time.perf_counter()
    answers: list[str] = []
    context = _check_contexts(task, desktop, environments, answers, services)
    attempt = _Attempt(task, desktop, environments, GraphEvaluator(task), answers, context)
    error = None
    try:
        open_fixture_apps(desktop, desktop.home, task)
        for further_environment in environments.values():
            open_further_apps(task, further_environment)
        if agent in ("reference", "reference-api"):
            _run_reference_agent(attempt, agent == "reference-api", record_to)
        elif agent == "pcagent":
            _run_pcagent_agent(attempt, config, models, ablation, parts)
        elif agent != "noop":
            raise PcAgentError(
                f"unknown agent {agent!r}; use reference, reference-api, noop or pcagent"
            )
    except PcAgentError as failure:
        error = f"{type(failure).__name__}: {failure}"
    except Exception as failure:  # a fault of pcagent's own, in this task alone
        # It ends this task, not a run of fifty (a mend's validation error did, 2026-12-04).
        traceback.print_exc(file=sys.stderr)
        error = f"{INTERNAL_ERROR}{type(failure).__name__}: {failure}"
    evaluator, record = attempt.evaluator, attempt.record
    evaluator.finish(attempt.context, attempt.steps)
    causes = _failure_causes_of(attempt, agent, error)
    subtasks = evaluator.subtask_success()
    success = evaluator.success and error is None
    if attempt.recording is not None:
        finish_recording(attempt.recording, success, error)
    if record is not None:
        grade_run(record.store_root, record.run_id, task, success)
    outcome = TaskOutcome(
        task_id=task.id,
        success=success,
        completion_ratio=evaluator.completion_ratio,
        subtasks_passed=sum(subtasks.values()),
        subtasks_total=len(subtasks),
        actions=attempt.steps,
        tokens=record.tokens if record is not None else 0,
        seconds=time.perf_counter() - started,
        reset_seconds=reset_seconds,
        flagged_steps=tuple(record.flagged if record is not None else []),
        completion_history=tuple(evaluator.history),
        planned_apps=record.planned if record is not None else None,
        task_apps=tuple(s.app for s in task.subtasks),
        failure_causes=causes,
        **(decision_counts(record.records, record.events) if record is not None else {}),
    )
    run_id = record.run_id if record is not None else None
    nodes = list(evaluator.states.values())
    return TaskRun(task, agent, outcome, nodes, attempt.answers, run_id, error)


@dataclass
class _Attempt:
    """One run of a task as it goes: filled step by step, so a failure part-way keeps what was
    done (the steps taken, the recording to finish, the pcagent run's record)."""

    task: Task
    desktop: SandboxDesktop
    environments: dict[str, TaskEnvironment]
    evaluator: GraphEvaluator
    answers: list[str]
    context: Contexts
    steps: int = 0
    record: PcagentRunRecord | None = None
    recording: RecordingEnvironment | None = None

    def further_environments(self) -> dict[str, Environment]:
        return {name: env.environment for name, env in self.environments.items()}


def _check_contexts(
    task: Task,
    desktop: SandboxDesktop,
    environments: Mapping[str, TaskEnvironment],
    answers: list[str],
    services: Services,
) -> Contexts:
    """What the checkers read: the desktop's, or one per environment of a cross-environment
    task, all sharing the answers the agent gives."""
    context: Contexts = CheckContext(desktop.home, desktop, answers, services.as_mapping())
    if task.is_cross_environment:
        context = {
            task.environments[0]: context,
            **{
                name: CheckContext(env.home, env.environment, answers, services.as_mapping())
                for name, env in environments.items()
            },
        }
    return context


def _run_reference_agent(attempt: _Attempt, api: bool, record_to: RunStore | None) -> None:
    """Play the task's reference solution, checking after every step and releasing the mail it
    sends; recorded as a run in ``record_to`` when given."""
    task, desktop, evaluator = attempt.task, attempt.desktop, attempt.evaluator
    senders = [desktop, *attempt.further_environments().values()]

    def after(number: int, action: act.Action | None) -> None:
        if isinstance(action, act.Answer):
            attempt.answers.append(action.text)
        for sender in senders:
            _release_reference_mail(sender)
        evaluator.evaluate(attempt.context, number)

    first: Any = desktop
    if record_to is not None:
        if task.is_cross_environment:
            raise PcAgentError(
                f"task {task.id} spans several desktops; its reference runs are not "
                "recorded (a run record holds one desktop's screens)"
            )
        attempt.recording = start_recording(record_to, task, desktop)
        first = attempt.recording
    by_name = {task.environments[0]: first, **attempt.further_environments()}
    attempt.steps = run_reference(by_name, task, after, api=api)
    for sender in senders:
        _release_reference_mail(sender)


def _run_pcagent_agent(
    attempt: _Attempt,
    config: PcAgentConfig | None,
    models: Any,
    ablation: str,
    parts: RunParts | None,
) -> None:
    """Run the full system on the task, checking after every step."""
    task = attempt.task
    target: Any = attempt.desktop
    runs_dir = None
    progress = None
    if task.is_cross_environment:
        # All the task's desktops, as one environment the run switches between by
        # subtask; the worker's parts drive its first desktop alone, so this run gets
        # its own, with the worker's models and run records.
        target = environment_set(
            {task.environments[0]: attempt.desktop, **attempt.further_environments()}
        )
        if parts is not None:
            models, runs_dir, progress = (
                models or parts.models,
                parts.store.root,
                parts.progress,
            )
            parts = None
    attempt.record = run_pcagent(
        task,
        target,
        attempt.evaluator,
        attempt.context,
        attempt.answers,
        config,
        models,
        ablation,
        parts,
        runs_dir,
        progress,
    )
    attempt.steps = attempt.record.steps


def _failure_causes_of(attempt: _Attempt, agent: str, error: str | None) -> tuple[str, ...]:
    """Why a pcagent run failed, from its record; empty for the other agents."""
    task, record, evaluator = attempt.task, attempt.record, attempt.evaluator
    if record is not None:
        facts = RunFacts(
            steps=record.records,
            events=record.events,
            nodes=list(evaluator.states.values()),
            status=record.status,
            summary=record.summary,
            planned_apps=record.planned,
            error=error,
            completion=tuple(evaluator.history),
        )
        return tuple(failure_causes(task, facts))
    if agent == "pcagent" and error is not None:
        # The run never got going (the desktop failed before its first step): still a cause.
        facts = RunFacts(
            steps=[], events=[], nodes=list(evaluator.states.values()), status="failed", error=error
        )
        return tuple(failure_causes(task, facts))
    return ()


def _task_environments(
    task: Task, desktop: SandboxDesktop, further: Mapping[str, TaskEnvironment]
) -> dict[str, TaskEnvironment]:
    """The further environments ``task`` uses, by name (none for a one-desktop task)."""
    needed = task.environments[1:]
    missing = [name for name in needed if name not in further]
    if missing:
        raise PcAgentError(
            f"task {task.id} also runs on {missing}; this run has "
            f"{sorted(further) or 'no further desktops'}"
        )
    chosen = {name: further[name] for name in needed}
    if any(env.environment is desktop for env in chosen.values()):
        raise PcAgentError(f"task {task.id}: each environment needs a desktop of its own")
    return chosen


def _release_reference_mail(environment: object) -> None:
    """Release every message the mail client holds: a reference solution is the task author's
    script, and what it sends is meant to be sent (as with ``[safety] allow = ["send_mail"]``)."""
    if isinstance(environment, OutgoingMail):
        for message in environment.held_mail():
            environment.release_mail(message.id)
