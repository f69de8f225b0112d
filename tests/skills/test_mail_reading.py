"""A folder's reading, as ``mail_read`` gives it, tells which message holds an attachment, and
whether it holds any (the real client in tests/env/app_interfaces/test_mail_actions.py)."""

from __future__ import annotations

from tests.skills.test_language_skills import Desk

from pcagent.app_actions import MailRead
from pcagent.skills.base import ActionOutcome
from pcagent.skills.mail import newest_with_attachment, read_mail, with_subject

READING = """Inbox: 3 messages (1 unread); the newest 3, newest first

#3 from Ann Lee <ann@example.test> to me, 2025-02-22 09:00
Subject: Photos
Attachments: beach.png, Notes.TXT
#1 is what I meant
Attachments: homework.py

#2 from Howie Chen <howie@example.test> to me, 2025-02-21 10:12
Subject: Code
Attachments: homework.py
Here it is.

#1 from Bo <bo@example.test> to me, 2025-02-20 08:00
Subject: Old code
Attachments: homework.py
An older copy."""


def test_the_newest_message_with_the_attachment_is_found_by_its_name() -> None:
    # The newest holding it, the name's letter case aside; a line of a text that reads like
    # the list of attachments, or like a message's first line, is neither.
    assert newest_with_attachment(READING, "homework.py") == 2
    assert newest_with_attachment(READING, "notes.txt") == 3
    assert newest_with_attachment(READING.replace("#2 from", "#2 sent by"), "homework.py") == 1
    assert newest_with_attachment(READING, "report.pdf") is None
    assert newest_with_attachment("", "homework.py") is None


def test_the_messages_whose_subject_holds_the_words_are_kept_whole() -> None:
    # Case aside, newest first, each message with its lines (its text's blank line too).
    code, old = with_subject(READING, "code")
    assert code.startswith("#2 from Howie Chen") and code.endswith("Here it is.")
    assert old.startswith("#1 from Bo") and "An older copy." in old
    (photos,) = with_subject(READING, "PHOTOS")
    assert "#1 is what I meant" in photos  # a line of its text, not a message of its own
    assert with_subject(READING, "Travel") == []


class Folders(Desk):
    """A mail client whose folders read as ``mail_read`` reads them."""

    def __init__(self, readings: dict[str, str]) -> None:
        super().__init__(None)
        self.readings = readings

    def act(self, action: object) -> ActionOutcome:
        assert isinstance(action, MailRead)
        reading = self.readings.get(action.folder)
        if reading is None:
            return ActionOutcome(False, f"no mail folder {action.folder!r}")
        return ActionOutcome(True, "read", reading, True)


def test_a_folder_that_holds_no_message_fails_the_read_naming_where_messages_are() -> None:
    """A rewording of pc25 read the empty Sent for the message "Travel", and the next step
    looked for a journey's cities in "Sent: 0 messages"."""
    empty = "Sent: 0 messages (0 unread)"
    result = read_mail.call(Folders({"Sent": empty, "Inbox": READING}), {"folder": "Sent"})
    assert not result.ok
    assert "Sent holds no message" in result.message
    assert "Inbox holds messages with the subjects 'Photos'; 'Code'; 'Old code'" in result.message
    alone = read_mail.call(
        Folders({"Sent": empty, "Inbox": "Inbox: 0 messages"}), {"folder": "Sent"}
    )
    assert not alone.ok and "nor do the Inbox and Sent" in alone.message
    full = read_mail.call(Folders({"Inbox": READING}), {"folder": "Inbox"})
    assert full.ok and full.value == READING
