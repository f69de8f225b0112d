"""Skills in the mail client: send a message (with attachments), read a folder."""

from __future__ import annotations

from pydantic import Field

from pcagent.app_actions import MailCompose, MailRead, MailSend
from pcagent.app_actions.network import MailAddress
from pcagent.applications import MAIL
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.common import do, home_file

APP = MAIL.name


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


class ReadMail(SkillParameters):
    folder: str = Field("Inbox", min_length=1, max_length=100)
    limit: int = Field(10, ge=1, le=50)


@skill(
    "Read the newest messages of a mail folder (sender, subject, date, text, attachments).",
    apps=(APP,),
    returns="the messages as text",
    only_reads=True,
)
def read_mail(context: SkillContext, parameters: ReadMail) -> SkillResult:
    read = do(context, MailRead(folder=parameters.folder, limit=parameters.limit))
    return SkillResult(True, read.output or "", evidence=f"{parameters.folder} read")
