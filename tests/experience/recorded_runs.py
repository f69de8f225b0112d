"""Run records written through the real RunStore, shaped like agents' runs: a clock app where
an alarm is added through a dialog, and a mail client where a message is written."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from pcagent import actions as act
from pcagent.agents.plan import SubtaskSpec
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.events import PlanEvent
from pcagent.runtime.record.models import (
    ReflectionRecord,
    RunEvent,
    RunStatus,
    StepRecord,
    StepResult,
)
from pcagent.runtime.record.store import RunStore

HEADER = 'marks: number role "label" =value states @x,y (centre, screen pixels)'
CLOCKS = [
    '1 tab "World" @100,40',
    '2 tab "Alarms" @200,40',
    '3 tab "Stopwatch" @300,40',
    '4 tab "Timer" @400,40',
    '5 button "Add Alarm" @640,700',
]
NEW_ALARM = [
    '1 button "Cancel" @420,200',
    '2 button "Add" @860,200',
    '3 spin "Hour" =7 @560,330',
    '4 spin "Minute" =0 @700,330',
    '5 entry "Name" @640,420',
]
INBOX = [
    '1 button "Get Messages" @60,80',
    '2 button "Write" @160,80',
    '3 button "Address Book" @260,80',
    '4 listitem "Inbox" @80,200',
]
WRITE = [
    '1 entry "To" @400,150',
    '2 entry "Subject" @400,190',
    '3 button "Send" @60,80',
    '4 button "Attach" @160,80',
]


def listing(lines: list[str]) -> str:
    return "\n".join([HEADER, *lines])


def picture(seed: int) -> Image.Image:
    """A screen-like picture: pages differ by layout, as real ones do."""
    image = Image.new("RGB", (1280, 800), "white")
    draw = ImageDraw.Draw(image)
    for row in range(8):
        for column in range(9):
            shade = (seed * 97 + row * 53 + column * 71 + row * column * seed * 13) % 256
            box = (column * 142, row * 100, column * 142 + 120, row * 100 + 80)
            draw.rectangle(box, fill=(shade,) * 3)
    return image


def record_run(
    store: RunStore,
    instruction: str,
    subtask: SubtaskSpec,
    steps: list[tuple[str, str, list[str], act.Action | None, int]],
    *,
    status: RunStatus = "finished",
    failing_step: int | None = None,
) -> str:
    """A run with one subtask that ended with ``status``; ``steps`` are (app, window title,
    listing lines, action, picture seed)."""
    run = store.create_run(instruction, {"agent": "test"})
    state = RunCheckpoint(instruction=instruction, subtasks=[subtask])
    store.add_event(
        RunEvent(run_id=run.run_id, step=0, event=PlanEvent(subtasks=[subtask], state=state))
    )
    for number, (app, window, lines, action, seed) in enumerate(steps, start=1):
        failed = number == failing_step
        store.write_step(
            StepRecord(
                run_id=run.run_id,
                step=number,
                subtask_id=subtask.id,
                role="test",
                action=action,
                result=StepResult(ok=not failed) if action is not None else None,
                reflection=ReflectionRecord(verdict="no_change" if failed else "success"),
                listing=listing(lines),
                front_app=app,
                window=window,
            ),
            screenshot=picture(seed),
        )
    store.set_status(run.run_id, status)
    return run.run_id


def alarm_run(store: RunStore, time_text: str, **options: object) -> str:
    subtask = SubtaskSpec(id="s1", description=f"Add an alarm at {time_text}", app="clock")
    return record_run(
        store,
        f"Set an alarm at {time_text} in the clock app",
        subtask,
        [
            ("clock", "Clocks", CLOCKS[:4], act.Click(x=201, y=41), 1),
            ("clock", "Clocks", CLOCKS, act.Click(x=640, y=700), 1),
            ("clock", "New Alarm", NEW_ALARM, act.TypeText(text=time_text), 2),
            ("clock", "New Alarm", NEW_ALARM, act.Click(x=860, y=200), 2),
            ("clock", "Clocks", CLOCKS, act.Done(), 1),
        ],
        **options,  # type: ignore[arg-type]
    )


def mail_run(store: RunStore, to: str) -> str:
    subtask = SubtaskSpec(id="s1", description=f"Write a mail to {to}", app="mail")
    return record_run(
        store,
        f"Send a short mail to {to} with the mail client",
        subtask,
        [
            (
                "mail",
                "Inbox - Local Folders - Mozilla Thunderbird",
                INBOX,
                act.Click(x=160, y=80),
                3,
            ),
            ("mail", "Write: (no subject) - Thunderbird", WRITE, act.Click(x=400, y=150), 4),
            ("mail", "Write: (no subject) - Thunderbird", WRITE, act.TypeText(text=to), 4),
            (
                "mail",
                "Write: (no subject) - Thunderbird",
                WRITE,
                act.Hotkey(keys=["ctrl", "enter"]),
                4,
            ),
            ("mail", "Inbox - Local Folders - Mozilla Thunderbird", INBOX, act.Done(), 3),
        ],
    )


def training_records(folder: Path) -> Path:
    """Two alarm runs, one mail run, and one failed alarm run (which must teach nothing)."""
    with RunStore(folder) as store:
        alarm_run(store, "6:45")
        alarm_run(store, "7:10")
        mail_run(store, "ann@example.test")
        alarm_run(store, "5:05", status="failed")
    return folder
