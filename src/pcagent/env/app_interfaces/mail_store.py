"""The mail client's own store, read as it lies on disk: the mbox files of a Thunderbird profile.

Thunderbird keeps each folder of "Local Folders" as one mbox file under ``Mail/Local Folders``
(``Inbox``, ``Sent``...; a subfolder ``Projects`` of the Inbox lives in ``Inbox.sbd/Projects``)
and appends what arrives or is sent. Reading that file is reading what the client shows, without
clicking through its message list. A message Thunderbird deleted but did not compact away yet
stays in the file with the "expunged" bit of its ``X-Mozilla-Status`` header: it is skipped.

Messages are numbered by their place in the folder's file (1 is the oldest there), a number that
stays the same while new mail is appended, so ``mail_save_attachment`` finds the message
``mail_read`` listed.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import mailbox
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path, PurePosixPath
from typing import cast

from pcagent.env.html_text import visible_text
from pcagent.errors import InvalidActionError

#: The profile folder under HOME (the ``mail`` application is started with it).
PROFILE = Path(".thunderbird") / "pcagent"
#: Where the profile keeps its local folders.
LOCAL_FOLDERS = Path("Mail") / "Local Folders"
#: ``X-Mozilla-Status`` bits: the message was read; it was deleted (awaiting compaction).
_READ = 0x0001
_EXPUNGED = 0x0008
#: Files next to the mbox files that are no folders.
_NOT_FOLDERS = (".msf", ".dat", ".json", ".html", ".sqlite")


class MailStoreError(InvalidActionError):
    """A folder, message or attachment the action named is not in the mail store."""


@dataclass(frozen=True)
class StoredMail:
    """One message of a folder: its number, headers, text and the names of its attachments."""

    number: int
    sender: str
    to: str
    subject: str
    date: datetime | None
    read: bool
    text: str
    attachments: tuple[str, ...]
    message: EmailMessage

    def describe(self, text_limit: int) -> str:
        """A few lines for the agent: number, sender, subject, date, attachments, text."""
        when = self.date.strftime("%Y-%m-%d %H:%M") if self.date else "no date"
        lines = [
            f"#{self.number} from {self.sender} to {self.to}, {when}"
            + ("" if self.read else " (unread)"),
            f"Subject: {self.subject or '(no subject)'}",
        ]
        if self.attachments:
            lines.append(f"Attachments: {', '.join(self.attachments)}")
        text = self.text.strip()
        if len(text) > text_limit:
            text = text[:text_limit].rstrip() + " [...]"
        lines.append(text or "(no text)")
        return "\n".join(lines)


def folder_names(profile: Path) -> list[str]:
    """Every folder of the profile's local folders, subfolders as ``Inbox/Projects``."""
    root = profile / LOCAL_FOLDERS
    names: list[str] = []
    if not root.is_dir():
        return names
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.suffix in _NOT_FOLDERS or path.name.startswith("."):
            continue
        relative = path.relative_to(root).parts
        names.append("/".join(part.removesuffix(".sbd") for part in relative))
    return names


def folder_file(profile: Path, folder: str) -> Path:
    """The mbox file of ``folder`` ("Inbox", "sent", "Inbox/Projects"; any letter case);
    :class:`MailStoreError` naming the folders there are when it is none of them."""
    wanted = [part for part in PurePosixPath(folder.strip().strip("/")).parts]
    if not wanted or any(part in ("..", ".") for part in wanted):
        raise MailStoreError(f"{folder!r} is no mail folder name")
    existing = folder_names(profile)
    for name in existing:
        if name.casefold() == "/".join(wanted).casefold():
            *parents, last = name.split("/")
            return profile / LOCAL_FOLDERS / Path(*[f"{p}.sbd" for p in parents], last)
    raise MailStoreError(
        f"there is no mail folder {folder!r}; the folders are: {', '.join(existing) or 'none'}"
    )


def read_folder(profile: Path, folder: str) -> list[StoredMail]:
    """Every message of the folder that is not deleted, in the file's order."""
    path = folder_file(profile, folder)
    box = mailbox.mbox(path, create=False)
    messages: list[StoredMail] = []
    try:
        for number, raw in enumerate(box, start=1):
            status = _status(raw.get("X-Mozilla-Status"))
            if status & _EXPUNGED:
                continue
            messages.append(_stored(number, raw.as_bytes(), status))
    finally:
        box.close()
    return messages


def newest(messages: list[StoredMail], limit: int) -> list[StoredMail]:
    """The ``limit`` newest messages, newest first: by their Date header, then by arrival."""
    oldest = datetime.min.replace(tzinfo=UTC)
    ordered = sorted(messages, key=lambda m: (m.date or oldest, m.number), reverse=True)
    return ordered[:limit]


def message_number(messages: list[StoredMail], number: int, folder: str) -> StoredMail:
    """The message numbered ``number``; :class:`MailStoreError` listing the numbers there are."""
    for message in messages:
        if message.number == number:
            return message
    numbers = ", ".join(str(m.number) for m in messages[-20:]) or "none"
    raise MailStoreError(
        f"{folder} has no message #{number} (its numbers: {numbers}); mail_read lists them"
    )


def attachment_bytes(message: StoredMail, name: str) -> tuple[str, bytes]:
    """The stored name and decoded content of the attachment called ``name`` (exact name
    first, then ignoring letter case)."""
    parts = [
        (part.get_filename() or "", part)
        for part in message.message.walk()
        if not part.is_multipart() and part.get_filename()
    ]
    for matches in (
        lambda found: found == name,
        lambda found: found.casefold() == name.casefold(),
    ):
        for found, part in parts:
            if matches(found):
                payload = part.get_payload(decode=True)
                return found, payload if isinstance(payload, bytes) else b""
    listed = ", ".join(found for found, _ in parts) or "none"
    raise MailStoreError(
        f"message #{message.number} has no attachment {name!r} (its attachments: {listed})"
    )


def _status(value: object) -> int:
    try:
        return int(str(value or "0").strip(), 16)
    except ValueError:
        return 0


def _stored(number: int, content: bytes, status: int) -> StoredMail:
    parsed = cast(EmailMessage, email.message_from_bytes(content, policy=email.policy.default))
    date: datetime | None = None
    try:
        date = email.utils.parsedate_to_datetime(str(parsed.get("Date", "")))
    except (TypeError, ValueError):
        date = None
    if date is not None and date.tzinfo is None:
        date = date.replace(tzinfo=UTC)
    return StoredMail(
        number=number,
        sender=str(parsed.get("From", "")),
        to=str(parsed.get("To", "")),
        subject=str(parsed.get("Subject", "")),
        date=date,
        read=bool(status & _READ),
        text=_text(parsed),
        attachments=tuple(
            str(part.get_filename())
            for part in parsed.walk()
            if not part.is_multipart() and part.get_filename()
        ),
        message=parsed,
    )


def _text(message: EmailMessage) -> str:
    """The plain text of the message (the text of its HTML when it has no plain part)."""
    try:
        part = message.get_body(preferencelist=("plain",))
        if part is not None:
            return str(part.get_content()).replace("\r\n", "\n")
        part = message.get_body(preferencelist=("html",))
        if part is None:
            return ""
        return visible_text(str(part.get_content()))
    except (LookupError, ValueError) as error:  # an unknown charset, a broken encoding
        return f"(the text could not be decoded: {error})"
