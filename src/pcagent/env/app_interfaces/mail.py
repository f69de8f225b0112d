"""The mail actions: compose and send in the running Thunderbird, read its store, save
attachments.

``mail_compose`` uses Thunderbird's own ``-compose`` command line, run as the applications' user
against the running profile: the running client opens a compose window with the fields filled in,
as its "Write" button would. Every value is percent-encoded, so commas, quotes and ``=`` in a
subject or a file name reach the window unchanged (Thunderbird decodes values that are not
quoted); the body travels in a file (``message=``) in the sandbox's runtime folder, outside HOME,
and ``format=text`` keeps it plain text (in HTML mode ``<b>`` would turn bold). The window's
title and its accessible fields are read back.

``mail_send`` presses Ctrl+Enter in the compose window, which sends through the client's only
outgoing server, the sandbox's mail relay: the message is held there until the safety settings
release it. The action is done when the compose window has closed and the relay holds a new
message.

``mail_read`` and ``mail_save_attachment`` read the profile's mbox files
(:mod:`~pcagent.env.app_interfaces.mail_store`), the same store the client shows.
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from pcagent import actions as act
from pcagent.action_handlers import handles
from pcagent.app_actions import MailCompose, MailRead, MailSaveAttachment, MailSend
from pcagent.env.app_interfaces import Interface
from pcagent.env.app_interfaces.mail_store import (
    PROFILE,
    StoredMail,
    attachment_bytes,
    message_number,
    newest,
    read_folder,
)
from pcagent.env.app_interfaces.windows import raise_window
from pcagent.env.apps import app_of_window
from pcagent.env.observation import ActionResult, Element, WindowInfo
from pcagent.env.ownership import give_to_owner
from pcagent.env.protocol import HeldMessage
from pcagent.errors import AccessibilityError, AppInterfaceError, InvalidActionError

#: Thunderbird's compose windows are titled "Write: <subject> - Thunderbird".
COMPOSE_TITLE = "Write: "
NO_SUBJECT = "(no subject)"
#: Characters of a message's text that mail_read shows.
TEXT_LIMIT = 1500


def compose_argument(
    to: tuple[str, ...], subject: str, body_file: Path | None, attachments: list[Path]
) -> str:
    """The value of ``-compose``: comma-separated ``name=value`` pairs, each value
    percent-encoded (Thunderbird decodes a value that is not in quotes)."""

    def encoded(value: str) -> str:
        return quote(value, safe="")

    pairs = [f"to={encoded(','.join(to))}", "format=text"]
    if subject:
        pairs.append(f"subject={encoded(subject)}")
    if body_file is not None:
        pairs.append(f"message={encoded(str(body_file))}")
    if attachments:
        pairs.append(f"attachment={encoded(','.join(path.as_uri() for path in attachments))}")
    return ",".join(pairs)


def _squeezed(text: str) -> str:
    return "".join(text.split()).casefold()


class MailInterface(Interface):
    """Thunderbird's command line and keys, the relay's held messages and the mbox store."""

    #: Seconds for the compose window to appear with its fields filled in.
    compose_timeout = 30.0
    #: Seconds for the compose window to close and the relay to hold the message.
    send_timeout = 60.0
    #: Seconds a window that came up after Ctrl+Enter may stay in front with nothing sent.
    question_grace = 4.0

    @property
    def profile(self) -> Path:
        return self.home / PROFILE

    # --- compose ----------------------------------------------------------------------------------

    @handles(MailCompose)
    def _compose(self, action: MailCompose) -> ActionResult:
        attachments = [self.source(text) for text in action.attachments]
        for path in attachments:
            if not path.is_file():
                raise InvalidActionError(f"{self.shown(path)} is no file in HOME to attach")
        if self.sandbox.app_window("mail") is None:
            self.sandbox.open_app("mail")
        before = {window.window_id for window in self.sandbox.x11.windows()}
        body_file = self._body_file(action.body) if action.body else None
        try:
            argument = compose_argument(action.to, action.subject, body_file, attachments)
            answer = self.run_as_user(
                ["thunderbird", "--profile", str(self.profile), "-compose", argument]
            )
            if answer.returncode != 0:
                raise AppInterfaceError(
                    f"thunderbird -compose ended with status {answer.returncode}: "
                    f"{(answer.stderr or answer.stdout).strip()[-300:]}"
                )
            window = self._new_compose_window(before, action.subject)
            self.sandbox.wait_settled()
            problems = self._field_problems(action, attachments)
        finally:
            if body_file is not None:
                body_file.unlink(missing_ok=True)
        if problems:
            raise AppInterfaceError(
                f"the compose window {window.title!r} opened, but {'; '.join(problems)}"
            )
        attached = f"; attached {', '.join(p.name for p in attachments)}" if attachments else ""
        return ActionResult(
            ok=True,
            message=f"the compose window {window.title!r} is open, to {', '.join(action.to)}"
            f"{attached}; not sent (mail_send sends it)",
            output=window.title,
            verified=True,
        )

    def _body_file(self, body: str) -> Path:
        """The body in a file the client's user can read, in the session's runtime folder (not
        in HOME, where it would show among the user's files)."""
        state = self.sandbox.state
        if state is None:
            raise AppInterfaceError("the sandbox is not running")
        folder = Path(state.env.get("XDG_RUNTIME_DIR") or state.root)
        path = folder / f"mail-body-{secrets.token_hex(6)}.txt"
        path.write_text(body, encoding="utf-8")
        if state.run_as is not None:
            os.chown(path, *state.run_as)
        return path

    def _new_compose_window(self, before: set[int], subject: str) -> WindowInfo:
        """The compose window that appeared, once its title shows the subject (Thunderbird sets
        the title when the fields are filled in)."""
        expected = f"{COMPOSE_TITLE}{subject or NO_SUBJECT}"[:60]
        deadline = time.monotonic() + self.compose_timeout
        seen: list[str] = []
        while time.monotonic() < deadline:
            seen = [w.title for w in self.sandbox.x11.windows() if w.window_id not in before]
            for window in self.sandbox.x11.windows():
                if window.window_id not in before and window.title.startswith(expected):
                    return window
            time.sleep(0.2)
        raise AppInterfaceError(
            f"no compose window titled {expected!r} appeared within {self.compose_timeout:.0f}s"
            + (f" (new windows: {', '.join(map(repr, seen))})" if seen else "")
        )

    def _field_problems(self, action: MailCompose, attachments: list[Path]) -> list[str]:
        """What the compose window's accessible fields show differently from the action; empty
        when they match or when the window's fields cannot be read."""
        observation = self.sandbox.observe()
        focused = observation.focused_window
        if focused is None or not focused.title.startswith(COMPOSE_TITLE):
            return []  # another window took the focus: the title was the check
        elements = observation.elements
        subject = next((e for e in elements if e.role == "entry" and e.name == "Subject"), None)
        if subject is None:
            return []
        problems = []
        if subject.text != action.subject:
            problems.append(f"its subject reads {subject.text!r}")
        names = {_squeezed(e.name) for e in elements if e.name}
        for address in action.to:
            if _squeezed(address) not in names:
                problems.append(f"{address} is not among its recipients")
        shown = [_squeezed(e.name) for e in elements if e.role == "list item"]
        for path in attachments:
            if not any(name.startswith(_squeezed(path.name)) for name in shown):
                problems.append(f"{path.name} is not among its attachments")
        if action.body:
            text = self._body_text(elements)
            if text is not None and _squeezed(text) != _squeezed(action.body):
                problems.append(f"its text reads {text[:200]!r}")
        return problems

    def _body_text(self, elements: list[Element]) -> str | None:
        body = next((e for e in elements if e.name == "Message body"), None)
        if body is None:
            return None
        try:
            return self.sandbox.text_state(body.id).text
        except AccessibilityError:
            return None

    # --- send -------------------------------------------------------------------------------------

    @handles(MailSend)
    def _send(self, action: MailSend) -> ActionResult:
        window = self._compose_window_in_front()
        held_before = {message.id for message in self.sandbox.held_mail()}
        windows_before = {w.window_id for w in self.sandbox.x11.windows()}
        self.sandbox.execute(act.Hotkey(keys=["ctrl", "enter"]))
        deadline = time.monotonic() + self.send_timeout
        held: list[HeldMessage] = []
        window_open = True
        asking_since: float | None = None
        focused: WindowInfo | None = None
        while time.monotonic() < deadline:
            window_open = any(w.window_id == window.window_id for w in self.sandbox.x11.windows())
            held = [m for m in self.sandbox.held_mail() if m.id not in held_before]
            if held and not window_open:
                break
            # A new window staying in front while nothing arrives is a question of the client
            # ("Subject Reminder"), which waits for a person: no use waiting the full time.
            focused = self.sandbox.x11.focused_window()
            if not held and focused is not None and focused.window_id not in windows_before:
                asking_since = asking_since or time.monotonic()
                if time.monotonic() - asking_since > self.question_grace:
                    break
            else:
                asking_since = None
            time.sleep(0.25)
        if not held:
            raise AppInterfaceError(
                f"no message reached the mail relay after Ctrl+Enter in {window.title!r}"
                + (
                    f"; the client asks in {focused.title!r} (answer it in its window)"
                    if asking_since is not None and focused is not None
                    else ""
                )
            )
        if window_open:
            raise AppInterfaceError(
                f"the relay holds {held[0].subject!r}, but {window.title!r} is still open"
            )
        summary = "; ".join(
            f"{m.subject!r} to {', '.join(m.recipients)}"
            + (f", attached {', '.join(m.attachments)}" if m.attachments else "")
            for m in held
        )
        return ActionResult(
            ok=True,
            message=f"sent {summary}; held by the mail relay until the safety settings release it",
            output=summary,
            verified=True,
        )

    def _compose_window_in_front(self) -> WindowInfo:
        """The compose window to send: the one in front, else the topmost one, raised."""
        windows = [
            window
            for window in self.sandbox.x11.windows()
            if app_of_window(window) == "mail" and window.title.startswith(COMPOSE_TITLE)
        ]
        if not windows:
            raise InvalidActionError(
                "no message is being written (no compose window is open); open one with "
                "mail_compose first"
            )
        focused = self.sandbox.x11.focused_window()
        if focused is not None and any(w.window_id == focused.window_id for w in windows):
            return focused
        window = windows[-1]
        raise_window(self.sandbox, window)
        return window

    # --- the store ------------------------------------------------------------------------------

    @handles(MailRead)
    def _read(self, action: MailRead) -> ActionResult:
        messages = self._folder(action.folder)
        shown = newest(messages, action.limit)
        unread = sum(1 for message in messages if not message.read)
        head = (
            f"{action.folder}: {len(messages)} message{'s' if len(messages) != 1 else ''}"
            f" ({unread} unread)" + (f"; the newest {len(shown)}, newest first" if shown else "")
        )
        body = "\n\n".join(message.describe(TEXT_LIMIT) for message in shown)
        return ActionResult(
            ok=True,
            message=head,
            output=f"{head}\n\n{body}" if body else head,
            verified=True,
        )

    def _folder(self, folder: str) -> list[StoredMail]:
        if not self.profile.is_dir():
            raise AppInterfaceError(f"the mail client has no profile at {self.shown(self.profile)}")
        try:
            return read_folder(self.profile, folder)
        except OSError as error:
            raise AppInterfaceError(
                f"the mail folder {folder!r} could not be read: {error}"
            ) from error

    @handles(MailSaveAttachment)
    def _save_attachment(self, action: MailSaveAttachment) -> ActionResult:
        folder = self.path(action.folder)
        if folder.exists() and not folder.is_dir():
            raise InvalidActionError(f"{self.shown(folder)} is a file, not a folder")
        message = message_number(
            self._folder(action.mail_folder), action.message, action.mail_folder
        )
        stored_name, content = attachment_bytes(message, PurePosixPath(action.name).name)
        name = PurePosixPath(stored_name.replace("\\", "/")).name
        if name in ("", ".", ".."):
            raise AppInterfaceError(f"the attachment's name {stored_name!r} is no file name")
        target = folder / name
        if target.exists() or target.is_symlink():
            raise InvalidActionError(
                f"{self.shown(target)} already exists; save into another folder or rename "
                "that file first"
            )
        self._make_folder(folder)
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
        give_to_owner(target, self.home)
        if target.read_bytes() != content:
            raise AppInterfaceError(f"{self.shown(target)} does not hold the attachment's bytes")
        if target.stat().st_uid != self.home.stat().st_uid:
            raise AppInterfaceError(f"{self.shown(target)} does not belong to HOME's owner")
        return ActionResult(
            ok=True,
            message=f"saved {name} ({len(content)} bytes) of message #{message.number} "
            f"({message.subject!r}) as {self.shown(target)}",
            output=self.shown(target),
            verified=True,
        )

    def _make_folder(self, folder: Path) -> None:
        """Create ``folder`` and missing parents, all HOME owner's."""
        if folder.is_dir():
            return
        missing = folder
        while not missing.parent.exists():
            missing = missing.parent
        folder.mkdir(parents=True)
        give_to_owner(missing, self.home)
