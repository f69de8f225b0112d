"""The further desktops of cross-environment tasks: what they are, how a worker gets them, and how
each is set up for a task.

A cross-environment task names its desktops (``environments: [workstation, laptop]``). The
first is always the worker's own sandbox, set up as for any task. Every further one is a
:class:`TaskEnvironment`: a second local :class:`~pcagent.env.sandbox.SandboxDesktop`, or a
desktop another process serves (``pcagent serve``), reached with
:func:`pcagent.env.remote_client.connect`. A served desktop's fixture files are written into its
HOME when the server tells where that is (only a loopback server does: ``served_home``); a
served desktop whose HOME is elsewhere takes no fixture files, and only checkers that read
through its client (windows, the screen) can check it.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pcagent import actions as act
from pcagent.bench.fixtures import open_fixture_apps, prepare_home
from pcagent.bench.tasks import Task
from pcagent.env.protocol import Environment
from pcagent.env.sandbox import SandboxDesktop
from pcagent.errors import ConfigurationError, PcAgentError


@dataclass(frozen=True)
class RemoteDesktop:
    """A further environment served by ``pcagent serve``: its address and token file."""

    url: str
    token_file: Path


@dataclass
class TaskEnvironment:
    """One further desktop of a worker: the environment (a local sandbox or a remote one) and
    its HOME on this machine (None when it is elsewhere)."""

    name: str
    environment: Environment
    home: Path | None

    @property
    def sandbox(self) -> SandboxDesktop | None:
        """The local sandbox, when this environment is one."""
        return self.environment if isinstance(self.environment, SandboxDesktop) else None


_ASSIGNMENT = re.compile(r"([a-z][a-z0-9_-]*)=(.+)")


def parse_assignments(values: Sequence[str], what: str) -> dict[str, str]:
    """``["laptop=http://127.0.0.1:8766"]`` -> ``{"laptop": "http://127.0.0.1:8766"}``;
    :class:`ConfigurationError` for a value without ``NAME=`` or a name given twice."""
    found: dict[str, str] = {}
    for value in values:
        match = _ASSIGNMENT.fullmatch(value.strip())
        if match is None:
            raise ConfigurationError(f"{what} {value!r}: give NAME=VALUE, e.g. laptop=...")
        name, assigned = match.groups()
        if name in found:
            raise ConfigurationError(f"{what} names {name!r} twice")
        found[name] = assigned
    return found


def remote_desktops(urls: Mapping[str, str], tokens: Mapping[str, str]) -> dict[str, RemoteDesktop]:
    """Pair each remote environment's address with its token file; both must be given."""
    without_token = sorted(set(urls) - set(tokens))
    without_url = sorted(set(tokens) - set(urls))
    if without_token or without_url:
        raise ConfigurationError(
            f"each remote environment needs an address and a token file: no token file for "
            f"{without_token}, no address for {without_url}"
        )
    return {name: RemoteDesktop(urls[name], Path(tokens[name]).expanduser()) for name in urls}


def remote_desktop_sets(
    urls: Sequence[str], tokens: Sequence[str], what: str = "--environment"
) -> list[dict[str, RemoteDesktop]]:
    """``NAME=URL`` and ``NAME=PATH`` values where a name may repeat (one served desktop per
    worker): the i-th of each name's addresses goes with the i-th of its token files, and the
    i-th worker gets the i-th desktop of every name. :class:`ConfigurationError` when a name has
    more addresses than token files (or the other way round), or names have different counts."""
    addresses = _assignment_lists(urls, what)
    token_files = _assignment_lists(tokens, f"{what}-token")
    for name in sorted(set(addresses) | set(token_files)):
        given, paired = len(addresses.get(name, [])), len(token_files.get(name, []))
        if given != paired:
            raise ConfigurationError(
                f"{name}: {given} addresses and {paired} token files; give each served "
                f"desktop its {what}-token, in the same order"
            )
    counts = {len(values) for values in addresses.values()}
    if len(counts) > 1:
        raise ConfigurationError(
            f"give every further environment the same number of served desktops (one per "
            f"worker): {', '.join(f'{n}: {len(v)}' for n, v in addresses.items())}"
        )
    workers = counts.pop() if counts else 0
    return [
        {
            name: RemoteDesktop(values[i], Path(token_files[name][i]).expanduser())
            for name, values in addresses.items()
        }
        for i in range(workers)
    ]


def _assignment_lists(values: Sequence[str], what: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for value in values:
        ((name, assigned),) = parse_assignments([value], what).items()
        found.setdefault(name, []).append(assigned)
    return found


def further_environment_names(tasks: Sequence[Task]) -> list[str]:
    """The environments the tasks need beyond each one's first, in order of appearance."""
    names: dict[str, None] = {}
    for task in tasks:
        for name in task.environments[1:]:
            names.setdefault(name, None)
    return list(names)


def check_remote_desktops(
    tasks: Sequence[Task], remotes: Mapping[str, RemoteDesktop], parallel: int
) -> None:
    """Refuse, before anything starts, remote environments no task has as a further one, and
    remote environments shared by parallel workers (one desktop cannot serve two tasks)."""
    further = set(further_environment_names(tasks))
    firsts = {task.environments[0] for task in tasks}
    unknown = sorted(set(remotes) - further)
    if unknown:
        first = sorted(set(unknown) & firsts)
        hint = (
            f"; {first} is a task's first environment, which is always the worker's own sandbox"
            if first
            else ""
        )
        raise ConfigurationError(
            f"remote environments {unknown} are not further environments of the chosen tasks "
            f"(those are {sorted(further)}){hint}"
        )
    if remotes and parallel > 1:
        raise ConfigurationError(
            "a remote environment serves one task at a time: run with --parallel 1"
        )


def open_further_environments(
    tasks: Sequence[Task],
    remotes: Mapping[str, RemoteDesktop],
    start_sandbox: Callable[[], SandboxDesktop],
    stack: contextlib.ExitStack,
) -> dict[str, TaskEnvironment]:
    """Every further environment the tasks need, each closed by ``stack``: a connection to the
    remote desktop given for its name, else a local sandbox from ``start_sandbox``."""
    from pcagent.env.remote_client import connect

    opened: dict[str, TaskEnvironment] = {}
    for name in further_environment_names(tasks):
        remote = remotes.get(name)
        if remote is None:
            sandbox = stack.enter_context(start_sandbox())
            opened[name] = TaskEnvironment(name, sandbox, sandbox.home)
            continue
        environment = stack.enter_context(connect(remote.url, token_file=remote.token_file))
        served = environment.capabilities.served_home
        opened[name] = TaskEnvironment(name, environment, Path(served) if served else None)
    return opened


def prepare_further(task: Task, environment: TaskEnvironment) -> float:
    """Reset a further environment for ``task``: applications closed, HOME restored (by the
    desktop's own reset, through its server for a remote one), then the task's files for it
    written. Returns the seconds it took.

    Raises :class:`PcAgentError` when the task has fixture files for a remote environment whose
    HOME is not on this machine.
    """
    started = time.perf_counter()
    files = task.fixture_files(environment.name)
    if files and environment.home is None:
        raise PcAgentError(
            f"task {task.id} has fixture files for environment {environment.name!r}, whose "
            "server does not share its HOME (only `pcagent serve` on a loopback address does, "
            "for a sandbox); serve it on 127.0.0.1, or leave that environment's fixtures empty"
        )
    environment.environment.reset()
    if environment.home is not None:
        prepare_home(environment.home, task, environment.name)
    return time.perf_counter() - started


def open_further_apps(task: Task, environment: TaskEnvironment) -> None:
    """Open the applications the task starts with on a further environment (a remote one only
    without a file: the client opens applications by name)."""
    sandbox = environment.sandbox
    if sandbox is not None:
        open_fixture_apps(sandbox, sandbox.home, task, environment.name)
        return
    for entry in task.fixture_apps(environment.name):
        if entry.file:
            raise PcAgentError(
                f"task {task.id} opens {entry.file} on the remote environment "
                f"{environment.name!r}; a remote application opens without a file"
            )
        result = environment.environment.execute(act.OpenApp(app=entry.app))
        if not result.ok:
            raise PcAgentError(
                f"could not open {entry.app} on {environment.name!r}: {result.message}"
            )
