"""The caller's side of the accessibility worker (see :mod:`pcagent.env.accessibility_worker`).

One :class:`AccessibilityClient` per sandbox. A worker that hangs or dies is killed and started
again on the next request, so one misbehaving application cannot wedge a run; that plumbing is
:class:`WorkerProcess`, which the LibreOffice worker (:mod:`pcagent.env.office_process`) uses too.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import json
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pcagent.env.observation import Box, Element, TextState
from pcagent.env.processes import RunAs, user_options
from pcagent.errors import AccessibilityError, DesktopError

STARTUP_TIMEOUT = 20.0

# Runs a worker whose sources arrive on an inherited file descriptor (see WorkerProcess._start):
# argv is [FD, NAME, *args]; the descriptor holds a JSON bundle (see WorkerProcess._bundle) of the
# modules of this package the worker imports, loaded first under their own names so its imports
# find them, then the worker's source; the worker sees sys.argv == [NAME, *args].
_BOOTSTRAP = (
    "import json, sys, types\n"
    "with open(int(sys.argv[1]), encoding='utf-8') as bundle_file:\n"
    "    bundle = json.load(bundle_file)\n"
    "sys.argv = sys.argv[2:]\n"
    "for name, source in bundle['support']:\n"
    "    module = sys.modules[name] = types.ModuleType(name)\n"
    "    exec(compile(source, name, 'exec'), module.__dict__)\n"
    "exec(compile(bundle['worker'], sys.argv[0], 'exec'))\n"
)

#: The package whose modules a worker may import and get shipped with it (standard library only).
_SHIPPABLE_PACKAGE = "pcagent."


def _source_of(module: str) -> str | None:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return None
    with open(spec.origin, encoding="utf-8") as module_file:
        return module_file.read()


#: Python 3.11's parser is not safe to run in two threads at once: two sandboxes started
#: together (``bench run --parallel``, the tests) failed with "SystemError: AST constructor
#: recursion depth mismatch" while bundling their workers' sources.
_PARSING = threading.Lock()


def _package_imports(source: str) -> list[str]:
    """The modules of this package that ``source`` imports with ``from pcagent.x import ...``."""
    with _PARSING:
        tree = ast.parse(source)
    return [
        node.module
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        and node.module is not None
        and node.module.startswith(_SHIPPABLE_PACKAGE)
    ]


@dataclass(frozen=True)
class TabText:
    """One tab of a document editor's window: the window's title, the tab's name, whether it is
    the tab in front, and the full text of its text view."""

    window: str
    name: str
    selected: bool
    text: str


@dataclass(frozen=True)
class WorkerKind:
    """What a worker is, whichever sandbox it serves: the module it runs, the name its errors
    call it by, the error type they raise, and what to suspect when it hangs or exits."""

    module: str
    name: str
    error: type[DesktopError]
    hang_hint: str
    exit_hint: str


class WorkerProcess:
    """A helper program of this package that answers JSON lines on stdin/stdout.

    It starts on the first request. One that does not answer in time is killed, and one that died
    is started again on the next request, so a hung application costs one request, not the run.
    A worker says ``{"ready": true}`` once it is up, or ``{"error": ...}`` when it cannot work
    (a missing library); each answer carries ``error`` instead of its fields when a request failed.

    ``run_as`` (``(uid, gid)``) is the user of the sandbox's session: its buses accept only their
    owner, and LibreOffice's pipe is its user's, so a worker talking to them runs as that user.
    """

    def __init__(
        self,
        kind: WorkerKind,
        env: Mapping[str, str],
        *,
        timeout: float,
        args: Sequence[str] = (),
        run_as: RunAs | None = None,
    ) -> None:
        self.kind = kind
        self.run_as = run_as
        self.args = list(args)
        self.env = dict(env)
        self.timeout = timeout
        self._process: subprocess.Popen[str] | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    def _bundle(self) -> dict[str, Any]:
        """The worker's source and, dependencies first, those of the modules of this package it
        imports (each must need only the standard library and the system's gi/uno)."""
        worker = _source_of(self.kind.module)
        if worker is None:
            raise self.kind.error(
                f"the {self.kind.name} ({self.kind.module}) is missing from this installation"
            )
        support: dict[str, str] = {}
        seen: set[str] = set()

        def add_imports_of(source: str) -> None:
            for name in _package_imports(source):
                if name in seen:
                    continue
                seen.add(name)
                imported = _source_of(name)
                if imported is None:
                    raise self.kind.error(
                        f"the {self.kind.name} needs {name}, missing from this installation"
                    )
                add_imports_of(imported)
                support[name] = imported

        add_imports_of(worker)
        return {"support": list(support.items()), "worker": worker}

    def _source_descriptor(self) -> int:
        """An anonymous in-memory file holding the worker's bundle, read from the first byte."""
        descriptor = os.memfd_create(self.kind.module, os.MFD_CLOEXEC)
        os.write(descriptor, json.dumps(self._bundle()).encode("utf-8"))
        os.lseek(descriptor, 0, os.SEEK_SET)
        return descriptor

    def _start(self) -> subprocess.Popen[str]:
        if self.run_as is None:
            process = self._spawn([sys.executable, "-m", self.kind.module, *self.args], ())
        else:
            # Another user's worker must not depend on reaching this installation (a clone or a
            # virtual environment under /root is closed to it): the workers need only the standard
            # library and the system's gi/uno, so Debian's own Python runs the module's source,
            # handed over on a descriptor, in isolated mode, from "/".
            descriptor = self._source_descriptor()
            try:
                argv = [
                    sys._base_executable,  # the interpreter behind a venv (its own site-packages)
                    "-I", "-c", _BOOTSTRAP, str(descriptor), self.kind.module, *self.args,
                ]  # fmt: skip
                process = self._spawn(argv, (descriptor,))
            finally:
                os.close(descriptor)
        self._process = process
        ready = self._read_line(process, STARTUP_TIMEOUT)
        if "error" in ready:
            self.close()
            raise self.kind.error(f"the {self.kind.name} cannot start: {ready['error']}")
        return process

    def _spawn(self, argv: list[str], pass_fds: Sequence[int]) -> subprocess.Popen[str]:
        return subprocess.Popen(
            argv,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            pass_fds=tuple(pass_fds),
            cwd="/" if self.run_as is not None else None,
            **user_options(self.run_as),
        )

    def _read_line(self, process: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], timeout)
        if not ready:
            self.close()
            raise self.kind.error(
                f"the {self.kind.name} did not answer within {timeout:.0f}s; "
                f"{self.kind.hang_hint}. It will be restarted on the next request."
            )
        line = process.stdout.readline()
        if not line:
            self.close()
            raise self.kind.error(f"the {self.kind.name} exited; {self.kind.exit_hint}")
        return json.loads(line)

    def request(self, op: str, **params: Any) -> dict[str, Any]:
        """Send one request and wait for its answer; raises the worker's error type when the
        request failed, the worker did not answer in time, or it exited."""
        process = self._process
        if process is None or process.poll() is not None:
            process = self._start()
        assert process.stdin is not None
        try:
            process.stdin.write(json.dumps({"op": op, **params}) + "\n")
            process.stdin.flush()
        except BrokenPipeError as error:
            self.close()
            raise self.kind.error(f"the {self.kind.name} exited unexpectedly") from error
        answer = self._read_line(process, self.timeout)
        if "error" in answer:
            raise self.kind.error(f"{self.kind.name} request '{op}' failed: {answer['error']}")
        return answer

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(Exception):
            if process.stdin:
                process.stdin.close()
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=2)
        for stream in (process.stdout,):
            with contextlib.suppress(Exception):
                if stream:
                    stream.close()


#: The worker that reads the accessibility tree (:mod:`pcagent.env.accessibility_worker`).
ACCESSIBILITY_WORKER = WorkerKind(
    "pcagent.env.accessibility_worker",
    "accessibility worker",
    AccessibilityError,
    hang_hint="an application may be hung",
    exit_hint="is the sandbox's AT-SPI bus still running?",
)


class AccessibilityClient:
    """Talks JSON lines to a worker process that lives in the sandbox's environment."""

    def __init__(
        self, env: Mapping[str, str], timeout: float = 20.0, run_as: RunAs | None = None
    ) -> None:
        """``run_as``: the user the sandbox's session runs as (see :class:`WorkerProcess`)."""
        self.env = dict(env)
        self.timeout = timeout
        self._worker = WorkerProcess(ACCESSIBILITY_WORKER, self.env, run_as=run_as, timeout=timeout)

    @property
    def pid(self) -> int | None:
        return self._worker.pid

    def request(self, op: str, **params: Any) -> dict[str, Any]:
        return self._worker.request(op, **params)

    def elements(
        self,
        focused_title: str | None,
        window_origins: Mapping[str, tuple[int, int]] | None = None,
        force: bool = False,
        focused_pid: int | None = None,
    ) -> tuple[list[Element], bool, float]:
        """Elements of the focused window; also whether the last answer was reused, and its ms.

        ``focused_pid`` (the focused X window's process) picks the application when no accessible
        window has the focused title and none is active (GTK4 dialogs)."""
        answer = self.request(
            "elements",
            focused_title=focused_title,
            focused_pid=focused_pid,
            window_origins={k: list(v) for k, v in (window_origins or {}).items()},
            force=force,
        )
        elements = []
        for raw in answer["elements"]:
            x, y, width, height = raw.pop("box")
            raw["states"] = frozenset(raw["states"])
            elements.append(Element(box=Box(x=x, y=y, width=width, height=height), **raw))
        return elements, bool(answer["reused"]), float(answer["ms"])

    def text_of(self, element_id: int) -> str:
        """The full, live text of an element from the last ``elements`` answer."""
        return str(self.request("text", id=element_id)["text"])

    def text_state(self, element_id: int) -> TextState:
        """Live text, caret and selections of an element from the last ``elements`` answer."""
        answer = self.request("text_state", id=element_id)
        return TextState(
            element_id=element_id,
            text=str(answer["text"]),
            caret=int(answer["caret"]),
            selections=tuple((int(start), int(end)) for start, end in answer["selections"]),
        )

    def character_boxes(self, element_id: int, offsets: Sequence[int]) -> list[Box | None]:
        """Screen boxes of characters of an element (None where the toolkit gives none)."""
        answer = self.request("character_boxes", id=element_id, offsets=list(offsets))
        return [
            None if raw is None else Box(x=raw[0], y=raw[1], width=raw[2], height=raw[3])
            for raw in answer["boxes"]
        ]

    def select_range(self, element_id: int, start: int, end: int) -> bool:
        """Select characters [start, end) of an element; False when the toolkit refused."""
        return bool(self.request("select_range", id=element_id, start=start, end=end)["ok"])

    def do_action(self, element_id: int, action: str | None = None) -> bool:
        return bool(self.request("do_action", id=element_id, action=action)["ok"])

    def applications(self) -> list[dict[str, Any]]:
        return list(self.request("applications")["applications"])

    def windows(self) -> list[dict[str, Any]]:
        return list(self.request("windows")["windows"])

    def event_count(self) -> int:
        return int(self.request("events")["events"])

    def tab_texts(self, window_titles: Sequence[str]) -> list[TabText]:
        """The text of every tab of the named windows' editable multi-line text views.

        Documents behind other tabs are included; a window without tabs gives one selected tab
        named after the window. Windows no accessible window is named like are left out.
        """
        answer = self.request("tab_texts", titles=list(window_titles))
        return [
            TabText(
                window=str(raw["window"]),
                name=str(raw["name"]),
                selected=bool(raw["selected"]),
                text=str(raw["text"]),
            )
            for raw in answer["tabs"]
        ]

    def wait_ready(self, timeout: float) -> None:
        """Wait until the accessibility bus answers (the registry may still be starting)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.request("applications")
                return
            except AccessibilityError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def close(self) -> None:
        self._worker.close()
