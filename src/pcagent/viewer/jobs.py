"""Commands the viewer starts on a run: ``pcagent runs rewind`` and ``pcagent runs replay`` as
background processes, their logs, and which of them are still running.

The viewer never changes a record itself: a rewind or a replay is the same command a person
would type, started with the viewer's data folder and configuration file, its output written to
``<data_dir>/viewer-jobs/JOB.log``. Starting a process goes through a :class:`Launcher`, so tests
give one that runs a harmless script instead of a desktop and a model.
"""

from __future__ import annotations

import os
import secrets
import shlex
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from pcagent.config import CONFIG_ENV, DATA_DIR_ENV
from pcagent.env import processes
from pcagent.errors import PcAgentError

#: How the viewer runs the command line interface: the console script may not be on PATH, and
#: the package has no ``__main__`` module, so the interpreter that runs the viewer calls it.
CLI_PREFIX = (sys.executable, "-c", "from pcagent.cli import main; main()")
#: Lines of a job's log shown on the jobs page.
LOG_TAIL_LINES = 12


class JobRefused(PcAgentError):
    """A job was not started (another one is running on the same run)."""


class LaunchedProcess(Protocol):
    """What a launcher gives back: ``subprocess.Popen`` is one."""

    @property
    def pid(self) -> int: ...

    def poll(self) -> int | None: ...


class Launcher(Protocol):
    """Starts a command in the background with ``env`` as its whole environment, its standard
    output and error appended to ``log_path``; returns at once."""

    def launch(
        self, argv: Sequence[str], env: Mapping[str, str], log_path: Path
    ) -> LaunchedProcess: ...


class SubprocessLauncher:
    """Starts the command as a child process in its own session, so that Ctrl+C in the viewer's
    terminal does not stop a rewind half-way; the viewer's end leaves it running."""

    def launch(
        self, argv: Sequence[str], env: Mapping[str, str], log_path: Path
    ) -> LaunchedProcess:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        return processes.spawn(argv, env, log_path)


def rewind_command(run_id: str, step: int, guidance: str = "") -> list[str]:
    """``pcagent runs rewind RUN --to STEP [--guidance TEXT]`` as an argument list."""
    argv = [*CLI_PREFIX, "runs", "rewind", run_id, "--to", str(step)]
    if guidance:
        argv += ["--guidance", guidance]
    return argv


def replay_command(run_id: str) -> list[str]:
    """``pcagent runs replay RUN`` as an argument list."""
    return [*CLI_PREFIX, "runs", "replay", run_id]


def shown_command(argv: Sequence[str]) -> str:
    """The command as a person would type it (``pcagent runs ...``)."""
    words = list(argv)
    if tuple(words[: len(CLI_PREFIX)]) == CLI_PREFIX:
        words = ["pcagent", *words[len(CLI_PREFIX) :]]
    return shlex.join(words)


@dataclass
class Job:
    """One started command."""

    job_id: str
    run_id: str
    #: ``rewind`` or ``replay``.
    kind: str
    argv: list[str]
    log_path: Path
    process: LaunchedProcess
    #: Unix seconds.
    started_at: float

    @property
    def exit_code(self) -> int | None:
        """None while the process runs."""
        return self.process.poll()

    @property
    def running(self) -> bool:
        return self.exit_code is None

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        """The last ``lines`` lines of the log ("" before it has any)."""
        try:
            with self.log_path.open("rb") as log:
                log.seek(0, os.SEEK_END)
                log.seek(max(0, log.tell() - 64 * 1024))
                text = log.read().decode("utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


@dataclass
class JobBoard:
    """The jobs this viewer started, newest first, at most one running per run.

    ``environment`` is the whole environment of every job (the viewer's, with its data folder
    and configuration file named); logs go to ``log_dir``.
    """

    launcher: Launcher
    environment: dict[str, str]
    log_dir: Path
    _jobs: list[Job] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def for_data_dir(
        cls, data_dir: Path, config_file: Path | None = None, launcher: Launcher | None = None
    ) -> JobBoard:
        """Jobs that see ``data_dir`` (and ``config_file`` when given) as the viewer does."""
        environment = dict(os.environ)
        environment[DATA_DIR_ENV] = str(data_dir)
        if config_file is not None:
            environment[CONFIG_ENV] = str(config_file)
        return cls(launcher or SubprocessLauncher(), environment, data_dir / "viewer-jobs")

    def start(self, run_id: str, kind: str, argv: Sequence[str]) -> Job:
        """Start ``argv`` for run ``run_id``. Raises JobRefused when a job of this run is still
        running, OSError when the process cannot be started."""
        with self._lock:
            for job in self._jobs:
                if job.run_id == run_id and job.running:
                    raise JobRefused(
                        f"a {job.kind} of run {run_id} is still running (job {job.job_id}, "
                        f"pid {job.process.pid}); wait until it ends, see /jobs"
                    )
            started = time.time()
            job_id = time.strftime("%Y%m%d-%H%M%S", time.gmtime(started)) + "-"
            job_id += secrets.token_hex(2)
            log_path = self.log_dir / f"{job_id}-{kind}.log"
            process = self.launcher.launch(list(argv), self.environment, log_path)
            job = Job(job_id, run_id, kind, list(argv), log_path, process, started)
            self._jobs.insert(0, job)
            return job

    def jobs(self) -> list[Job]:
        """Every job started, newest first."""
        with self._lock:
            return list(self._jobs)
