"""Mail for benchmark tasks: a local SMTP sink and a Thunderbird profile for the sandbox.

:class:`SmtpSink` is an SMTP server on 127.0.0.1 that accepts every message and keeps it as an
``.eml`` file; checkers read what was sent through :meth:`SmtpSink.messages`. Nothing ever leaves
the machine. :func:`write_mail_profile` turns the sandbox HOME's Thunderbird profile into one with
a ready identity and folders pre-filled with messages, so that Thunderbird starts straight into
its main window with no account wizard. Its outgoing server is the sandbox's mail relay
(:mod:`pcagent.env.mail_relay`), which holds every message until it is released on to the sink.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import email.utils
import hashlib
import json
import re
import socket
import threading
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import getaddresses
from html.parser import HTMLParser
from pathlib import Path
from types import TracebackType
from typing import Any, cast

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from pydantic import BaseModel, ConfigDict, Field

from pcagent.env.mail_relay import read_prefs
from pcagent.env.ownership import give_to_owner
from pcagent.errors import BenchError

__all__ = [
    "LOCAL_FOLDERS",
    "MailMessage",
    "MailSinkError",
    "SentMail",
    "SmtpSink",
    "mbox_text",
    "parse_stored_mail",
    "read_prefs",
    "write_mail_profile",
]

PROFILE_PATH = Path(".thunderbird") / "pcagent"
"""The profile folder under HOME; the ``mail`` application is started with it."""

LOCAL_FOLDERS = ("Inbox", "Sent", "Drafts", "Trash", "Templates")
"""The mbox files written under ``Mail/Local Folders`` of the profile."""

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


class _TextOfHtml(HTMLParser):
    """The visible text of an HTML body, paragraphs and line breaks kept as newlines."""

    _BREAKS = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "blockquote"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script", "head", "title"):
            self._skip += 1
        elif tag in self._BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "head", "title"):
            self._skip = max(0, self._skip - 1)
        elif tag in self._BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)

    def text(self) -> str:
        lines = [" ".join(line.split()) for line in "".join(self.parts).splitlines()]
        return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


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
    parser = _TextOfHtml()
    parser.feed(str(part.get_content()))
    parser.close()
    return parser.text()


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
        temporary = self.folder / f".{name}.part"
        temporary.write_bytes(data)
        temporary.replace(self.folder / name)
        return "250 Message accepted for delivery"


class _BoundController(Controller):
    """A :class:`Controller` serving on a socket bound beforehand, so port 0 (any free port)
    works and no other program can take the port between choosing and listening."""

    def __init__(self, handler: Any, listening: socket.socket, **kwargs: Any) -> None:
        host, port = listening.getsockname()[:2]
        super().__init__(handler, hostname=host, port=port, **kwargs)
        self._listening = listening

    def _create_server(self) -> Any:
        return self.loop.create_server(self._factory_invoker, sock=self._listening)


class SmtpSink:
    """An SMTP server on 127.0.0.1 that stores each message it receives as ``folder/NNNNNN-*.eml``.

    ``port=0`` picks a free port; read the real one from :attr:`port` after :meth:`start`. No
    authentication and no TLS (Thunderbird's ``authMethod`` 1, ``try_ssl`` 0). Use as a context
    manager or call :meth:`start` and :meth:`stop`; :meth:`stop` ends the server thread.
    """

    def __init__(self, folder: Path, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.folder = Path(folder)
        self.host = host
        self._requested_port = port
        self._port: int | None = None
        self._controller: _BoundController | None = None

    @property
    def port(self) -> int:
        """The port the sink listens on; :class:`MailSinkError` before :meth:`start`."""
        if self._port is None:
            raise MailSinkError("the SMTP sink has no port until start() is called")
        return self._port

    @property
    def running(self) -> bool:
        return self._controller is not None

    def start(self) -> SmtpSink:
        """Listen; returns self. Starting a running sink does nothing."""
        if self._controller is not None:
            return self
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise MailSinkError(f"cannot create the mail folder {self.folder}: {error}") from None
        listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listening.bind((self.host, self._requested_port))
            listening.listen()
        except OSError as error:
            listening.close()
            raise MailSinkError(
                f"cannot listen for SMTP on {self.host}:{self._requested_port}: {error}; "
                "pass port=0 to use any free port"
            ) from None
        controller = _BoundController(_StoreHandler(self.folder), listening)
        try:
            controller.start()
        except BaseException as error:
            with contextlib.suppress(Exception):
                controller.stop(no_assert=True)
            listening.close()
            if not controller.loop.is_closed():
                controller.loop.close()
            if isinstance(error, Exception):
                raise MailSinkError(f"the SMTP sink did not start: {error}") from error
            raise
        self._controller = controller
        self._port = listening.getsockname()[1]
        return self

    def stop(self) -> None:
        """Stop listening and end the server thread (waits for it). Stopping twice is fine;
        the stored files stay."""
        controller, self._controller = self._controller, None
        if controller is None:
            return
        controller.stop()
        if not controller.loop.is_closed():
            controller.loop.close()

    def __enter__(self) -> SmtpSink:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

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


# --- the Thunderbird profile ---------------------------------------------------------------------


class MailAttachment(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    text: str


class MailMessage(BaseModel):
    """A message to place in a Thunderbird folder before a task starts.

    ``sender`` and ``to`` are header values (``"Jamie Lee <jamie@example.test>"``); an empty
    ``sender`` or ``to`` means the profile's own identity. ``attachments`` are text files
    (``{"name": "homework.py", "text": "..."}``). A ``date`` without a time zone is taken as UTC.
    In Thunderbird's message list the row's accessible name reads
    ``"Jamie Lee <jamie@example.test>, 5/2/24, 09:30, Budget review on Thursday, Unread"``
    (date and time in the sandbox's time zone).
    """

    model_config = ConfigDict(frozen=True)

    sender: str = ""
    to: str = ""
    subject: str
    body: str
    date: datetime
    read: bool = False
    attachments: tuple[MailAttachment, ...] = ()


def _pref_literal(value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def _account_prefs(
    *, smtp_port: int, identity_name: str, identity_email: str
) -> dict[str, str | int | bool]:
    """Local Folders, a POP3 account that never connects (its mail goes to Local Folders), one
    identity that saves copies to Local Folders/Sent, and 127.0.0.1:``smtp_port`` as the outgoing
    server."""
    local_uri = "mailbox://nobody@Local%20Folders"
    user = identity_email.split("@")[0] or "user"
    return {
        "mail.accountmanager.accounts": "account1,account2",
        "mail.accountmanager.defaultaccount": "account1",
        "mail.accountmanager.localfoldersserver": "server2",
        "mail.account.account1.identities": "id1",
        "mail.account.account1.server": "server1",
        "mail.account.account2.server": "server2",
        # POP3 on 127.0.0.1: no mail is ever fetched (nothing listens there), deferred so that
        # its Inbox is Local Folders' Inbox.
        "mail.server.server1.type": "pop3",
        "mail.server.server1.hostname": "127.0.0.1",
        "mail.server.server1.port": 110,
        "mail.server.server1.userName": user,
        "mail.server.server1.name": identity_email,
        "mail.server.server1.socketType": 0,
        "mail.server.server1.authMethod": 3,
        "mail.server.server1.login_at_startup": False,
        "mail.server.server1.check_new_mail": False,
        "mail.server.server1.download_on_biff": False,
        "mail.server.server1.deferred_to_account": "account2",
        "mail.server.server1.directory-rel": "[ProfD]Mail/127.0.0.1",
        "mail.server.server2.type": "none",
        "mail.server.server2.hostname": "Local Folders",
        "mail.server.server2.name": "Local Folders",
        "mail.server.server2.userName": "nobody",
        "mail.server.server2.directory-rel": "[ProfD]Mail/Local Folders",
        "mail.identity.id1.fullName": identity_name,
        "mail.identity.id1.useremail": identity_email,
        "mail.identity.id1.smtpServer": "smtp1",
        "mail.identity.id1.valid": True,
        "mail.identity.id1.fcc": True,
        "mail.identity.id1.fcc_folder": f"{local_uri}/Sent",
        "mail.identity.id1.fcc_folder_picker_mode": "1",
        "mail.identity.id1.draft_folder": f"{local_uri}/Drafts",
        "mail.identity.id1.drafts_folder_picker_mode": "1",
        "mail.identity.id1.stationery_folder": f"{local_uri}/Templates",
        "mail.identity.id1.tmpl_folder_picker_mode": "1",
        "mail.identity.id1.archive_folder": f"{local_uri}/Archives",
        "mail.smtpservers": "smtp1",
        "mail.smtp.defaultserver": "smtp1",
        "mail.smtpserver.smtp1.hostname": "127.0.0.1",
        "mail.smtpserver.smtp1.port": smtp_port,
        "mail.smtpserver.smtp1.authMethod": 1,
        "mail.smtpserver.smtp1.try_ssl": 0,
        "mail.smtpserver.smtp1.username": "",
        "mail.smtpserver.smtp1.description": "Local SMTP",
    }


def _message_id(message: MailMessage, folder: str, index: int) -> str:
    digest = hashlib.sha1(
        f"{folder}/{index}/{message.sender}/{message.subject}/{message.date}".encode()
    ).hexdigest()[:16]
    return f"<{digest}@pcagent.local>"


def _mbox_escape(body: str) -> str:
    """mboxrd quoting: a body line matching ``>*From `` gains one more ``>``, so the "From "
    line that separates messages never appears inside one."""
    return "\n".join(
        f">{line}" if re.match(r">*From ", line) else line for line in body.split("\n")
    )


def mbox_text(messages: Sequence[MailMessage], *, folder: str, default_to: str) -> str:
    """The mbox file contents of one folder holding ``messages`` in order."""
    entries: list[str] = []
    for index, message in enumerate(messages):
        date = message.date if message.date.tzinfo else message.date.replace(tzinfo=UTC)
        sender = message.sender or default_to
        sender_address = _addresses([sender])
        envelope_sender = sender_address[0] if sender_address else "unknown@localhost"
        mime = EmailMessage(policy=email.policy.SMTP)
        mime["From"] = sender
        mime["To"] = message.to or default_to
        mime["Subject"] = message.subject
        mime["Date"] = email.utils.format_datetime(date)
        mime["Message-ID"] = _message_id(message, folder, index)
        mime.set_content(message.body, cte="8bit")
        for attachment in message.attachments:
            mime.add_attachment(
                attachment.text.encode(), "application", "octet-stream", filename=attachment.name
            )
        headers, _, body = mime.as_bytes().decode().replace("\r\n", "\n").partition("\n\n")
        status = "0001" if message.read else "0000"
        utc = date.astimezone(UTC)
        ctime = f"{utc:%a %b} {utc.day:2d} {utc:%H:%M:%S %Y}"  # asctime(), as mbox wants
        entries.append(
            f"From {envelope_sender} {ctime}\n"
            f"X-Mozilla-Status: {status}\nX-Mozilla-Status2: 00000000\n"
            f"{headers}\n\n{_mbox_escape(body.rstrip(chr(10)))}\n\n"
        )
    return "".join(entries)


def write_mail_profile(
    home: Path,
    *,
    smtp_port: int,
    identity_name: str = "Alex Morgan",
    identity_email: str = "alex@example.test",
    inbox: Sequence[MailMessage] = (),
    sent: Sequence[MailMessage] = (),
    folders: Mapping[str, Sequence[MailMessage]] | None = None,
) -> Path:
    """(Re)write the Thunderbird profile under ``home`` for a mail task; returns its folder.

    The prefs already in its prefs.js (the HOME template's quiet-start settings, or what
    Thunderbird saved) are kept; the account settings are set on top. Every folder of
    :data:`LOCAL_FOLDERS` is rewritten: ``inbox`` and ``sent`` fill Inbox and Sent, ``folders``
    (name -> messages) any of them, the rest are empty. Thunderbird then starts on the Inbox with
    Local Folders expanded. Thunderbird must not be running. The POP3 account only exists to
    carry the identity: "Get Messages" would report that 127.0.0.1 refused the connection.
    ``smtp_port`` is the sandbox's mail relay (``SandboxDesktop.mail_relay_address``); the
    sandbox points every outgoing server at its relay again whenever it starts Thunderbird.
    """
    profile = home / PROFILE_PATH
    mail_folder = profile / "Mail" / "Local Folders"
    mail_folder.mkdir(parents=True, exist_ok=True)
    (profile / "Mail" / "127.0.0.1").mkdir(exist_ok=True)

    prefs_file = profile / "prefs.js"
    prefs = read_prefs(prefs_file)
    for name, value in _account_prefs(
        smtp_port=smtp_port, identity_name=identity_name, identity_email=identity_email
    ).items():
        prefs[name] = _pref_literal(value)
    prefs_file.write_text(
        "".join(
            f"user_pref({json.dumps(name)}, {value});\n" for name, value in sorted(prefs.items())
        ),
        encoding="utf-8",
    )

    contents: dict[str, Sequence[MailMessage]] = {"Inbox": inbox, "Sent": sent, **(folders or {})}
    unknown = set(contents) - set(LOCAL_FOLDERS)
    if unknown:
        raise ValueError(f"unknown mail folders {sorted(unknown)}; use {list(LOCAL_FOLDERS)}")
    own_address = email.utils.formataddr((identity_name, identity_email))
    for folder in LOCAL_FOLDERS:
        text = mbox_text(contents.get(folder, ()), folder=folder, default_to=own_address)
        (mail_folder / folder).write_text(text, encoding="utf-8")
        # A summary file left from an earlier run would describe other messages.
        (mail_folder / f"{folder}.msf").unlink(missing_ok=True)
    for cache in ("folderCache.json", "panacea.dat"):
        (profile / cache).unlink(missing_ok=True)
    _open_at_inbox(profile)
    give_to_owner(profile, home)  # the mail client runs as HOME's owner and rewrites all of it
    return profile


def _open_at_inbox(profile: Path) -> None:
    """Make Thunderbird start on Local Folders' Inbox with the folder list expanded (the files it
    writes itself on exit), instead of the account's overview page."""
    local_folders = "mailbox://nobody@Local%20Folders"
    session = {
        "rev": 0,
        "windows": [
            {
                "type": "3pane",
                "tabs": {
                    "rev": 0,
                    "selectedIndex": 0,
                    "tabs": [
                        {
                            "mode": "mail3PaneTab",
                            "state": {
                                "firstTab": True,
                                "folderPaneVisible": True,
                                "folderURI": f"{local_folders}/Inbox",
                                "messagePaneVisible": True,
                            },
                            "ext": {},
                        }
                    ],
                },
            }
        ],
    }
    (profile / "session.json").write_text(json.dumps(session), encoding="utf-8")
    (profile / "folderTree.json").write_text(
        json.dumps({"open": {"all": [local_folders]}}), encoding="utf-8"
    )
