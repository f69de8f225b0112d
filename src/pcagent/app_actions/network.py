"""The application actions of the programs that reach out: mail and the browser."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from pcagent import applications
from pcagent.action_base import Int
from pcagent.app_actions.base import AppAction, HomePath, ReadsFront

# --- mail ----------------------------------------------------------------------------------------


def one_mail_address(address: str) -> str:
    """``address`` when it is one e-mail address: a name ("Howie") or two addresses in one
    string are refused where they are written (an action, a program's step), not at the relay."""
    if "@" not in address or any(c in address for c in " ,;<>\"'\n"):
        raise PydanticCustomError(
            "address", "{address} is not one e-mail address", {"address": repr(address)}
        )
    return address


#: One e-mail address, checked by :func:`one_mail_address`.
MailAddress = Annotated[str, AfterValidator(one_mail_address)]


class MailCompose(AppAction, application=applications.MAIL):
    """Open a new message with recipients, subject, body and attachments filled in (not sent)."""

    kind: Literal["mail_compose"] = "mail_compose"
    to: tuple[MailAddress, ...] = Field(
        min_length=1, description='Addresses, e.g. ["ann@example.test"].'
    )
    subject: str = Field("", description="Subject line.")
    body: str = Field("", max_length=10_000, description="Message text.")
    attachments: tuple[str, ...] = Field((), description="Paths in HOME of files to attach.")


class MailSend(AppAction, application=applications.MAIL):
    """Send the message being written (sensitive: allowed only as the safety settings say)."""

    kind: Literal["mail_send"] = "mail_send"

    def sensitivity(self) -> tuple[str, str] | None:
        return ("send_mail", "mail_send sends the message being written")


class MailRead(ReadsFront, application=applications.MAIL):
    """Read the newest messages of a mail folder: number, sender, subject, date, text and the
    names of attachments."""

    kind: Literal["mail_read"] = "mail_read"
    folder: str = Field("Inbox", min_length=1, description='Mail folder, e.g. "Inbox".')
    limit: Int = Field(10, ge=1, le=50, description="How many of the newest messages.")


class MailSaveAttachment(AppAction, application=applications.MAIL):
    """Save an attachment of a message (its number from mail_read) into a folder in HOME."""

    settles: ClassVar[bool] = False
    kind: Literal["mail_save_attachment"] = "mail_save_attachment"
    message: Int = Field(ge=1, description="Message number (from 1), as mail_read listed it.")
    name: HomePath = Field(min_length=1, description="Attachment file name.")
    folder: HomePath = Field("Downloads", min_length=1, description="Folder in HOME to save into.")
    mail_folder: str = Field("Inbox", min_length=1, description="Mail folder of the message.")


# --- browser -------------------------------------------------------------------------------------


class BrowserOpen(AppAction, application=applications.BROWSER):
    """Open a web address in the browser, or search the web for words (as the address bar)."""

    only_looks: ClassVar[bool] = True
    kind: Literal["browser_open"] = "browser_open"
    url: str = Field(
        min_length=1,
        max_length=2000,
        description='An address ("https://example.test/") or words to search for.',
    )


class BrowserRead(ReadsFront, application=applications.BROWSER):
    """Read the text of the page in front, with its links and form fields."""

    kind: Literal["browser_read"] = "browser_read"


class BrowserClick(AppAction, application=applications.BROWSER):
    """Click the link or button of the page in front whose text is text."""

    only_looks: ClassVar[bool] = True
    kind: Literal["browser_click"] = "browser_click"
    text: str = Field(min_length=1, description="Visible text of the link or button.")


class BrowserFill(AppAction, application=applications.BROWSER):
    """Type a value into the form field of the page in front whose label is label."""

    kind: Literal["browser_fill"] = "browser_fill"
    label: str = Field(min_length=1, description="The field's label or placeholder.")
    value: str = Field(
        max_length=10_000,
        description='Text to put into the field ("true" ticks a checkbox or radio button, '
        '"false" leaves it clear).',
    )
    submit: bool = Field(False, description="true: press Enter in the field afterwards.")
