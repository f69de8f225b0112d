"""The mail actions on the real Thunderbird: a message composed with an attachment and sent is
held at the sandbox's relay and, released, passes the benchmark's mail checker; the Inbox the
benchmark writes is read back, and an attachment of it saved into HOME."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from pcagent.actions import UseSkill
from pcagent.app_actions import MailCompose, MailRead, MailSaveAttachment, MailSend
from pcagent.bench.checker_types import CheckContext
from pcagent.bench.checks_mail import mail_sent
from pcagent.bench.mail import SmtpSink
from pcagent.bench.mail_profile import MailAttachment, MailMessage, write_mail_profile
from pcagent.env import SandboxConfig, SandboxDesktop
from pcagent.env.app_interfaces.mail import compose_argument
from pcagent.env.ownership import give_to_owner
from pcagent.errors import InvalidActionError
from pcagent.runtime.loop.dispatch import ActionDispatcher
from pcagent.runtime.record.models import StepResult

pytestmark = [pytest.mark.desktop]

HOMEWORK = "def average(scores):\n    return sum(scores) / len(scores)\n"
INBOX = [
    MailMessage(
        sender="Jamie Lee <jamie@example.test>",
        subject="Budget review on Thursday",
        body="Hi Alex,\nthe budget is 4200 EUR.\nJamie",
        date=datetime(2024, 5, 2, 9, 30),
        read=True,
    ),
    MailMessage(
        sender="Howie Chen <howie@example.test>",
        subject="My homework, as promised",
        body="Here is the script.",
        date=datetime(2024, 5, 3, 17, 5),
        attachments=(MailAttachment(name="homework.py", text=HOMEWORK),),
    ),
]


@pytest.fixture(scope="module")
def mail_desktop(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[SandboxDesktop, SmtpSink]]:
    """Thunderbird on the benchmark's profile; released mail goes on to a sink."""
    with SmtpSink(tmp_path_factory.mktemp("sink")) as sink:
        desktop = SandboxDesktop(SandboxConfig(mail_upstream=(sink.host, sink.port))).start()
        try:
            write_mail_profile(desktop.home, smtp_port=desktop.mail_relay_address[1], inbox=INBOX)
            yield desktop, sink
        finally:
            desktop.close()


def test_the_compose_argument_survives_commas_quotes_and_equal_signs() -> None:
    argument = compose_argument(
        ("a@example.test", "b@example.test"), "It's 1,2 = 3", None, [Path("/h/a, b.txt")]
    )
    pairs = argument.split(",")  # the client splits on commas: no value may contain one
    assert [pair.split("=", 1)[0] for pair in pairs] == ["to", "format", "subject", "attachment"]
    assert "'" not in argument and " " not in argument


def test_mail_read_lists_the_inbox_newest_first(
    mail_desktop: tuple[SandboxDesktop, SmtpSink],
) -> None:
    desktop, _ = mail_desktop
    result = desktop.execute(MailRead(folder="inbox", limit=5))
    assert result.ok and result.verified, result.message
    output = result.output or ""
    assert output.startswith("inbox: 2 messages (1 unread)")
    assert output.index("#2 from Howie Chen") < output.index("#1 from Jamie Lee")
    assert "Attachments: homework.py" in output and "the budget is 4200 EUR." in output
    with pytest.raises(InvalidActionError, match=r"Inbox, .*Sent"):
        desktop.execute(MailRead(folder="Archive"))


def test_mail_save_attachment_writes_the_decoded_file(
    mail_desktop: tuple[SandboxDesktop, SmtpSink],
) -> None:
    desktop, _ = mail_desktop
    result = desktop.execute(
        MailSaveAttachment(message=2, name="homework.py", folder="Downloads/Class")
    )
    assert result.ok and result.verified, result.message
    saved = desktop.home / "Downloads" / "Class" / "homework.py"
    assert saved.read_text() == HOMEWORK
    assert saved.stat().st_uid == desktop.home.stat().st_uid
    assert saved.parent.stat().st_uid == desktop.home.stat().st_uid
    with pytest.raises(InvalidActionError, match="already exists"):
        desktop.execute(MailSaveAttachment(message=2, name="homework.py", folder="Downloads/Class"))
    with pytest.raises(InvalidActionError, match=r"no attachment 'notes\.txt'"):
        desktop.execute(MailSaveAttachment(message=2, name="notes.txt"))
    with pytest.raises(InvalidActionError, match="no message #7"):
        desktop.execute(MailSaveAttachment(message=7, name="homework.py"))
    with pytest.raises(InvalidActionError, match="outside the sandbox's HOME"):
        desktop.execute(MailSaveAttachment(message=2, name="homework.py", folder="/tmp"))


def test_mail_send_without_a_compose_window_is_refused(
    mail_desktop: tuple[SandboxDesktop, SmtpSink],
) -> None:
    desktop, _ = mail_desktop
    with pytest.raises(InvalidActionError, match="mail_compose first"):
        desktop.execute(MailSend())


def test_a_composed_message_with_an_attachment_is_sent_and_held(
    mail_desktop: tuple[SandboxDesktop, SmtpSink],
) -> None:
    desktop, sink = mail_desktop
    report = desktop.home / "Documents" / "q3, 'final'.txt"
    report.parent.mkdir(exist_ok=True)
    report.write_text("Q3 revenue: 1.2M\n")
    give_to_owner(report, desktop.home)
    with pytest.raises(InvalidActionError, match="outside the sandbox's HOME"):
        desktop.execute(MailCompose(to=("jamie@example.test",), attachments=("/etc/hostname",)))

    composed = desktop.execute(
        MailCompose(
            to=("jamie@example.test", "sam@example.test"),
            subject="Q3 report, final = done",
            body="Hi Jamie,\nthe report is attached.\n<b>Alex</b>",
            attachments=(f"~/Documents/{report.name}",),
        )
    )
    assert composed.ok and composed.verified, composed.message
    focused = desktop.observe().focused_window
    assert focused is not None and focused.title.startswith("Write: Q3 report, final = done")
    assert not any(
        p.name.startswith("mail-body-") for p in Path(desktop.env["XDG_RUNTIME_DIR"]).iterdir()
    )
    assert desktop.held_mail() == []  # composing sends nothing

    sent = desktop.execute(MailSend())
    assert sent.ok and sent.verified, sent.message
    [held] = desktop.held_mail()
    assert held.recipients == ("jamie@example.test", "sam@example.test")
    assert held.attachments == (report.name,)
    assert sink.messages() == []  # held, not delivered
    assert not any(w.title.startswith("Write: ") for w in desktop.observe().windows)

    desktop.release_mail(held.id)
    context = CheckContext(home=desktop.home, services={"mail": sink})
    check = mail_sent(
        context,
        to="sam@example.test",
        subject_contains="Q3 report, final = done",
        body_contains=("the report is attached.", "<b>Alex</b>"),
        attachment=f"Documents/{report.name}",
    )
    assert check.passed, check.reason
    assert os.path.exists(desktop.home / "Documents" / report.name)  # attaching moved nothing


def test_a_question_of_the_client_fails_the_send_and_says_so(
    mail_desktop: tuple[SandboxDesktop, SmtpSink],
) -> None:
    desktop, _ = mail_desktop
    held = len(desktop.held_mail())
    assert desktop.execute(MailCompose(to=("jamie@example.test",), body="no subject")).ok
    result = desktop.execute(MailSend())
    assert not result.ok and not result.verified
    assert "Subject Reminder" in result.message and "mouse and keyboard" in result.message
    assert len(desktop.held_mail()) == held


def test_the_save_attachment_skill_finds_the_message_and_checks_the_file(
    mail_desktop: tuple[SandboxDesktop, SmtpSink],
) -> None:
    """The skill looks the attachment up by its name, in the folder named and then the usual
    ones (the mail is in the Inbox; the step said Sent), and checks the file on disk."""
    desktop, _ = mail_desktop
    dispatcher = ActionDispatcher(desktop)
    args = {"path": "Documents/Class/homework.py", "mail_folder": "Sent"}
    saved = dispatcher.carry_out(UseSkill(skill="save_attachment", args=args))
    assert saved.ok, saved.message
    assert saved.value == "Documents/Class/homework.py" and "(not in Sent)" in saved.message
    assert (desktop.home / "Documents" / "Class" / "homework.py").read_text() == HOMEWORK
    missing = {"path": "Documents/notes.txt"}
    refused = dispatcher.carry_out(UseSkill(skill="save_attachment", args=missing))
    assert not refused.ok
    assert "no message in Inbox or Sent has an attachment 'notes.txt'" in refused.message


def test_read_mail_keeps_the_messages_of_a_subject_and_takes_a_subject_written_as_a_folder(
    mail_desktop: tuple[SandboxDesktop, SmtpSink],
) -> None:
    """A step asks for the messages of a subject; one names the subject as its folder (a
    1.5B planner's "Travel"): the usual folders are read for it. A folder that is not there
    and no subject that holds the words is still the client's failure."""
    desktop, _ = mail_desktop
    dispatcher = ActionDispatcher(desktop)

    def read(**args: str) -> StepResult:
        return dispatcher.carry_out(UseSkill(skill="read_mail", args=args))

    homework = read(folder="Sent", subject="homework")
    assert homework.ok and "(not in Sent)" in homework.message, homework.message
    assert "#2 from Howie Chen" in str(homework.value) and "4200" not in str(homework.value)
    as_folder = read(folder="My homework")
    assert as_folder.ok and "Subject: My homework, as promised" in str(as_folder.value)
    missing = read(folder="Archive")
    assert not missing.ok and "Inbox" in missing.message and "Sent" in missing.message
    assert not read(subject="Holiday photos").ok
