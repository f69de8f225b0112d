"""The benchmark's mail sink: a local SMTP server whose messages checkers read.

:class:`SmtpSink` is an SMTP server on 127.0.0.1 that accepts every message and keeps it as an
``.eml`` file; checkers read what was sent through :meth:`SmtpSink.messages`. Nothing ever leaves
the machine. The sandbox's mail client sends to its mail relay (:mod:`pcagent.env.mail_relay`),
which holds every message until it is released on to the sink; the client's profile is written by
:mod:`pcagent.bench.mail_profile`.
"""

from __future__ import annotations

import email
import email.policy
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path
from typing import cast

from aiosmtpd.smtp import SMTP, Envelope, Session
from pydantic import BaseModel, ConfigDict, Field

from pcagent.env.html_text import BLOCKS, HIDDEN, visible_text
from pcagent.env.smtp_server import LocalSmtpServer, write_whole
from pcagent.errors import BenchError

__all__ = [
    "MailSinkError",
    "SentMail",
    "SmtpSink",
    "parse_stored_mail",
]

# Headers the sink adds in front of each stored message: the SMTP envelope (which holds Bcc
# recipients that no header shows) and the arrival time.
_MAIL_FROM_HEADER = "X-MailFrom"
_RCPT_TO_HEADER = "X-RcptTo"
_RECEIVED_HEADER = "X-Received-At"


class MailSinkError(BenchError):
    """The SMTP sink could not start (port taken, folder not writable)."""


# --- messages received by the sink --------------------------------------------------------------


class SentMail(BaseModel):
    """One message the sink received, parsed back from its ``.eml`` file.

    Addresses are bare (``alex@example.test``, no display name). ``recipients`` are the SMTP
    envelope's (To, Cc and Bcc together). ``body_text`` is the text/plain part, decoded, with
    ``format=flowed`` soft line breaks joined; a message with only an HTML body gets that body's
    text. ``attachments`` are the attached files' names.
    """

    model_config = ConfigDict(frozen=True)

    from_addr: str
    to: list[str] = Field(default_factory=list)
    cc: list[str] = Field(default_factory=list)
    recipients: list[str] = Field(default_factory=list)
    subject: str = ""
    body_text: str = ""
    attachments: list[str] = Field(default_factory=list)
    received_at: datetime
    path: Path

    def all_recipients(self) -> list[str]:
        """Every address the message went to, lower-cased, without repeats."""
        seen: dict[str, None] = {}
        for address in (*self.to, *self.cc, *self.recipients):
            seen.setdefault(address.lower(), None)
        return list(seen)

    def summary(self) -> str:
        """One line for reasons and logs: subject, recipients, attachments."""
        attached = f", attached {', '.join(self.attachments)}" if self.attachments else ""
        return f"{self.subject!r} to {', '.join(self.all_recipients()) or 'nobody'}{attached}"


def _addresses(values: Sequence[str]) -> list[str]:
    return [address for _, address in getaddresses([str(v) for v in values]) if address]


#: The checks also leave out a stray ``<title>`` and break lines at ``<h4>``.
_HIDDEN = HIDDEN | {"title"}
_BREAKS = BLOCKS | {"h4"}


def _unflow(text: str, delete_space: bool) -> str:
    """Undo ``format=flowed`` (RFC 3676): a line ending in a space continues on the next."""
    lines: list[str] = []
    pending = ""
    for line in text.split("\n"):
        line = line.removesuffix("\r")
        if line.startswith(" "):  # space-stuffed
            line = line[1:]
        if line.endswith(" ") and line != "-- ":
            pending += line[:-1] if delete_space else line
            continue
        lines.append(pending + line)
        pending = ""
    if pending:
        lines.append(pending)
    return "\n".join(lines)


def _body_text(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    if part is not None:
        text = str(part.get_content())
        if str(part.get_param("format", "")).lower() == "flowed":
            text = _unflow(text, str(part.get_param("delsp", "")).lower() == "yes")
        return text.replace("\r\n", "\n")
    part = message.get_body(preferencelist=("html",))
    if part is None:
        return ""
    return visible_text(str(part.get_content()), _HIDDEN, _BREAKS)


def parse_stored_mail(path: Path) -> SentMail:
    """Parse one ``.eml`` file the sink wrote (or any RFC 5322 file) into a :class:`SentMail`."""
    # policy.default always builds EmailMessage objects.
    message = cast(
        EmailMessage, email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    )
    received = message.get(_RECEIVED_HEADER)
    try:
        received_at = datetime.fromisoformat(str(received)) if received else None
    except ValueError:
        received_at = None
    if received_at is None:
        received_at = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    from_addresses = _addresses(message.get_all("From", []))
    return SentMail(
        from_addr=from_addresses[0] if from_addresses else str(message.get(_MAIL_FROM_HEADER, "")),
        to=_addresses(message.get_all("To", [])),
        cc=_addresses(message.get_all("Cc", [])),
        recipients=[
            address.strip()
            for address in str(message.get(_RCPT_TO_HEADER, "")).split(",")
            if address.strip()
        ],
        subject=str(message.get("Subject", "")),
        body_text=_body_text(message),
        attachments=[
            part.get_filename() or "" for part in message.iter_attachments() if part.get_filename()
        ],
        received_at=received_at,
        path=path,
    )


class _StoreHandler:
    """aiosmtpd handler: every DATA becomes one file, written whole before it is visible."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._count = len(list(folder.glob("*.eml")))

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""  # the bytes as sent, dot-unstuffed
        newline = b"\r\n" if b"\r\n" in content else b"\n"
        received = datetime.now(UTC)
        envelope_headers = [
            f"{_MAIL_FROM_HEADER}: {envelope.mail_from or ''}",
            f"{_RCPT_TO_HEADER}: {', '.join(envelope.rcpt_tos)}",
            f"{_RECEIVED_HEADER}: {received.isoformat()}",
        ]
        data = newline.join(line.encode() for line in envelope_headers) + newline + content
        with self._lock:
            self._count += 1
            name = f"{self._count:06d}-{received.strftime('%Y%m%dT%H%M%S%f')}.eml"
        write_whole(self.folder / name, data)
        return "250 Message accepted for delivery"


class SmtpSink(LocalSmtpServer):
    """An SMTP server on 127.0.0.1 that stores each message it receives as ``folder/NNNNNN-*.eml``.

    ``port=0`` picks a free port; read the real one from :attr:`port` after :meth:`start`. No
    authentication and no TLS (Thunderbird's ``authMethod`` 1, ``try_ssl`` 0). Use as a context
    manager or call :meth:`start` and :meth:`stop`; :meth:`stop` ends the server thread.
    """

    error = MailSinkError
    label = "the SMTP sink"

    def __init__(self, folder: Path, *, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(host=host, port=port)
        self.folder = Path(folder)

    def _prepare(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise MailSinkError(f"cannot create the mail folder {self.folder}: {error}") from None

    def _handler(self) -> object:
        return _StoreHandler(self.folder)

    def messages(self) -> list[SentMail]:
        """Every message received so far (also before a restart into the same folder), oldest
        first."""
        if not self.folder.is_dir():
            return []
        return [parse_stored_mail(path) for path in sorted(self.folder.glob("*.eml"))]

    def clear(self) -> None:
        """Forget every stored message (between episodes that reuse one sink)."""
        for path in self.folder.glob("*.eml"):
            path.unlink(missing_ok=True)
