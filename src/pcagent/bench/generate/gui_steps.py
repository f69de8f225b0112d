"""Reference-solution step sequences the built-in tasks already prove on the real desktop.

Each function returns the steps in the task-file vocabulary (``ReferenceStep``): opening a file in
the text editor through its file dialog (Ctrl+O, Ctrl+L, a path), saving a new LibreOffice
document under a name, adding an alarm or a world clock in gnome-clocks, composing a mail with an
attachment in Thunderbird. Templates put these together instead of inventing new flows, so a
generated task's reference solution is as reliable as the built-in ones it copies.
"""

from __future__ import annotations

from typing import Any

from pcagent.bench.tasks import ReferenceStep


def act(kind: str, **fields: Any) -> ReferenceStep:
    """A step that executes one typed action (validated when the step is built)."""
    return ReferenceStep(action={"kind": kind, **fields})


def click(name: str, role: str) -> ReferenceStep:
    """A step that clicks the element with this name and role in the current observation."""
    return ReferenceStep(click=name, role=role)


def wait_for(title: str) -> ReferenceStep:
    return ReferenceStep(wait_for=title)


def wait_gone(title: str) -> ReferenceStep:
    return ReferenceStep(wait_gone=title)


def home_path(path: str) -> str:
    """``Documents/a.txt`` as typed into a file dialog: ``~/Documents/a.txt``."""
    return f"~/{path}"


def editor_open_file(path: str) -> list[ReferenceStep]:
    """Open a text file in mousepad through its Open dialog (as pc01 does)."""
    return _opened_through_dialog("text_editor", path)


def writer_open_file(path: str) -> list[ReferenceStep]:
    """Open a document in the word processor through its Open dialog (slower to come up than
    the editor's: waited for by its title)."""
    return _opened_through_dialog("writer", path, dialog="Open")


def _opened_through_dialog(app: str, path: str, dialog: str = "") -> list[ReferenceStep]:
    """Ctrl+O in ``app``, the path typed into the dialog's location (Ctrl+L), and the
    document's window waited for; ``dialog``: the dialog's title, waited for first."""
    return [
        act("open_app", app=app),
        act("hotkey", keys=["ctrl", "o"]),
        *([wait_for(dialog)] if dialog else []),
        act("hotkey", keys=["ctrl", "l"]),
        act("type", text=home_path(path)),
        act("press", key="enter"),
        wait_for(path.rsplit("/", 1)[-1]),
    ]


def editor_save_new_file(path: str) -> list[ReferenceStep]:
    """Save mousepad's new, typed-into document under ``path`` (as pc24 does)."""
    return [
        act("hotkey", keys=["ctrl", "s"]),
        act("wait", seconds=1),
        act("hotkey", keys=["ctrl", "a"]),
        act("type", text=home_path(path)),
        act("press", key="enter"),
        wait_for(path.rsplit("/", 1)[-1]),
    ]


def office_save_new_document(path_without_suffix: str, saved_name: str) -> list[ReferenceStep]:
    """Save a new LibreOffice document: the sandbox saves .docx/.xlsx by default, so typing the
    name without a suffix is what a person does (as pc07 and pc09 do)."""
    return [
        act("hotkey", keys=["ctrl", "s"]),
        act("wait", seconds=1),
        act("type", text=home_path(path_without_suffix)),
        act("press", key="enter"),
        wait_for(saved_name),
    ]


def clock_add_alarm(hour: int, minute: int) -> list[ReferenceStep]:
    """The gnome-clocks alarm flow of pc01: Alarms tab, Ctrl+N, hour and minute fields, Add."""
    return [
        act("open_app", app="clock"),
        click("Alarms", "page tab"),
        act("hotkey", keys=["ctrl", "n"]),
        wait_for("New Alarm"),
        act("hotkey", keys=["ctrl", "a"]),
        act("type", text=str(hour)),
        act("press", key="tab"),
        act("hotkey", keys=["ctrl", "a"]),
        act("type", text=f"{minute:02d}"),
        act("press", key="tab"),
        click("Add", "label"),
        act("wait", seconds=1),
    ]


def clock_add_world_clock(city: str) -> list[ReferenceStep]:
    """The gnome-clocks world-clock flow of pc23: World tab, Ctrl+N, search, pick, Add."""
    return [
        act("open_app", app="clock"),
        click("World", "page tab"),
        act("hotkey", keys=["ctrl", "n"]),
        wait_for("Add a New World Clock"),
        act("wait", seconds=1),
        act("type", text=city),
        click(city, "label"),
        click("Add", "label"),
        act("wait", seconds=1),
    ]


def mail_with_attachment(address: str, subject: str, attachment: str) -> list[ReferenceStep]:
    """Compose and send a mail with one attachment in Thunderbird (as pc19 does): the file chooser's buttons fall off a 1280x800 screen, so the path is
    typed after Ctrl+L."""
    return [
        act("open_app", app="mail"),
        act("wait", seconds=2),
        act("hotkey", keys=["ctrl", "n"]),
        wait_for("Write:"),
        click("To", "entry"),
        act("type", text=address),
        click("Subject", "entry"),
        act("type", text=subject),
        act("hotkey", keys=["ctrl", "shift", "a"]),
        wait_for("Attach File"),
        act("hotkey", keys=["ctrl", "l"]),
        act("type", text=home_path(attachment)),
        # Once the chooser has listed the folder, the first Enter accepts its completion and the
        # second picks the file; pressed before that, the first already picks it, and a second
        # Enter would open the attachment in the compose window: so it is pressed only if the
        # chooser is still open.
        act("wait", seconds=1),
        act("press", key="enter"),
        ReferenceStep(action={"kind": "press", "key": "enter"}, if_open="Attach File"),
        wait_gone("Attach File"),
        act("wait", seconds=1),
        act("hotkey", keys=["ctrl", "enter"]),
        wait_gone("Write:"),
        act("wait", seconds=1),
    ]
