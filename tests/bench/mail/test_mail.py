"""The SMTP sink, the Thunderbird profile writer and the mail checkers; with a real Thunderbird,
a message read from the Inbox in the accessibility tree and one written and sent through the GUI,
held at the sandbox's mail relay until it is released on to the sink."""

from __future__ import annotations

import mailbox
import smtplib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import TypeVar

import pytest

from pcagent import actions as act
from pcagent.bench.checkers import CheckContext, CheckerError, checker_names, run_checker
from pcagent.bench.checks_mail import mail_not_sent, mail_sent
from pcagent.bench.mail import MailSinkError, SmtpSink
from pcagent.bench.mail_profile import MailAttachment, MailMessage, write_mail_profile
from pcagent.env import Element, SandboxConfig, SandboxDesktop
from pcagent.env.home_template import THUNDERBIRD_PREFS, write_default_template
from pcagent.env.processes import find_marked_processes
from pcagent.env.thunderbird_prefs import read_prefs

T = TypeVar("T")

ALEX = "Alex Morgan <alex@example.test>"
JAMIE = "Jamie Lee <jamie@example.test>"
BUDGET_MAIL = MailMessage(
    sender=JAMIE,
    subject="Budget review on Thursday",
    body="Hi Alex,\nplease send me the numbers before Thursday.\nJamie",
    date=datetime(2024, 5, 2, 9, 30),
)


def send(sink: SmtpSink, message: EmailMessage, recipients: list[str] | None = None) -> None:
    with smtplib.SMTP("127.0.0.1", sink.port, timeout=10) as client:
        client.send_message(message, to_addrs=recipients)


def plain_message(to: str = "Jamie Lee <jamie@example.test>", body: str = "") -> EmailMessage:
    message = EmailMessage()
    message["From"] = ALEX
    message["To"] = to
    message["Cc"] = "Sam Park <sam@example.test>"
    message["Subject"] = "Numbers for Thursday"
    message.set_content(body or "Hi Jamie,\nthe budget is 4200 EUR.\nGrüße, Alex\n")
    return message


def with_attachment() -> EmailMessage:
    message = EmailMessage()
    message["From"] = ALEX
    message["To"] = "jamie@example.test"
    message["Subject"] = "Quarterly report"
    message.set_content("The report is attached.\n")
    message.add_alternative("<p>The <b>report</b> is attached.</p>", subtype="html")
    message.add_attachment(
        b"%PDF-1.4 test", maintype="application", subtype="pdf", filename="report-q3.pdf"
    )
    return message


@pytest.fixture
def sink(tmp_path: Path) -> Iterator[SmtpSink]:
    with SmtpSink(tmp_path / "sent") as running:
        yield running


def context_for(sink: SmtpSink | None, home: Path) -> CheckContext:
    return CheckContext(home=home, services={"mail": sink} if sink else {})


# --- the sink --------------------------------------------------------------------------------------


def test_a_plain_message_is_stored_as_a_file_and_parsed_back(sink: SmtpSink) -> None:
    send(sink, plain_message(), ["jamie@example.test", "sam@example.test", "boss@example.test"])
    [mail] = sink.messages()
    assert mail.path.parent == sink.folder and mail.path.suffix == ".eml"
    assert mail.from_addr == "alex@example.test"
    assert mail.to == ["jamie@example.test"]
    assert mail.cc == ["sam@example.test"]
    # the Bcc recipient appears only in the SMTP envelope
    assert "boss@example.test" in mail.all_recipients()
    assert mail.subject == "Numbers for Thursday"
    assert mail.body_text == "Hi Jamie,\nthe budget is 4200 EUR.\nGrüße, Alex\n"
    assert mail.attachments == []
    assert mail.received_at.tzinfo is not None


def test_a_multipart_message_gives_its_plain_text_and_attachment_names(sink: SmtpSink) -> None:
    send(sink, with_attachment())
    [mail] = sink.messages()
    assert mail.body_text == "The report is attached.\n"
    assert mail.attachments == ["report-q3.pdf"]


def test_flowed_and_html_only_bodies_read_as_plain_text(sink: SmtpSink) -> None:
    flowed = plain_message()
    # format=flowed: a line ending in a space continues on the next one (mail clients wrap)
    flowed.set_content("the budget is \n4200 EUR.\n")
    flowed.replace_header("Content-Type", 'text/plain; charset="utf-8"; format=flowed')
    send(sink, flowed)
    html_only = plain_message()
    html_only.set_content("<p>Hello&nbsp;Jamie,</p><p>the <b>budget</b></p>", subtype="html")
    send(sink, html_only)
    first, second = sink.messages()
    assert first.body_text == "the budget is 4200 EUR.\n"
    assert second.body_text == "Hello Jamie,\n\nthe budget"


def test_stop_ends_the_server_thread_and_frees_the_port(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    sink = SmtpSink(tmp_path / "sent").start()
    port = sink.port
    assert set(threading.enumerate()) - before, "the sink serves from a thread"
    send(sink, plain_message())
    sink.stop()
    sink.stop()  # twice is harmless
    assert set(threading.enumerate()) - before == set()
    assert len(sink.messages()) == 1, "stored messages outlive the server"
    with socket.socket() as probe:
        # SO_REUSEADDR: the closed SMTP connection may sit in TIME_WAIT on this port, which is
        # fine; a socket still listening there would make the bind fail all the same.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))
    # it can start again, into the same folder
    with sink:
        send(sink, plain_message())
        assert len(sink.messages()) == 2
    assert set(threading.enumerate()) - before == set()


def test_a_taken_port_is_a_clear_error(tmp_path: Path, sink: SmtpSink) -> None:
    with pytest.raises(MailSinkError, match="port=0"):
        SmtpSink(tmp_path / "other", port=sink.port).start()
    with pytest.raises(MailSinkError, match="start"):
        _ = SmtpSink(tmp_path / "other").port


def test_clear_forgets_what_was_sent(sink: SmtpSink) -> None:
    send(sink, plain_message())
    sink.clear()
    assert sink.messages() == []


# --- checkers --------------------------------------------------------------------------------------


def test_mail_sent_passes_for_a_matching_message(sink: SmtpSink, tmp_path: Path) -> None:
    send(sink, plain_message())
    send(sink, with_attachment())
    context = context_for(sink, tmp_path)
    result = mail_sent(
        context, to="JAMIE@example.test", subject_contains="numbers", body_contains=("4200 eur",)
    )
    assert result.passed, result.reason
    assert mail_sent(context, to="sam@example.test").passed  # Cc counts as a recipient
    with_file = mail_sent(context, to=JAMIE, attachment="Documents/report-q3.pdf")
    assert with_file.passed and "report-q3.pdf" in with_file.reason


def test_mail_sent_near_misses_fail_and_say_why(sink: SmtpSink, tmp_path: Path) -> None:
    send(sink, plain_message())
    context = context_for(sink, tmp_path)
    wrong_recipient = mail_sent(context, to="jamie@example.org", subject_contains="Numbers")
    assert not wrong_recipient.passed
    assert "not sent to jamie@example.org" in wrong_recipient.reason
    assert "'Numbers for Thursday' to jamie@example.test" in wrong_recipient.reason
    missing_word = mail_sent(context, to="jamie@example.test", body_contains=("4200", "invoice"))
    assert not missing_word.passed and "body lacks 'invoice'" in missing_word.reason
    no_file = mail_sent(context, to="jamie@example.test", attachment="report-q3.pdf")
    assert not no_file.passed and "no attachment 'report-q3.pdf'" in no_file.reason
    wrong_subject = mail_sent(context, to="jamie@example.test", subject_contains="Friday")
    assert not wrong_subject.passed and "subject lacks 'Friday'" in wrong_subject.reason


def test_mail_not_sent(sink: SmtpSink, tmp_path: Path) -> None:
    context = context_for(sink, tmp_path)
    assert mail_not_sent(context).passed
    assert mail_sent(context, to="jamie@example.test").reason == "no mail was sent"
    send(sink, plain_message())
    result = mail_not_sent(context)
    assert not result.passed and "1 message was sent: 'Numbers for Thursday'" in result.reason


def test_checkers_are_registered_and_take_task_file_parameters(
    sink: SmtpSink, tmp_path: Path
) -> None:
    assert {"mail_sent", "mail_not_sent"} <= set(checker_names())
    send(sink, plain_message())
    params = {"to": "jamie@example.test", "body_contains": ["budget", "4200"]}
    assert run_checker("mail_sent", params, context_for(sink, tmp_path)).passed
    with pytest.raises(CheckerError, match="subject"):
        run_checker(
            "mail_sent", {"to": "x@example.test", "subject": "typo"}, context_for(sink, tmp_path)
        )
    with pytest.raises(CheckerError, match="'mail' service"):
        run_checker("mail_not_sent", {}, context_for(None, tmp_path))


# --- the Thunderbird profile -----------------------------------------------------------------------


def test_profile_keeps_the_template_prefs_and_adds_the_account(tmp_path: Path) -> None:
    home = write_default_template(tmp_path / "home")
    profile = write_mail_profile(home, smtp_port=2600, identity_name="Kim Ode")
    assert profile == home / ".thunderbird" / "pcagent"
    prefs = read_prefs(profile / "prefs.js")
    for name, value in THUNDERBIRD_PREFS.items():
        assert prefs[name] == value
    assert prefs["mail.smtpserver.smtp1.port"] == "2600"
    assert prefs["mail.smtpserver.smtp1.hostname"] == '"127.0.0.1"'
    assert prefs["mail.identity.id1.fullName"] == '"Kim Ode"'
    assert prefs["mail.server.server1.deferred_to_account"] == '"account2"'
    # written again (next episode, new port): replaced, nothing duplicated, Thunderbird's own kept
    with (profile / "prefs.js").open("a") as prefs_file:
        prefs_file.write('user_pref("mail.ui.folderpane.view", 1);\n')
    write_mail_profile(home, smtp_port=2700)
    text = (profile / "prefs.js").read_text()
    assert text.count("mail.smtpserver.smtp1.port") == 1
    assert read_prefs(profile / "prefs.js")["mail.smtpserver.smtp1.port"] == "2700"
    assert read_prefs(profile / "prefs.js")["mail.ui.folderpane.view"] == "1"


def test_profile_folders_are_mboxes_with_the_given_messages(tmp_path: Path) -> None:
    tricky = MailMessage(
        sender="Sam Park <sam@example.test>",
        to="team@example.test",
        subject="Minutes",
        body="Notes:\nFrom now on we meet at 10.\n>From the archive\nSam",
        date=datetime(2024, 5, 3, 17, 5),
        read=True,
    )
    profile = write_mail_profile(tmp_path, smtp_port=2600, inbox=[BUDGET_MAIL, tricky])
    folder = profile / "Mail" / "Local Folders"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["Inbox", "Sent", "Drafts", "Trash", "Templates"]
    )
    inbox_text = (folder / "Inbox").read_text()
    assert inbox_text.startswith("From jamie@example.test Thu May  2 09:30:00 2024\n")
    assert "\n>From now on" in inbox_text and "\n>>From the archive" in inbox_text
    messages = list(mailbox.mbox(folder / "Inbox"))
    assert [m["Subject"] for m in messages] == ["Budget review on Thursday", "Minutes"]
    assert messages[0]["To"] == ALEX  # an empty `to` is the profile's own identity
    assert messages[0]["X-Mozilla-Status"] == "0000" and messages[1]["X-Mozilla-Status"] == "0001"
    assert (folder / "Sent").read_text() == ""
    # rewriting empties the folders again
    write_mail_profile(tmp_path, smtp_port=2600, sent=[tricky])
    assert (folder / "Inbox").read_text() == ""
    assert len(mailbox.mbox(folder / "Sent")) == 1


# --- Thunderbird ------------------------------------------------------------------------------------


def wait_until(probe: Callable[[], T | None], timeout: float, what: str) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(0.2)


def element(desktop: SandboxDesktop, role: str, name: str) -> Element | None:
    return next((e for e in desktop.observe().elements if e.role == role and e.name == name), None)


@pytest.fixture(scope="module")
def thunderbird(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[SandboxDesktop, SmtpSink]]:
    """Thunderbird on a profile with one Inbox message; the sandbox's mail relay releases mail
    on to a sink."""
    with SmtpSink(tmp_path_factory.mktemp("mail")) as sink:
        desktop = SandboxDesktop(SandboxConfig(mail_upstream=(sink.host, sink.port))).start()
        assert desktop.state is not None
        marker, root = desktop.state.sandbox_id, desktop.state.root
        relay_address: tuple[str, int] | None = None
        try:
            # A profile whose outgoing server is the sink itself, as before the relay: opening
            # the mail client points it at the relay all the same.
            write_mail_profile(desktop.home, smtp_port=sink.port, inbox=[BUDGET_MAIL])
            desktop.open_app("mail")
            relay_address = desktop.mail_relay_address
            yield desktop, sink
        finally:
            desktop.close()
            assert find_marked_processes(marker) == [], "sandbox processes outlived close()"
            assert not root.exists(), "sandbox folder outlived close()"
            if relay_address is not None:
                with pytest.raises(ConnectionRefusedError):
                    socket.create_connection(relay_address, timeout=2).close()


@pytest.mark.desktop
@pytest.mark.slow
def test_the_inbox_message_is_listed_in_the_accessibility_tree(
    thunderbird: tuple[SandboxDesktop, SmtpSink],
) -> None:
    desktop, _ = thunderbird

    def row() -> Element | None:
        return next(
            (
                e
                for e in desktop.observe().elements
                if e.role == "list item" and "Budget review on Thursday" in e.name
            ),
            None,
        )

    found = wait_until(row, 30, "the Inbox message row")
    assert found.name.startswith("Jamie Lee <jamie@example.test>, ")
    focused = desktop.observe().focused_window
    assert focused is not None and focused.title.startswith("Inbox")


@pytest.mark.desktop
@pytest.mark.slow
def test_a_message_sent_in_the_gui_is_held_until_released_to_the_sink(
    thunderbird: tuple[SandboxDesktop, SmtpSink],
) -> None:
    desktop, sink = thunderbird
    prefs = read_prefs(desktop.home / ".thunderbird/pcagent/prefs.js")
    assert prefs["mail.smtpserver.smtp1.port"] == str(desktop.mail_relay_address[1])
    desktop.execute(act.Hotkey(keys=["ctrl", "n"]))
    to_field = wait_until(lambda: element(desktop, "entry", "To"), 30, "the compose window")
    observation = desktop.observe()
    assert observation.focused_window is not None
    assert observation.focused_window.title.startswith("Write:")
    subject = next(e for e in observation.elements if e.role == "entry" and e.name == "Subject")
    body = next(e for e in observation.elements if e.name == "Message body")

    desktop.execute(
        act.TypeText(text="jamie@example.test", x=to_field.box.center[0], y=to_field.box.center[1])
    )
    desktop.execute(
        act.TypeText(text="Numbers for Thursday", x=subject.box.center[0], y=subject.box.center[1])
    )
    desktop.execute(
        act.TypeText(
            text="Hi Jamie,\nthe budget is 4200 EUR.\nAlex",
            x=body.box.x + 40,
            y=body.box.y + 20,
        )
    )
    desktop.execute(act.Hotkey(keys=["ctrl", "enter"]))

    [held] = wait_until(desktop.held_mail, 30, "the message held at the mail relay")
    assert held.recipients == ("jamie@example.test",)
    assert held.sender == "alex@example.test"
    assert held.subject == "Numbers for Thursday"
    assert sink.messages() == [], "a held message must not reach the sink"
    context = context_for(sink, desktop.home)
    assert not mail_sent(context, to="jamie@example.test").passed

    delivery = desktop.release_mail(held.id)
    assert delivery.upstream == f"{sink.host}:{sink.port}"
    assert desktop.held_mail() == []
    result = mail_sent(
        context,
        to="jamie@example.test",
        subject_contains="numbers for thursday",
        body_contains=("Hi Jamie", "the budget is 4200 EUR"),
    )
    assert result.passed, result.reason
    [mail] = sink.messages()
    assert mail.from_addr == "alex@example.test"
    # the identity keeps a copy in Local Folders/Sent
    sent_folder = desktop.home / ".thunderbird/pcagent/Mail/Local Folders/Sent"
    wait_until(
        lambda: "Numbers for Thursday" in sent_folder.read_text(errors="replace"),
        15,
        "the copy in the Sent folder",
    )


def test_sent_messages_come_from_the_user_and_carry_attachments(tmp_path: Path) -> None:
    code = "def average(scores):\n    return sum(scores) / len(scores)\n"
    sent = MailMessage(
        to="Howie Chen <howie@example.test>",
        subject="Code",
        body="Here is the script.",
        date=datetime(2025, 2, 21, 10, 12),
        attachments=[MailAttachment(name="homework.py", text=code)],
    )
    profile = write_mail_profile(tmp_path, smtp_port=2600, sent=[sent])
    (message,) = list(mailbox.mbox(profile / "Mail" / "Local Folders" / "Sent"))
    assert message["From"] == ALEX  # an empty sender is the profile's own identity
    assert message["To"] == "Howie Chen <howie@example.test>"
    parts = [part for part in message.walk() if part.get_filename()]
    assert [part.get_filename() for part in parts] == ["homework.py"]
    assert parts[0].get_payload(decode=True).decode() == code
    body = next(part for part in message.walk() if part.get_content_type() == "text/plain")
    assert "Here is the script." in body.get_payload(decode=True).decode()
