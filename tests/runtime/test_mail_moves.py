"""Moves the run makes by rule in the mail client: reading the folder a subtask is about, and
filling in and sending a message that carries a file."""

from __future__ import annotations

from pcagent import app_actions
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import default_pool
from pcagent.runtime.mail_moves import attach_move, attachment_path, mail_move

KINDS = frozenset({"mail_read", "mail_compose", "mail_send", "mail_save_attachment"})
ROLE = default_pool(["mail"], KINDS).get("mail")
HOME = {"area.py": "Documents/area.py", "notes.txt": "notes.txt", "plan.odt": "Work/plan.odt"}


def subtask(description: str) -> SubtaskSpec:
    return SubtaskSpec(id="s2", description=description, app="mail")


def test_a_mail_subtask_starts_by_reading_the_folder_it_is_about() -> None:
    sent = subtask('Find the mail "Plans" that I sent to Ana and note the date')
    assert mail_move(sent, ROLE, "mail", []).action == app_actions.MailRead(folder="Sent")  # type: ignore[union-attr]
    inbox = subtask("Read the newest mail and note its sender")
    assert mail_move(inbox, ROLE, "mail", []).action == app_actions.MailRead(folder="Inbox")  # type: ignore[union-attr]
    assert mail_move(inbox, ROLE, "mail", ["2: mail_read(folder='Inbox') -> success"]) is None
    assert mail_move(subtask("Send notes.txt to ana@example.test"), ROLE, "mail", []) is None


def test_the_file_to_attach_is_named_or_is_the_one_an_earlier_subtask_wrote() -> None:
    assert attachment_path("Send plan.odt to bo@example.test", [], HOME) == "Work/plan.odt"
    assert attachment_path("Send Work/plan.odt to bo@x.test", [], HOME) == "Work/plan.odt"
    assert attachment_path("Send Other/plan.odt to bo@x.test", [], HOME) == ""  # not that one
    earlier = ["Write notes.txt, then mail it", "Create area.py in Documents and write area(r)"]
    assert attachment_path("Send this file to bo@example.test", earlier, HOME) == (
        "Documents/area.py"
    )
    # an address is not a file name; a file not in HOME is not attached
    assert attachment_path("Send it to notes.txt@example.test", [], {}) == ""
    assert attachment_path("Send missing.pdf to bo@example.test", [], HOME) == ""


def test_a_file_is_sent_by_filling_in_the_message_then_sending_it() -> None:
    sending = subtask(
        'Then send this file to Bo (bo@example.test) as an attachment, with the subject "Area"'
    )
    earlier = ["Create a new file area.py in the Documents folder and write area(r)"]
    asked: list[int] = []

    def home() -> dict[str, str]:
        asked.append(1)
        return HOME

    move = attach_move(sending, ROLE, "mail", [], earlier, home)
    assert move is not None and move.reasoning.startswith("[run]")
    assert move.action == app_actions.MailCompose(
        to=("bo@example.test",), subject="Area", attachments=("Documents/area.py",)
    )
    composed = ["3: mail_compose(to=('bo@example.test',)) -> success"]
    send = attach_move(sending, ROLE, "mail", composed, earlier, home)
    assert send is not None and send.action == app_actions.MailSend()
    sent = [*composed, "4: mail_send() -> success"]
    assert attach_move(sending, ROLE, "mail", sent, earlier, home) is None
    failed = ["3: mail_compose(to=('bo@example.test',)) -> no_change"]
    assert attach_move(sending, ROLE, "mail", failed, earlier, home) is None
    # no subject given: the file's name
    plain = subtask("Mail notes.txt to ann@example.test as an attachment")
    move = attach_move(plain, ROLE, "mail", [], [], home)
    assert move is not None and move.action.subject == "notes.txt"  # type: ignore[union-attr]


def test_no_message_is_filled_in_without_an_address_an_attachment_or_the_client() -> None:
    def home() -> dict[str, str]:
        raise AssertionError("HOME is not looked at")

    for words in (
        "Send notes.txt to Ann as an attachment",  # no address
        "Mail ann@example.test that the meeting moved",  # no attachment
    ):
        assert attach_move(subtask(words), ROLE, "mail", [], [], home) is None
    attaching = subtask("Send notes.txt to ann@example.test as an attachment")
    assert attach_move(attaching, ROLE, "browser", [], [], home) is None
    gui = default_pool(["mail"]).get("mail")
    assert attach_move(attaching, gui, "mail", [], [], home) is None


SENT = """Sent: 2 messages; the newest 2, newest first

#1 from Ann <ann@example.test> to Bo <bo@example.test>, 2025-02-21 10:12
Subject: Code
Attachments: sums.py
Hi Bo, the script.

#2 from Ann <ann@example.test> to Cy <cy@example.test>, 2025-02-20 09:00
Subject: Photos
Attachments: a.png, b.png
Two photos."""


def test_the_attachment_to_save_is_found_in_the_folder_read() -> None:
    from pcagent.runtime.mail_moves import attachment_to_save

    assert attachment_to_save("save its attachment b.png", SENT) == (2, "b.png", "Sent")
    assert attachment_to_save('find the mail "Code" and save its attachment', SENT) == (
        1,
        "sums.py",
        "Sent",
    )
    assert attachment_to_save("save its attachment", SENT) == (1, "sums.py", "Sent")  # the one
    assert attachment_to_save("save its attachment c.pdf", SENT) is None
    assert attachment_to_save('save the attachment of the mail "Photos"', SENT) is None  # two


def test_a_mail_s_attachment_is_saved_once_its_folder_was_read() -> None:
    from pcagent.runtime.mail_moves import save_attachment_move

    saving = subtask(
        'Find the mail "Code" that I sent to Bo and save its attachment sums.py into the '
        "Documents folder"
    )
    read = ["2: mail_read(folder='Sent') -> success"]
    output = f"step 2, mail_read: {SENT}"
    move = save_attachment_move(saving, ROLE, "mail", read, output)
    assert move is not None and move.reasoning.startswith("[run]")
    assert move.action == app_actions.MailSaveAttachment(
        message=1, name="sums.py", folder="Documents", mail_folder="Sent"
    )
    done = [*read, "3: mail_save_attachment(message=1) -> success"]
    assert save_attachment_move(saving, ROLE, "mail", done, output) is None
    assert save_attachment_move(saving, ROLE, "mail", [], output) is None  # nothing read yet
    reading = subtask('Find the mail "Code" and note its date')
    assert save_attachment_move(reading, ROLE, "mail", read, output) is None
