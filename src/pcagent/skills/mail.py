"""Skills in the mail client: send a message (with attachments), read a folder, save an
attachment."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Generic, TypeVar

from pydantic import Field

from pcagent.app_actions import MailCompose, MailRead, MailSaveAttachment, MailSend
from pcagent.app_actions.network import MailAddress
from pcagent.applications import MAIL
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.common import do, home_file
from pcagent.text import contains

APP = MAIL.name
T = TypeVar("T")


class SendMail(SkillParameters):
    to: list[MailAddress] = Field(
        min_length=1,
        max_length=20,
        description='e.g. ["ann@example.test"].',
        json_schema_extra={"given": True},
    )
    subject: str = Field("", max_length=500)
    body: str = Field("", max_length=10_000)
    attachments: list[str] = Field(
        default_factory=list, max_length=20, description="Paths in HOME."
    )


@skill(
    "Write and send an e-mail with the mail client, with optional attachments.",
    apps=(APP,),
    reads=("attachments",),
    texts=("body",),
)
def send_mail(context: SkillContext, parameters: SendMail) -> SkillResult:
    missing = [
        path
        for path in parameters.attachments
        if (f := home_file(context, path)) and not f.is_file()
    ]
    if missing:
        return SkillResult.failed(f"no such file to attach: {missing}")
    do(
        context,
        MailCompose(
            to=tuple(parameters.to),
            subject=parameters.subject,
            body=parameters.body,
            attachments=tuple(parameters.attachments),
        ),
    )
    sent = do(context, MailSend())
    if not sent.verified:
        return SkillResult.failed(f"the message could not be seen leaving: {sent.message}")
    return SkillResult(True, ", ".join(parameters.to), evidence=sent.message)


#: The folders a message is looked for in when the one named lacks it: a person says "the mail
#: I sent" and "the mail I got" loosely, and a planner names the Inbox for both (pc16r1,
#: 2026-12-02, read the Inbox for a mail the person had sent).
USUAL_FOLDERS = ("Inbox", "Sent")
#: The most messages of a folder looked through for a subject or an attachment.
MESSAGES_LOOKED_AT = 50


class ReadMail(SkillParameters):
    folder: str = Field("Inbox", min_length=1, max_length=100, description='Or "Sent".')
    limit: int = Field(10, ge=1, le=50)
    subject: str = Field(
        "", max_length=200, description="Only the messages whose subject holds these words."
    )


@dataclass(frozen=True)
class _Found(Generic[T]):
    """What :func:`_first_found` found: the folder and what was in it ("" and None where no
    folder had it), the folders read before it, and the client's message where the folder
    named could not be read (none there by that name)."""

    folder: str
    value: T | None
    looked: list[str]
    refused: str


def _first_found(context: SkillContext, named: str, find: Callable[[str], T | None]) -> _Found[T]:
    """The first of the folder ``named`` and the usual ones whose reading (its newest
    :data:`MESSAGES_LOOKED_AT` messages) ``find`` finds something in."""
    looked: list[str] = []
    refused = ""
    for folder in dict.fromkeys((named, *USUAL_FOLDERS)):
        reading = context.act(MailRead(folder=folder, limit=MESSAGES_LOOKED_AT))
        if not reading.ok and folder == named:
            refused = reading.message
        value = find(reading.output or "") if reading.ok else None
        if value:
            return _Found(folder, value, looked, refused)
        looked.append(folder)
    return _Found("", None, looked, refused)


@skill(
    "Read the newest messages of a mail folder (sender, subject, date, text, attachments).",
    apps=(APP,),
    returns="the messages as text",
    only_reads=True,
)
def read_mail(context: SkillContext, parameters: ReadMail) -> SkillResult:
    named = parameters.folder
    if not parameters.subject:
        read = context.act(MailRead(folder=named, limit=parameters.limit))
        if read.ok and messages_of(read.output or ""):
            return SkillResult(True, read.output or "", evidence=f"{named} read")
        if read.ok:
            return _empty(context, named, read.output or "")
    # Without a subject, no such folder: the words were a mail's subject ("Travel"), which a
    # 1.5B planner wrote as the folder (a rewording of pc25, 2026-12-02); the usual folders
    # are read for it. Where no subject holds them, the step fails as the client said.
    subject = parameters.subject or named
    found = _first_found(context, named, lambda reading: with_subject(reading, subject))
    if found.value:
        shown = "\n\n".join(found.value[: parameters.limit])
        where = "" if found.folder == named else f" (not in {named})"
        return SkillResult(
            True,
            f"{found.folder}: the messages whose subject holds {subject!r}\n\n{shown}",
            evidence=f"{len(found.value)} in {found.folder}{where}",
        )
    if found.refused:
        return SkillResult.failed(found.refused)
    return SkillResult.failed(
        f"no message in {named}, Inbox or Sent has {subject!r} in its subject"
    )


#: The subjects of another folder named where the one read holds no message, at most.
SUBJECTS_SHOWN = 8


def _empty(context: SkillContext, named: str, reading: str) -> SkillResult:
    """The failure of reading a folder that holds no message, naming the usual folders that
    hold some and their newest subjects. Why: a program reads mail for values in it, and an
    empty folder read as a success had the next step look for a journey's cities in "Sent: 0
    messages" (a rewording of pc25, 2026-12-03, the message "Travel" being in the Inbox); the
    re-plan is told where the messages are."""
    others = []
    for folder in (one for one in USUAL_FOLDERS if one != named):
        read = context.act(MailRead(folder=folder, limit=SUBJECTS_SHOWN))
        subjects = [
            lines[1][len(SUBJECT) :]
            for _, lines in messages_of(read.output or "" if read.ok else "")
            if len(lines) > 1 and lines[1].startswith(SUBJECT)
        ]
        if subjects:
            listed = "; ".join(repr(subject) for subject in subjects)
            others.append(f"{folder} holds messages with the subjects {listed}")
    where = ("; " + "; ".join(others)) if others else ", nor do the Inbox and Sent"
    return SkillResult.failed(
        f"{named} holds no message ({reading.strip()[:100]}){where}: read the folder that "
        "holds the message meant, or give its subject (read_mail's subject)",
        evidence=reading.strip()[:200],
    )


class SaveAttachment(SkillParameters):
    path: str = Field(
        min_length=1,
        max_length=300,
        description='Where to save it in HOME, e.g. "Documents/report.pdf": the attachment is '
        "the one with this file name.",
    )
    mail_folder: str = Field("Inbox", min_length=1, max_length=100, description='Or "Sent".')


@skill(
    "Save a mail's attachment (the newest message that has one of that name) into a folder.",
    apps=(APP,),
    returns="the saved file's path",
    writes=("path",),
)
def save_attachment(context: SkillContext, parameters: SaveAttachment) -> SkillResult:
    target = PurePosixPath(parameters.path)
    folder = str(target.parent) if str(target.parent) != "." else "Downloads"
    name = target.name
    found = _first_found(
        context, parameters.mail_folder, lambda reading: newest_with_attachment(reading, name)
    )
    if found.value is None:
        looked = " or ".join(found.looked)
        return SkillResult.failed(f"no message in {looked} has an attachment {name!r}")
    saved = do(
        context,
        MailSaveAttachment(message=found.value, name=name, folder=folder, mail_folder=found.folder),
    )
    path = f"{folder}/{PurePosixPath(saved.output or name).name}"
    on_disk = home_file(context, path)
    if on_disk is not None and not on_disk.is_file():
        return SkillResult.failed(f"{path} could not be found after saving it")
    elsewhere = f" (not in {', '.join(found.looked)})" if found.looked else ""
    return SkillResult(True, path, evidence=f"{saved.message}{elsewhere}")


def messages_of(reading: str) -> list[tuple[int, list[str]]]:
    """A folder's reading (newest first, as ``mail_read`` lists them: ``#3 from ...``,
    ``Subject: ...``, then an ``Attachments: a.pdf, b.txt`` line where it has some, then its
    text) as each message's number and lines. A line of a text that reads like a message's
    first line without "from" is no new message."""
    found: list[tuple[int, list[str]]] = []
    for line in reading.splitlines():
        head = line.split(" ", 1)[0]
        if head.startswith("#") and head[1:].isdigit() and " from " in line:
            found.append((int(head[1:]), [line]))
        elif found:
            found[-1][1].append(line)
    return found


def newest_with_attachment(reading: str, name: str) -> int | None:
    """The number of the first message of a folder's reading with an attachment called
    ``name`` (letter case aside); None where none has one. Only the line after the subject
    lists attachments: a line of a message's text is never taken for them."""
    wanted = name.casefold()
    for number, lines in messages_of(reading):
        listed = lines[2] if len(lines) > 2 else ""
        if listed.startswith(ATTACHMENTS):
            names = [part.strip().casefold() for part in listed[len(ATTACHMENTS) :].split(",")]
            if wanted in names:
                return number
    return None


def with_subject(reading: str, words: str) -> list[str]:
    """The messages of a folder's reading whose subject holds ``words`` (case and spacing
    aside), each as its lines joined, newest first."""
    return [
        "\n".join(lines).strip()
        for _, lines in messages_of(reading)
        if len(lines) > 1
        and lines[1].startswith(SUBJECT)
        and contains(lines[1][len(SUBJECT) :], words)
    ]


#: How ``mail_read`` lists a message's subject and attachments.
SUBJECT, ATTACHMENTS = "Subject: ", "Attachments: "
