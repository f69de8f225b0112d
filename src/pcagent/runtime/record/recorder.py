"""Writes a run as it happens: model calls, events, and one record per step with its desktop.

The step loop hands over what a step collected (:class:`StepWork`); the recorder adds what the
desktop looks like afterwards (open windows and their documents, a HOME snapshot when the run
keeps them) and commits it before the next step begins. HOME is walked once per step: the
snapshot's manifest also names the documents window titles are matched against.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from pcagent import actions as act
from pcagent.env.observation import WindowInfo
from pcagent.env.protocol import OpenWindow, UnsavedDocument
from pcagent.errors import RunStateError
from pcagent.field_names import shared_values
from pcagent.models.structured import StructuredResult
from pcagent.runtime.loop.desktop_state import DesktopAccess, documents_in, documents_of_manifest
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import Event, PlanEvent
from pcagent.runtime.record.files import read_step_files, unsaved_file_name
from pcagent.runtime.record.models import (
    CallAttempt,
    ModelCallRecord,
    ReflectionRecord,
    RunEvent,
    StepRecord,
    StepResult,
    UnsavedFile,
)
from pcagent.runtime.record.store import RunStore
from pcagent.runtime.safety.home_snapshot import HomeSnapshots

#: The folder (under the run store) holding the content-addressed HOME snapshots of every run.
HOME_STORE = "home-store"


def home_snapshots(store: RunStore, max_file_bytes: int = 50_000_000) -> HomeSnapshots:
    """The snapshot store shared by all runs of ``store`` (so rewound runs find their parent's)."""
    return HomeSnapshots(store.root / HOME_STORE, max_file_bytes=max_file_bytes)


def initial_desktop(store: RunStore, run_id: str) -> tuple[str | None, list[OpenWindow]]:
    """The HOME snapshot and applications of a run before its first action (its plan event)."""
    for record in store.events(run_id):
        if isinstance(record.event, PlanEvent):
            return record.event.home_snapshot, list(record.event.apps)
    raise RunStateError(f"run {run_id} has no recorded start state (it never got past planning)")


@dataclass
class StepWork:
    """What one iteration of the loop collects for its record."""

    number: int
    started: float
    subtask_id: str = ""
    role: str = ""
    thought: str = ""
    action: act.Action | None = None
    result: StepResult | None = None
    reflection: ReflectionRecord | None = None
    listing: str = ""
    front_app: str = ""
    window: str = ""
    environment: str = ""
    error: str | None = None
    screenshot: Image.Image | None = None
    set_of_mark: Image.Image | None = None


@dataclass
class StepRecorder:
    """Records one run into ``store``. ``snapshots`` is None when HOME is not snapshotted."""

    store: RunStore
    desktop: DesktopAccess
    snapshots: HomeSnapshots | None
    on_step: Callable[[StepRecord], None] | None = None
    run_id: str = ""
    #: The checkpoint model calls are counted into (set when the run starts or continues).
    checkpoint: RunCheckpoint | None = None
    #: The step model calls are recorded under (0: planning before the first step).
    call_step: int = 0
    step_tokens: int = 0
    last_apps: list[OpenWindow] = field(default_factory=list)
    #: The HOME snapshot of the desktop as last recorded (effect checks compare with it).
    last_snapshot: str | None = None
    #: The documents with unsaved changes as last recorded.
    last_unsaved: list[UnsavedDocument] = field(default_factory=list)

    # --- calls and events -----------------------------------------------------------------------

    def sink(self, agent: str, result: StructuredResult[Any]) -> None:
        """Where agents report every structured call (records it, counts its tokens)."""
        tokens = result.usage.total_tokens
        self.step_tokens += tokens
        if self.checkpoint is not None:
            self.checkpoint.tokens += tokens
        self.store.add_call(
            ModelCallRecord(
                run_id=self.run_id,
                step=self.call_step,
                agent=agent,
                attempts=[
                    CallAttempt(
                        request=attempt.request.to_record(),
                        completion=attempt.completion.to_record(),
                        failure=attempt.failure.message if attempt.failure else None,
                    )
                    for attempt in result.attempts
                ],
                ok=result.ok,
                prompt_tokens=result.usage.prompt_tokens,
                completion_tokens=result.usage.completion_tokens,
                latency_s=result.usage.latency_s,
                created_at=time.time(),
            )
        )

    def event(self, step: int, event: Event) -> None:
        self.store.add_event(
            RunEvent(run_id=self.run_id, step=step, event=event, created_at=time.time())
        )

    # --- the desktop ----------------------------------------------------------------------------

    def desktop_now(self, windows: Sequence[WindowInfo]) -> tuple[str | None, list[OpenWindow]]:
        """A HOME snapshot (when kept) and the open windows with their documents."""
        home = self.desktop.home
        if home is None:
            return None, self.desktop.open_windows(windows, {})
        if self.snapshots is not None:
            snapshot_id = self.snapshots.capture(home)
            manifest = self.snapshots.last_manifest or self.snapshots.manifest(snapshot_id)
            return snapshot_id, self.desktop.open_windows(windows, documents_of_manifest(manifest))
        return None, self.desktop.open_windows(windows, documents_in(home))

    # --- steps ----------------------------------------------------------------------------------

    def write(
        self,
        work: StepWork,
        checkpoint: RunCheckpoint,
        snapshot_id: str | None,
        apps: list[OpenWindow],
        unsaved: Sequence[UnsavedDocument] = (),
    ) -> StepRecord:
        """Commit a step with the desktop after it (from :meth:`desktop_now`) and the documents
        left with unsaved changes (their contents become files of the step)."""
        self.last_apps = apps
        self.last_snapshot = snapshot_id
        self.last_unsaved = list(unsaved)
        names = [unsaved_file_name(i, d.title, d.suffix) for i, d in enumerate(unsaved, 1)]
        record = StepRecord(
            run_id=self.run_id,
            step=work.number,
            # what the step did and saw: its subtask, role, thought, action, result, window, ...
            **shared_values(work, StepRecord),
            progress=checkpoint.progress,
            hub=dict(checkpoint.hub),
            state=checkpoint.model_copy(deep=True),
            apps=apps,
            unsaved=[
                UnsavedFile(app=doc.app, title=doc.title, document=doc.document, file=name)
                for doc, name in zip(unsaved, names, strict=True)
            ],
            home_snapshot=snapshot_id,
            started_at=work.started,
            duration_ms=(time.time() - work.started) * 1000,
            tokens=self.step_tokens,
        )
        self.store.write_step(
            record,
            screenshot=work.screenshot,
            set_of_mark=work.set_of_mark,
            unsaved_files=[(name, doc.contents) for doc, name in zip(unsaved, names, strict=True)],
        )
        if self.on_step is not None:
            self.on_step(record)
        return record

    def rewrite_state(self, number: int, checkpoint: RunCheckpoint) -> None:
        """Store a checkpoint changed after its step was written (human guidance, a stop)."""
        record = self.store.step(self.run_id, number)
        self.store.write_step(record.model_copy(update={"state": checkpoint.model_copy(deep=True)}))

    def copy_steps(self, parent: str, upto: int) -> None:
        """Give a rewound run the parent's steps 1..upto (records and images)."""
        for record in self.store.steps(parent, upto=upto):
            files = read_step_files(self.store.step_dir(parent, record.step))
            self.store.write_step(record.model_copy(update={"run_id": self.run_id}), **files)
