"""An SMTP relay on this machine that holds every outgoing message until it is released or
rejected.

Stopping a send key or a Send button cannot stop every way a mail client sends (menus, shortcuts,
"send later", a queued outbox, a mailto link). Holding the message itself can: the sandbox's mail
client has this relay as its only outgoing server, the relay says "accepted" and keeps the
message, and only an explicit :meth:`MailRelay.release` hands it on to the real (upstream)
server. What the person or the run decides is then about a message (sender, recipients, subject,
attachments), not about a keystroke.

Each held message is a file the moment the client is told it was accepted, so a relay that dies
loses nothing: a new relay on the same folder holds the same messages. The folder holds::

    held/<id>.eml        waiting for a decision
    released/<id>.eml    handed to the upstream server (or to none: see decisions.jsonl)
    rejected/<id>.eml    never sent; kept for the record
    decisions.jsonl      one JSON line per release or rejection

Each ``.eml`` file is the message exactly as the client sent it, after one first line
``X-Pcagent-Envelope: {...}`` holding the SMTP envelope (sender, every recipient including Bcc,
the time it arrived, the client's MAIL options) as JSON.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import ipaddress
import json
import re
import secrets
import smtplib
import threading
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import cast

from aiosmtpd.smtp import SMTP, Envelope, Session
from pydantic import BaseModel, ConfigDict

from pcagent.env.protocol import HeldMessage, MailDelivery
from pcagent.env.smtp_server import LocalSmtpServer, write_whole
from pcagent.errors import DesktopError

__all__ = [
    "MailDeliveryError",
    "MailRelay",
    "MailRelayError",
    "UnknownMailError",
]

_ENVELOPE_HEADER = b"X-Pcagent-Envelope: "
_PREVIEW_CHARACTERS = 400
# Ids are made here (time + random hex); anything else is no id of ours.
_ID_PATTERN = re.compile(r"^[0-9TZ]{16}-[0-9a-f]{8}$")


class MailRelayError(DesktopError):
    """The mail relay could not start, or could not keep a message."""


class UnknownMailError(MailRelayError):
    """No held message has this id (never held, or already released or rejected)."""


class MailDeliveryError(MailRelayError):
    """A released message could not be handed to the upstream server; it is still held."""


class _Envelope(BaseModel):
    """The SMTP envelope of a held message, as its file's first line keeps it."""

    model_config = ConfigDict(frozen=True)

    mail_from: str
    rcpt_tos: tuple[str, ...]
    received_at: datetime
    mail_options: tuple[str, ...] = ()
    smtp_utf8: bool = False


def _new_id(received: datetime) -> str:
    return f"{received:%Y%m%dT%H%M%S}Z-{secrets.token_hex(4)}"


def _describe(message_id: str, envelope: _Envelope, content: bytes) -> HeldMessage:
    """The summary a person or a run decides on: who, to whom, what, how big, what is attached."""
    subject, attachments, preview = "", (), ""
    try:
        parsed = cast(EmailMessage, email.message_from_bytes(content, policy=email.policy.default))
        subject = str(parsed.get("Subject", ""))
        attachments = tuple(
            str(part.get_filename())
            for part in parsed.walk()
            if not part.is_multipart() and part.get_filename()
        )
        body = parsed.get_body(preferencelist=("plain", "html"))
        if body is not None:
            preview = " ".join(str(body.get_content()).split())[:_PREVIEW_CHARACTERS]
    except Exception as error:
        # A message the parser cannot read is still held (never sent unseen); the person is
        # told why it shows no contents.
        preview = f"(the message could not be read: {type(error).__name__}: {error})"
    return HeldMessage(
        id=message_id,
        sender=envelope.mail_from,
        recipients=envelope.rcpt_tos,
        subject=subject,
        size=len(content),
        received_at=envelope.received_at,
        attachments=attachments,
        preview=preview,
    )


def _read_held_file(path: Path) -> tuple[_Envelope, bytes]:
    data = path.read_bytes()
    first, _, content = data.partition(b"\n")
    if not first.startswith(_ENVELOPE_HEADER):
        raise MailRelayError(
            f"{path} is not a message the mail relay held (no X-Pcagent-Envelope line); move it "
            "out of the relay's folder"
        )
    try:
        envelope = _Envelope.model_validate_json(first[len(_ENVELOPE_HEADER) :].strip())
    except ValueError as error:
        raise MailRelayError(
            f"the envelope line of {path} is unreadable ({error}); move the file out of the "
            "relay's folder"
        ) from None
    return envelope, content


class _HoldHandler:
    """aiosmtpd handler: only clients on this machine; every DATA becomes one held file."""

    def __init__(self, relay: MailRelay) -> None:
        self._relay = relay

    async def handle_MAIL(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        # The relay binds to a loopback address, so this only matters if that ever changes;
        # a relay that anyone could fill is a relay anyone could use to flood the person.
        peer = session.peer[0] if isinstance(session.peer, tuple) else ""
        try:
            local = ipaddress.ip_address(peer).is_loopback
        except ValueError:
            local = False
        if not local:
            return "554 5.7.1 this relay accepts mail from this machine only"
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        try:
            message_id = self._relay._hold(
                _Envelope(
                    mail_from=str(envelope.mail_from or ""),
                    rcpt_tos=tuple(envelope.rcpt_tos),
                    received_at=datetime.now(UTC),
                    mail_options=tuple(envelope.mail_options),
                    smtp_utf8=bool(envelope.smtp_utf8),
                ),
                content,
            )
        except OSError:
            # Not written, so not accepted: the client keeps the message and says it failed.
            return "451 4.3.0 the message could not be stored; try again later"
        return f"250 Message held as {message_id}"


class MailRelay(LocalSmtpServer):
    """An SMTP server on 127.0.0.1 that holds what it receives (see the module's docstring).

    ``upstream`` is the ``(host, port)`` released messages go to, plain SMTP without login (the
    benchmark's sink); None records a release as "delivered nowhere". ``port=0`` picks a free
    port; read it from :attr:`port` after :meth:`start`. :meth:`held`, :meth:`release` and
    :meth:`reject` also work on a relay that is not listening (they read the folder), so a run
    can decide about messages a relay before it held. Thread-safe: the server thread adds
    messages while the caller's thread decides.
    """

    error = MailRelayError
    label = "the mail relay"

    def __init__(
        self,
        folder: Path,
        *,
        upstream: tuple[str, int] | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        forward_timeout: float = 30.0,
    ) -> None:
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise MailRelayError(
                f"the mail relay listens on this machine only, not on {host!r}; use 127.0.0.1"
            )
        super().__init__(host=host, port=port)
        self.folder = Path(folder)
        self.upstream = upstream
        self.forward_timeout = forward_timeout
        self._lock = threading.Lock()
        self._held: dict[str, HeldMessage] | None = None  # None: the folder is not read yet

    # --- life cycle (see LocalSmtpServer) --------------------------------------------------------

    @property
    def address(self) -> tuple[str, int]:
        """``(host, port)`` for the mail client's outgoing server."""
        return self.host, self.port

    def _prepare(self) -> None:
        # The messages already held in the folder are read before listening.
        with self._lock:
            self._load()

    def _handler(self) -> object:
        return _HoldHandler(self)

    # --- the messages ----------------------------------------------------------------------------

    def held(self) -> list[HeldMessage]:
        """Every message waiting for a decision, oldest first."""
        with self._lock:
            messages = list(self._load().values())
        return sorted(messages, key=lambda message: (message.received_at, message.id))

    def release(self, message_id: str) -> MailDelivery:
        """Hand a held message to the upstream server, exactly as the client sent it, to every
        envelope recipient; then it is no longer held.

        Without an upstream the message is recorded as released and delivered nowhere
        (:attr:`MailDelivery.upstream` is None). Raises :class:`UnknownMailError` for an id that
        is not held, and :class:`MailDeliveryError` when the upstream server cannot be reached or
        refuses the message: it then stays held, to be released again or rejected.
        """
        with self._lock:
            message = self._take(message_id)
        path = self._path("held", message_id)
        try:
            envelope, content = _read_held_file(path)
            refused = self._forward(message_id, envelope, content) if self.upstream else ()
        except BaseException:
            with self._lock:
                self._load()[message_id] = message  # not delivered: still held
            raise
        upstream = f"{self.upstream[0]}:{self.upstream[1]}" if self.upstream else None
        self._settle(message_id, "released", upstream=upstream, refused=list(refused))
        return MailDelivery(message_id=message_id, upstream=upstream, refused=tuple(refused))

    def reject(self, message_id: str) -> HeldMessage:
        """Never send a held message; its file moves to ``rejected/`` for the record. Returns
        what was rejected. Raises :class:`UnknownMailError` for an id that is not held."""
        with self._lock:
            message = self._take(message_id)
        self._settle(message_id, "rejected")
        return message

    def reject_all(self) -> list[HeldMessage]:
        """Reject every held message (the end of an episode: nothing decided is ever sent)."""
        rejected = []
        for message in self.held():
            with contextlib.suppress(UnknownMailError):  # released meanwhile by another thread
                rejected.append(self.reject(message.id))
        return rejected

    # --- inside ----------------------------------------------------------------------------------

    def _path(self, state: str, message_id: str) -> Path:
        return self.folder / state / f"{message_id}.eml"

    def _load(self) -> dict[str, HeldMessage]:
        """The held messages, read from ``held/`` the first time (call with the lock held, or
        before the server thread runs)."""
        if self._held is None:
            held: dict[str, HeldMessage] = {}
            folder = self.folder / "held"
            for path in sorted(folder.glob("*.eml")) if folder.is_dir() else []:
                envelope, content = _read_held_file(path)
                held[path.stem] = _describe(path.stem, envelope, content)
            self._held = held
        return self._held

    def _take(self, message_id: str) -> HeldMessage:
        """Remove a message from the held ones, so two callers cannot both decide on it."""
        held = self._load()
        if not _ID_PATTERN.match(message_id) or message_id not in held:
            waiting = ", ".join(held) or "none"
            raise UnknownMailError(
                f"no held message has the id {message_id!r} (held now: {waiting}); it may have "
                "been released or rejected already: held() lists the ones waiting"
            )
        return held.pop(message_id)

    def _hold(self, envelope: _Envelope, content: bytes) -> str:
        """Keep one message: its file first, then the in-memory entry (called by the server)."""
        message_id = _new_id(envelope.received_at)
        (self.folder / "held").mkdir(parents=True, exist_ok=True)
        line = _ENVELOPE_HEADER + envelope.model_dump_json().encode("ascii") + b"\r\n"
        write_whole(self._path("held", message_id), line + content)
        message = _describe(message_id, envelope, content)
        with self._lock:
            self._load()[message_id] = message
        return message_id

    def _forward(self, message_id: str, envelope: _Envelope, content: bytes) -> list[str]:
        """Send to the upstream server; returns the recipients it refused (others got it)."""
        assert self.upstream is not None
        host, port = self.upstream
        try:
            with smtplib.SMTP(host, port, timeout=self.forward_timeout) as client:
                client.ehlo_or_helo_if_needed()
                options = [
                    option
                    for option in envelope.mail_options
                    if option == "BODY=8BITMIME" and client.has_extn("8bitmime")
                ]
                if envelope.smtp_utf8:
                    options.append("SMTPUTF8")
                refused = client.sendmail(
                    envelope.mail_from, list(envelope.rcpt_tos), content, mail_options=options
                )
        except (OSError, smtplib.SMTPException) as error:
            raise MailDeliveryError(
                f"message {message_id} could not be handed to {host}:{port}: {error}; it is "
                "still held: release it again once that server accepts mail, or reject it"
            ) from None
        return sorted(refused)

    def _settle(self, message_id: str, state: str, **details: object) -> None:
        """Move a decided message's file to ``state/`` and log the decision."""
        target = self._path(state, message_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        self._path("held", message_id).replace(target)
        entry = {
            "id": message_id,
            "decision": state,
            "at": datetime.now(UTC).isoformat(),
            **details,
        }
        with (self.folder / "decisions.jsonl").open("a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")
