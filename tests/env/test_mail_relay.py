"""The mail relay with a real SMTP client on 127.0.0.1: messages are held, released on to a real
sink, rejected, kept across a restart; and the mail profile's servers pointed at it."""

from __future__ import annotations

import json
import smtplib
import socket
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from pcagent.bench.mail import SmtpSink
from pcagent.env import (
    HeldMessage,
    MailDeliveryError,
    MailRelay,
    MailRelayError,
    OutgoingMail,
    SandboxDesktop,
    UnknownMailError,
)
from pcagent.env.thunderbird_prefs import point_profile_at_relay, read_prefs


def report(with_attachment: bool = True) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Alex Morgan <alex@example.test>"
    message["To"] = "Jamie Lee <jamie@example.test>"
    message["Subject"] = "Quarterly report"
    message.set_content("Hi Jamie,\nthe report is attached.\nAlex\n")
    if with_attachment:
        message.add_attachment(
            b"%PDF-1.4 test", maintype="application", subtype="pdf", filename="report-q3.pdf"
        )
    return message


def send(relay: MailRelay, message: EmailMessage, recipients: list[str] | None = None) -> None:
    with smtplib.SMTP(*relay.address, timeout=10) as client:
        client.send_message(message, to_addrs=recipients)


def decisions(folder: Path) -> list[dict[str, object]]:
    lines = (folder / "decisions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture
def sink(tmp_path: Path) -> Iterator[SmtpSink]:
    with SmtpSink(tmp_path / "sink") as running:
        yield running


@pytest.fixture
def relay(tmp_path: Path, sink: SmtpSink) -> Iterator[MailRelay]:
    with MailRelay(tmp_path / "relay", upstream=(sink.host, sink.port)) as running:
        yield running


def test_a_sent_message_is_held_and_not_delivered(relay: MailRelay, sink: SmtpSink) -> None:
    send(relay, report(), ["jamie@example.test", "boss@example.test"])
    [held] = relay.held()
    assert held.sender == "alex@example.test"
    assert held.recipients == ("jamie@example.test", "boss@example.test")  # Bcc included
    assert held.subject == "Quarterly report"
    assert held.attachments == ("report-q3.pdf",)
    assert held.preview.startswith("Hi Jamie, the report is attached.")
    assert held.size > 0 and held.received_at.tzinfo is not None
    assert (relay.folder / "held" / f"{held.id}.eml").exists(), "held as a file at once"
    assert sink.messages() == []


def test_a_released_message_reaches_the_sink_as_sent(relay: MailRelay, sink: SmtpSink) -> None:
    send(relay, report(), ["jamie@example.test", "boss@example.test"])
    [held] = relay.held()
    delivery = relay.release(held.id)
    assert delivery.message_id == held.id and delivery.refused == ()
    assert delivery.upstream == f"127.0.0.1:{sink.port}"
    [mail] = sink.messages()
    assert mail.subject == "Quarterly report" and mail.attachments == ["report-q3.pdf"]
    assert set(mail.all_recipients()) == {"jamie@example.test", "boss@example.test"}
    assert mail.body_text == "Hi Jamie,\nthe report is attached.\nAlex\n"
    assert "X-Pcagent-Envelope" not in mail.path.read_text()
    assert relay.held() == []
    assert (relay.folder / "released" / f"{held.id}.eml").exists()
    with pytest.raises(UnknownMailError, match="released or rejected already"):
        relay.release(held.id)  # a second release sends nothing twice


def test_a_rejected_message_never_arrives(relay: MailRelay, sink: SmtpSink) -> None:
    send(relay, report())
    send(relay, report(with_attachment=False))
    first, second = relay.held()
    rejected = relay.reject(first.id)
    assert rejected == first
    assert [message.id for message in relay.held()] == [second.id]
    assert (relay.folder / "rejected" / f"{first.id}.eml").exists(), "kept for the record"
    relay.release(second.id)
    assert [mail.attachments for mail in sink.messages()] == [[]]
    assert [(entry["id"], entry["decision"]) for entry in decisions(relay.folder)] == [
        (first.id, "rejected"),
        (second.id, "released"),
    ]


def test_a_held_message_survives_a_restart_of_the_relay(tmp_path: Path, sink: SmtpSink) -> None:
    folder = tmp_path / "relay"
    with MailRelay(folder, upstream=(sink.host, sink.port)) as first:
        send(first, report())
        [held] = first.held()
    # a new relay (as after pcagent died) on the same folder, listening elsewhere
    again = MailRelay(folder, upstream=(sink.host, sink.port))
    assert again.held() == [held], "the folder is enough to list, without listening"
    with again:
        assert again.held() == [held]
        again.release(held.id)
    assert [mail.subject for mail in sink.messages()] == ["Quarterly report"]


def test_unknown_ids_are_typed_errors(relay: MailRelay) -> None:
    for wrong in ("nope", "../held/x", "20250101T000000Z-0000000"):
        with pytest.raises(UnknownMailError, match="held\\(\\) lists"):
            relay.release(wrong)
        with pytest.raises(UnknownMailError):
            relay.reject(wrong)


def test_stop_ends_the_thread_and_closes_the_port(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    relay = MailRelay(tmp_path / "relay").start()
    host, port = relay.address
    assert set(threading.enumerate()) - before, "the relay serves from a thread"
    send(relay, report())
    relay.stop()
    relay.stop()  # twice is harmless
    assert set(threading.enumerate()) - before == set()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((host, port), timeout=2).close()
    assert len(relay.held()) == 1, "held messages outlive the server"
    with pytest.raises(MailRelayError, match="start"):
        _ = MailRelay(tmp_path / "other").port


def test_without_an_upstream_a_release_is_recorded_as_delivered_nowhere(tmp_path: Path) -> None:
    with MailRelay(tmp_path / "relay") as relay:
        send(relay, report())
        [held] = relay.held()
        delivery = relay.release(held.id)
    assert delivery.upstream is None
    [entry] = decisions(tmp_path / "relay")
    assert entry["decision"] == "released" and entry["upstream"] is None


def test_an_unreachable_upstream_leaves_the_message_held(tmp_path: Path) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        closed_port = unused.getsockname()[1]
    with MailRelay(tmp_path / "relay", upstream=("127.0.0.1", closed_port)) as relay:
        send(relay, report())
        [held] = relay.held()
        with pytest.raises(MailDeliveryError, match="still held"):
            relay.release(held.id)
        assert relay.held() == [held]


def test_the_relay_listens_on_this_machine_only(tmp_path: Path, relay: MailRelay) -> None:
    with pytest.raises(MailRelayError, match="this machine only"):
        MailRelay(tmp_path / "x", host="0.0.0.0")
    with pytest.raises(MailRelayError, match="port"):
        MailRelay(tmp_path / "x", port=relay.port).start()


def test_the_sandbox_offers_outgoing_mail_as_a_capability() -> None:
    assert issubclass(SandboxDesktop, OutgoingMail)
    assert HeldMessage.model_config.get("frozen")


def test_every_outgoing_server_of_a_profile_points_at_the_relay(tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    profile.mkdir()
    (profile / "prefs.js").write_text(
        "// written by Thunderbird\n"
        'user_pref("mail.smtpservers", "smtp1,smtp2");\n'
        'user_pref("mail.smtpserver.smtp1.hostname", "127.0.0.1");\n'
        'user_pref("mail.smtpserver.smtp1.port", 2525);\n'
        'user_pref("mail.smtpserver.smtp2.hostname", "smtp.example.org");\n'
        'user_pref("mail.smtpserver.smtp2.try_ssl", 3);\n'
        'user_pref("mail.smtpserver.smtp2.authMethod", 3);\n'
        'user_pref("mail.smtpserver.smtp3.hostname", "unlisted.example.org");\n'
        'user_pref("mail.smtpserver.default.authMethod", 3);\n'
        'user_pref("mail.ui.folderpane.view", 1);\n'
    )
    assert point_profile_at_relay(profile, "127.0.0.1", 40123) == ["smtp1", "smtp2", "smtp3"]
    prefs = read_prefs(profile / "prefs.js")
    for key in ("smtp1", "smtp2", "smtp3"):
        assert prefs[f"mail.smtpserver.{key}.hostname"] == '"127.0.0.1"'
        assert prefs[f"mail.smtpserver.{key}.port"] == "40123"
        assert prefs[f"mail.smtpserver.{key}.try_ssl"] == "0"
        assert prefs[f"mail.smtpserver.{key}.authMethod"] == "1"
    assert prefs["mail.smtpserver.default.authMethod"] == "3"  # defaults are no server
    assert prefs["mail.ui.folderpane.view"] == "1"
    text = (profile / "prefs.js").read_text()
    assert text.startswith("// written by Thunderbird\n")
    assert text.count("mail.smtpserver.smtp1.port") == 1
    assert point_profile_at_relay(tmp_path, "127.0.0.1", 1) == [], "no prefs.js: nothing to do"
