"""The Thunderbird profile a mail task starts with: a ready identity, folders pre-filled with
messages, and the sandbox's mail relay as its outgoing server.

Thunderbird started on such a profile opens straight into its main window on the Inbox, with no
account wizard. Kept apart from the sink (:mod:`pcagent.bench.mail`) because it writes the mail
client's files before a task, while the sink receives what the client sends during one.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from pcagent.env.ownership import give_to_owner
from pcagent.env.thunderbird_prefs import read_prefs

__all__ = [
    "LOCAL_FOLDERS",
    "PROFILE_PATH",
    "MailAttachment",
    "MailMessage",
    "mbox_text",
    "write_mail_profile",
]

PROFILE_PATH = Path(".thunderbird") / "pcagent"
"""The profile folder under HOME; the ``mail`` application is started with it."""

LOCAL_FOLDERS = ("Inbox", "Sent", "Drafts", "Trash", "Templates")
"""The mbox files written under ``Mail/Local Folders`` of the profile."""


def _bare_address(header: str) -> str | None:
    """The first address of a header value without its display name; None when it has none."""
    addresses = [address for _, address in getaddresses([header]) if address]
    return addresses[0] if addresses else None


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
        envelope_sender = _bare_address(sender) or "unknown@localhost"
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
