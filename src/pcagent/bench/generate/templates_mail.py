"""Templates for the mail client: send a file as an attachment.

One module per application family, so a new mail template lands here.
"""

from __future__ import annotations

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate.programs import given
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.template_parts import folder_words, node, one_call
from pcagent.bench.generate.vocabulary import LOOSE_FILES, MAIL_SUBJECTS, PEOPLE
from pcagent.bench.tasks import FileFixture

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
        if source.given is not None and source.given.kind == "file":
            return MailWithAttachment(
                recipient=person.name,
                address=person.address,
                subject=subject,
                attachment=source.given.text,
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
        return Fragment(
            instruction=self.instruction(
                a,
                name=a.attachment_name,
                folder=folder_words(a.attachment),
                recipient=a.recipient,
                address=a.address,
                subject=a.subject,
            ),
            phrasing=a.phrasing,
            subtask=self.subtask_in(slot, f"Mail {a.attachment} to {a.address}"),
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
