"""Moves the run makes by rule in the mail client, where a subtask's words leave no choice.

A subtask about a mail someone sent ("find the mail "Code" that I sent to Howie") starts by
reading the folder it is in: the 1.5B model gave up at once ("No mail found") without reading.

A subtask that saves a mail's attachment ("save its attachment homework.py into the Documents
folder") has, once the folder is read, the message that carries it: the run saves it with
``mail_save_attachment``; the 1.5B model, with the message listed, said "No mail found".

A subtask that sends a file as an attachment ("Then send this file to Howie (howie@example.test)
as an attachment") names everything the mail client's own ``mail_compose`` takes: the
addresses, the subject if it gives one, and the file, by name or as "this file", the one an
earlier subtask wrote. The run fills the message in with ``mail_compose``, then sends it with
``mail_send``; the safety guard still decides whether a mail may be sent, as for any step.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePosixPath

from pcagent import actions as act
from pcagent.agents.decision import Decision
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import Role
from pcagent.runtime.checkpoint import output_text
from pcagent.runtime.named_files import ADDRESS, file_names, last_named
from pcagent.runtime.rule_moves import last_succeeded, used, working_in

# --- reading the mail a subtask is about -----------------------------------------------------

#: The mail client's own action that lists a folder's newest messages with their text.
MAIL_READ_KIND = "mail_read"
#: "read the mail ...", "find the mail ...", "in the mail client, note ...".
_ABOUT_A_MAIL = re.compile(r"\b(?:mail|message|e-mail|email)\b", re.I)
_READS = re.compile(r"\b(?:read|find|look|check|note|open|see)\b", re.I)
#: "the mail that I sent", "sent by me": in the Sent folder.
_I_SENT = re.compile(r"\b(?:I|we)\s+(?:have\s+)?sent\b|\bsent\s+by\s+me\b|\bmy\s+sent\b", re.I)


def mail_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]
) -> Decision | None:
    """The step that reads the folder a mail subtask is about ("find the mail "Code" that I
    sent to Howie": Sent; otherwise the Inbox) with ``mail_read``, once the client is in
    front and before the subtask has read anything. None otherwise."""
    if not working_in("mail", MAIL_READ_KIND, subtask, role, front_app):
        return None
    words = subtask.description
    if not (_ABOUT_A_MAIL.search(words) and _READS.search(words)):
        return None
    if used(MAIL_READ_KIND, history):
        return None
    folder = "Sent" if _I_SENT.search(words) else "Inbox"
    return Decision(
        reasoning=f"[run] the subtask is about a mail: reading the {folder} folder",
        action=act.ACTION_TYPES[MAIL_READ_KIND].model_validate(
            {"kind": MAIL_READ_KIND, "folder": folder}
        ),
    )


# --- sending a file as an attachment ---------------------------------------------------------

COMPOSE_KIND = "mail_compose"
SEND_KIND = "mail_send"
_ATTACHES = re.compile(r"\battach(?:ment|ed|ing)?\b", re.I)
_SENDS = re.compile(r"\b(?:send|sends|sending|mail|e-mail|email|forward)\b", re.I)
#: 'with the subject "Budget"', "subject: 'Q3 notes'".
_SUBJECT = re.compile(
    r"\bsubject\b(?:\s+line)?\s*:?\s*[\"“'‘](?P<subject>[^\"”'’]{1,200})[\"”'’]", re.I
)


def attachment_path(words: str, earlier: Sequence[str], documents: Mapping[str, str]) -> str:
    """The file in HOME to attach: the first file ``words`` name that is among ``documents``
    (name -> path relative to HOME), else the last one named by ``earlier`` (earlier
    subtasks' words, in order: "send this file" is the file they wrote); "" when none is."""

    def found(name: str) -> str:
        path = PurePosixPath(name)
        known = documents.get(path.name, "")
        if known and (len(path.parts) == 1 or known.endswith(str(path))):
            return known
        return ""

    for name in file_names(words):
        if found(name):
            return found(name)
    return last_named(earlier, found)


def attach_move(
    subtask: SubtaskSpec,
    role: Role,
    front_app: str,
    history: Sequence[str],
    earlier: Sequence[str],
    documents: Callable[[], Mapping[str, str]],
) -> Decision | None:
    """With the mail client in front, the step that fills in the message a subtask sends a
    file in (``mail_compose``: its addresses, its subject or else the file's name, the file),
    once; then, right after that succeeded, the step that sends it (``mail_send``). ``earlier``
    holds the words of the subtasks before this one; ``documents`` lists HOME's files (only
    looked at once the words ask for an attachment). None otherwise."""
    if not working_in("mail", COMPOSE_KIND, subtask, role, front_app):
        return None
    words = subtask.description
    addresses = list(dict.fromkeys(ADDRESS.findall(words)))
    if not (addresses and _ATTACHES.search(words) and _SENDS.search(words)):
        return None
    if used(COMPOSE_KIND, history):
        if not last_succeeded(COMPOSE_KIND, history):
            return None
        if SEND_KIND not in role.kinds or used(SEND_KIND, history):
            return None
        return Decision(
            reasoning="[run] the message is filled in: sending it",
            action=act.ACTION_TYPES[SEND_KIND].model_validate({"kind": SEND_KIND}),
        )
    path = attachment_path(words, earlier, documents())
    if not path:
        return None
    subject = _SUBJECT.search(words)
    return Decision(
        reasoning=f"[run] the subtask sends {path} to {', '.join(addresses)}",
        action=act.ACTION_TYPES[COMPOSE_KIND].model_validate(
            {
                "kind": COMPOSE_KIND,
                "to": addresses,
                "subject": subject.group("subject") if subject else PurePosixPath(path).name,
                "attachments": [path],
            }
        ),
    )


# --- saving a mail's attachment ---------------------------------------------------------------

SAVE_ATTACHMENT_KIND = "mail_save_attachment"
#: "save its attachment homework.py into the Documents folder", "save the attached file".
_SAVES_ATTACHMENT = re.compile(r"\b(?:save|saves|download|downloads|store)\b[^.;]*?\battach", re.I)
_INTO_FOLDER = re.compile(
    r"\b(?:into|to|in)\s+(?:the\s+|my\s+)?(?P<folder>[\w-]+)\s+folder\b", re.I
)
#: A message as ``mail_read`` lists it: "#1 from ..." up to the next one.
_MESSAGE = re.compile(r"^#(?P<number>\d+) from .*?(?=^#\d+ from |\Z)", re.M | re.S)
_ATTACHMENTS_LINE = re.compile(r"^Attachments:\s*(?P<names>.+)$", re.M)
_SUBJECT_LINE = re.compile(r"^Subject:\s*(?P<subject>.*)$", re.M)
#: 'the mail "Code"': the subject a subtask names.
_NAMED_MAIL = re.compile(
    r"\b(?:mail|message|e-mail|email)\s+[\"“'‘](?P<subject>[^\"”'’]+)[\"”'’]", re.I
)


def attachment_to_save(words: str, reading: str) -> tuple[int, str, str] | None:
    """(message number, attachment name, mail folder) of the attachment ``words`` ask to save,
    found in a ``mail_read`` ``reading``: the message with an attachment of the name the words
    give, else the one message with attachments (of the subject the words name, if they name
    one) whose only attachment it is; None when that is not one."""
    folder = reading.partition(":")[0].strip()
    subject = _NAMED_MAIL.search(words)
    named = {name.casefold() for name in file_names(words)}
    found: list[tuple[int, str]] = []
    for message in _MESSAGE.finditer(reading):
        listed = _ATTACHMENTS_LINE.search(message.group(0))
        if listed is None:
            continue
        title = _SUBJECT_LINE.search(message.group(0))
        if subject and (
            title is None
            or title.group("subject").strip().casefold()
            != subject.group("subject").strip().casefold()
        ):
            continue
        names = [name.strip() for name in listed.group("names").split(",") if name.strip()]
        number = int(message.group("number"))
        if named:
            found += [(number, name) for name in names if name.casefold() in named]
        elif len(names) == 1:
            found.append((number, names[0]))
    if len(found) != 1 or not folder:
        return None
    return found[0][0], found[0][1], folder


def save_attachment_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str], reading: str
) -> Decision | None:
    """Once the subtask read a mail folder (``reading``, its last output), the step that saves
    the attachment it asks to save into the folder it names (Downloads if none), once."""
    if not working_in("mail", SAVE_ATTACHMENT_KIND, subtask, role, front_app):
        return None
    words = subtask.description
    if not _SAVES_ATTACHMENT.search(words) or used(SAVE_ATTACHMENT_KIND, history):
        return None
    if not last_succeeded(MAIL_READ_KIND, history):
        return None
    found = attachment_to_save(words, output_text(reading))
    if found is None:
        return None
    number, name, mail_folder = found
    into = _INTO_FOLDER.search(words)
    folder = into.group("folder") if into else "Downloads"
    return Decision(
        reasoning=f"[run] the subtask saves the attachment {name} of message {number}",
        action=act.ACTION_TYPES[SAVE_ATTACHMENT_KIND].model_validate(
            {
                "kind": SAVE_ATTACHMENT_KIND,
                "message": number,
                "name": name,
                "folder": folder,
                "mail_folder": mail_folder,
            }
        ),
    )
