"""Templates for the mail client: send a file as an attachment, find a value in a mail, save a
mail's attachment.

One module per application family, so a new mail template lands here.
"""

from __future__ import annotations

from typing import Any, Literal

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate.flow import FlowValue
from pcagent.bench.generate.programs import given
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.template_parts import folder_words, node, one_call
from pcagent.bench.generate.templates_editor import NoteReading, draw_note_reading
from pcagent.bench.generate.templates_scripts import SCRIPTS
from pcagent.bench.generate.vocabulary import LOOSE_FILES, MAIL_SUBJECTS, PEOPLE
from pcagent.bench.tasks import AttachmentSpec, FileFixture, MessageFixture, ReferenceStep

# --- mail: send a file as an attachment ----------------------------------------------------------


class MailWithAttachment(TemplateAttributes):
    recipient: str
    address: str
    subject: str
    attachment: str
    #: The attachment's text when the template writes the file itself ("" when it comes from an
    #: earlier sub-task).
    own_text: str = ""

    @property
    def attachment_name(self) -> str:
        return self.attachment.rsplit("/", 1)[-1]


class MailSendAttachment(SubtaskTemplate[MailWithAttachment], spec="mail_send_attachment"):
    """Send a file from HOME to someone as an attachment with the mail client."""

    def draw(self, source: Draw) -> MailWithAttachment:
        person = source.rng.choice(PEOPLE)
        subject = source.rng.choice(MAIL_SUBJECTS)
        if (given := source.given_as("file")) is not None:
            return MailWithAttachment(
                recipient=person.name,
                address=person.address,
                subject=subject,
                attachment=given.text,
            )
        name = source.names.pick(tuple(n for n, _ in LOOSE_FILES), "loose file")
        return MailWithAttachment(
            recipient=person.name,
            address=person.address,
            subject=subject,
            attachment=f"Documents/{name}",
            own_text=dict(LOOSE_FILES)[name],
        )

    def build(self, attributes: MailWithAttachment, slot: Slot) -> Fragment:
        a = attributes
        first_name = a.recipient.split()[0]
        return self.fragment(
            a,
            slot,
            f"Mail {a.attachment} to {a.address}",
            words={
                "name": a.attachment_name,
                "folder": folder_words(a.attachment),
                "recipient": a.recipient,
                "address": a.address,
                "subject": a.subject,
            },
            nodes=[
                node(
                    slot,
                    "sent",
                    "mail_sent",
                    {
                        "to": a.address,
                        "subject_contains": a.subject,
                        "attachment": a.attachment_name,
                    },
                    description=f"{a.attachment_name} went to {a.address}",
                ),
            ],
            reference=gui.mail_with_attachment(a.address, a.subject, a.attachment),
            reference_api=[
                gui.act(
                    "mail_compose",
                    to=[a.address],
                    subject=a.subject,
                    body=f"Hi {first_name},\n\nhere is {a.attachment_name}.",
                    attachments=[a.attachment],
                ),
                gui.act("mail_send"),
            ],
            # No body: the instruction gives none (the reference's greeting is the author's).
            program=one_call(
                "send_mail",
                hands_on=False,
                to=[a.address],
                subject=a.subject,
                attachments=[given() if not a.own_text else a.attachment],
            ),
            files=[FileFixture(path=a.attachment, text=a.own_text)] if a.own_text else [],
            services=("mail",),
        )


# --- mail: find a value in a mail ----------------------------------------------------------------


class OneMail(TemplateAttributes):
    """A mail the task starts with: one the person sent to the user, or one the user sent."""

    #: "Inbox": the person sent it to the user; "Sent": the user sent it to the person.
    folder: Literal["Inbox", "Sent"]
    person: str
    address: str
    #: The mail's date, "2025-06-03 08:40".
    date: str

    def mail(self, subject: str, body: str, **fields: Any) -> MessageFixture:
        """The mail, from the person or to them."""
        who, received = f"{self.person} <{self.address}>", self.folder == "Inbox"
        return MessageFixture(
            sender=who if received else "",
            to="" if received else who,
            subject=subject,
            body=body,
            date=self.date,
            **fields,
        )

    def opened(self) -> list[ReferenceStep]:
        """The reference's click on the folder that holds it (the Inbox is in front)."""
        return [] if self.folder == "Inbox" else [gui.click("Sent", "tree item")]


class MailReading(OneMail):
    #: What the mail says and which of its values is asked for (a note's values, in a mail).
    reading: NoteReading

    @property
    def subject(self) -> str:
        return self.reading.title


class MailReadValue(SubtaskTemplate[MailReading], spec="mail_read_value"):
    """Read a mail in the mail client (one received, or one the user sent) and find one of its
    values (a number, a time, a city)."""

    def draw(self, source: Draw) -> MailReading:
        person = source.rng.choice(PEOPLE)
        return MailReading(
            reading=draw_note_reading(source),
            folder=source.rng.choice(("Inbox", "Sent")),
            person=person.name,
            address=person.address,
            date=f"2025-{source.rng.randint(6, 11):02d}-{source.rng.randint(1, 28):02d} 08:40",
        )

    def build(self, attributes: MailReading, slot: Slot) -> Fragment:
        a, reading = attributes, attributes.reading
        first_name = a.person.split()[0]
        received = a.folder == "Inbox"
        greeting = "Hi" if received else f"Hi {first_name}"
        body = f"{greeting},\n\nthe figures as promised:\n{reading.lines}\nBest wishes"
        message = a.mail(reading.title, body)
        report_nodes, report_steps = parts.report_parts(slot, reading.value_text, None)
        opened = a.opened()
        return self.fragment(
            a,
            slot,
            f"Read the mail {reading.title} ({a.folder}) and find {reading.description} "
            f"({reading.value_text})",
            words={
                "subject": reading.title,
                "person": f"from {a.person}" if received else f"that I sent to {a.person}",
                "what": reading.description,
            },
            nodes=report_nodes,
            reference=[
                gui.act("open_app", app="mail"),
                gui.act("wait", seconds=2),
                *opened,
                gui.click(reading.title, "static"),
                gui.act("wait", seconds=1),
                *report_steps,
            ],
            # The mail client's window opened first, as a person reads the mail in it (the
            # application action reads the folder without a window).
            reference_api=[
                gui.act("open_app", app="mail"),
                gui.act("mail_read", folder=a.folder),
                *report_steps,
            ],
            program=parts.lookup_program(
                slot,
                [programs.call("s1", "read_mail", folder=a.folder)],
                reading.asked,
                reading.description,
            ),
            inbox=[message] if received else [],
            sent=[] if received else [message],
            services=("mail",),
            output=FlowValue(
                kind=reading.asked, text=reading.value_text, description=reading.description
            ),
        )


# --- mail: save a mail's attachment --------------------------------------------------------------


class MailAttachmentSaved(OneMail):
    subject: str
    #: The attached file's name and text.
    name: str
    text: str
    #: Whether the file is a script with an error (one the code-fixing template mends next).
    script: bool = False

    @property
    def path(self) -> str:
        return f"Documents/{self.name}"


class MailSaveAttachment(SubtaskTemplate[MailAttachmentSaved], spec="mail_save_attachment"):
    """Save the attachment of a mail (one received, or one the user sent) into Documents; the
    saved file is handed on (opened, moved into a folder)."""

    def draw(self, source: Draw) -> MailAttachmentSaved:
        person = source.rng.choice(PEOPLE)
        script = source.wanted == "script"
        files = [(s.name, s.text) for s in SCRIPTS] if script else list(LOOSE_FILES)
        name = source.names.pick(tuple(n for n, _ in files), "loose file")
        return MailAttachmentSaved(
            folder=source.rng.choice(("Inbox", "Sent")),
            person=person.name,
            address=person.address,
            subject=source.rng.choice(MAIL_SUBJECTS),
            name=name,
            text=dict(files)[name],
            date=f"2025-{source.rng.randint(6, 11):02d}-{source.rng.randint(1, 28):02d} 16:20",
            script=script,
        )

    def build(self, attributes: MailAttachmentSaved, slot: Slot) -> Fragment:
        a = attributes
        received = a.folder == "Inbox"
        attached = [AttachmentSpec(name=a.name, text=a.text)]
        body = f"Hi,\n\n{a.name} is attached.\n\nBest wishes"
        message = a.mail(a.subject, body, attachments=attached)
        opened = a.opened()
        return self.fragment(
            a,
            slot,
            f"Save {a.name}, attached to the mail {a.subject} ({a.folder}), as {a.path}",
            words={
                "name": a.name,
                "subject": a.subject,
                "person": f"from {a.person}" if received else f"that I sent to {a.person}",
            },
            nodes=[
                node(
                    slot,
                    "saved",
                    "file_exists",
                    {"path": a.path},
                    description=f"{a.name} is saved in Documents",
                )
            ],
            reference=[
                gui.act("open_app", app="mail"),
                gui.act("wait", seconds=2),
                *opened,
                gui.click(a.subject, "static"),
                gui.click("Save", "push button"),
                gui.wait_for("Save Attachment"),
                gui.act("hotkey", keys=["ctrl", "a"]),
                gui.act("type", text=gui.home_path(a.path)),
                gui.act("press", key="enter"),
                gui.act("wait", seconds=1),
            ],
            reference_api=[
                gui.act(
                    "mail_save_attachment",
                    mail_folder=a.folder,
                    message=1,
                    name=a.name,
                    folder="Documents",
                )
            ],
            program=one_call("save_attachment", path=a.path, mail_folder=a.folder),
            inbox=[message] if received else [],
            sent=[] if received else [message],
            services=("mail",),
            output=parts.file_output(a.path, "script" if a.script else "file"),
        )
