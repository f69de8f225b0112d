"""The contract between the layers above and whatever desktop they drive.

:class:`Environment` is all a run needs: look, act, reset, close. Everything else an environment
may offer is an explicit, optional capability (a protocol of its own): exact text operations
(:class:`TextAccess`), knowing its applications (:class:`ApplicationCatalog`), opening and
closing them (:class:`ApplicationControl`), a HOME folder on this machine that may be snapshotted
and restored (:class:`LocalHome`), the unsaved work open in its applications
(:class:`UnsavedWork`), the outgoing mail it holds back until allowed (:class:`OutgoingMail`),
actions through the applications' own interfaces (:class:`ApplicationInterfaces`),
a description of itself for the run record (:class:`Describable`), and being several named
desktops of which the run works on one at a time (:class:`Desktops`).
Callers test for a capability once, with ``isinstance``, and never reach past these protocols: a
remote or in-memory environment is then a drop-in replacement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from pcagent.actions import Action
from pcagent.env.observation import ActionResult, Box, Observation, TextState, WindowInfo


@runtime_checkable
class Environment(Protocol):
    """A desktop an agent can look at and act on.

    Implementations validate every action before executing it and raise
    :class:`pcagent.errors.InvalidActionError` without touching the desktop when it is impossible.
    """

    def observe(self) -> Observation:
        """Screenshot, windows and accessibility elements of the focused window, as of now."""
        ...

    def execute(self, action: Action) -> ActionResult:
        """Carry out one action that runs on the desktop (or, with :class:`ApplicationInterfaces`,
        through an application's interface) and wait until the screen settles."""
        ...

    def reset(self) -> None:
        """Return to a pristine state: applications closed, HOME restored from its template."""
        ...

    def close(self) -> None:
        """Release everything; afterwards the environment cannot be used."""
        ...


@runtime_checkable
class TextAccess(Protocol):
    """Exact text operations, for environments that can offer them (the sandbox through AT-SPI).

    The perception layer uses them to select text precisely; without them it falls back to OCR
    and mouse drags. ``element_id`` is an :attr:`Element.id` of the latest :meth:`observe`.
    """

    def text_state(self, element_id: int) -> TextState:
        """Live text, caret and selected ranges of one element."""
        ...

    def character_boxes(self, element_id: int, offsets: Sequence[int]) -> list[Box | None]:
        """Screen boxes of the characters at ``offsets`` (None where there is none)."""
        ...

    def select_text_range(self, element_id: int, start: int, end: int) -> bool:
        """Select characters [start, end) of one element; False if the application refused."""
        ...

    def primary_selection(self) -> str:
        """What is selected now, in any application (X11's PRIMARY selection); "" for nothing."""
        ...


class AppInfo(BaseModel):
    """One application an environment offers, by the logical name actions use."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str
    #: True for editors of documents (closing one may lose unsaved work).
    edits_documents: bool = False


class OpenWindow(BaseModel):
    """An application window as recorded after a step: which application, which title, and
    which document of HOME it shows ("" when none)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    app: str
    title: str = ""
    document: str = Field("", description="Path relative to HOME, or empty.")


@runtime_checkable
class ApplicationCatalog(Protocol):
    """The applications an environment knows, and which one shows a window."""

    def applications(self) -> Sequence[AppInfo]:
        """Every application ``open_app`` accepts, with what it is for."""
        ...

    def app_of_window(self, window: WindowInfo) -> str:
        """The logical application showing ``window``; "" when it is none of them."""
        ...


@runtime_checkable
class ApplicationControl(Protocol):
    """Opening, raising and closing applications outside of an agent's actions (restoring a
    recorded desktop, reopening a crashed application)."""

    def open_app(self, name: str, files: Sequence[str | Path] = ()) -> WindowInfo:
        """Start an application, on ``files`` when given; returns its window once it is up."""
        ...

    def bring_to_front(self, name: str) -> WindowInfo | None:
        """Raise the application's window; None when it is not open."""
        ...

    def close_apps(self) -> list[int]:
        """End every application opened in this environment; returns the ended process ids."""
        ...

    def focused_app(self) -> str:
        """The logical application in front; "" when none of the known ones is."""
        ...


@runtime_checkable
class LocalHome(Protocol):
    """A HOME folder on this machine holding the user's files (snapshotted and restored by the
    run layer when the run's settings allow it)."""

    @property
    def home(self) -> Path: ...


class UnsavedDocument(BaseModel):
    """A document open with changes not saved yet, and those changes as a file would hold them.

    ``contents`` is what a file of ``suffix`` would contain: the text editor's text in UTF-8, an
    office document as OpenDocument (.odt, .ods) whatever format it was opened from. In JSON the
    contents are base64.
    """

    model_config = ConfigDict(
        frozen=True, extra="forbid", ser_json_bytes="base64", val_json_bytes="base64"
    )

    app: str = Field(description="The logical application (text_editor, writer, spreadsheet).")
    title: str = Field(
        description="The window's title; for a document behind another tab, the tab's name."
    )
    document: str = Field(
        description="The file it was opened from or saved as: relative to HOME, absolute "
        "outside HOME, empty for a new document."
    )
    suffix: str = Field(description="File suffix for the contents: .txt, .odt, .ods...")
    contents: bytes


@runtime_checkable
class UnsavedWork(Protocol):
    """Says which open documents hold unsaved changes, with those changes, so that closing an
    application (a reset, a restore, the end of a run) need not lose them."""

    def unsaved_documents(self) -> list[UnsavedDocument]:
        """Every open document with unsaved changes; [] when there is none.

        Cheap enough to ask after every step. Raises :class:`pcagent.errors.DesktopError` when a
        modified document exists but could not be read.
        """
        ...


class HeldMessage(BaseModel):
    """A message the mail client sent that is held, not delivered, until it is released.

    ``sender`` and ``recipients`` are the SMTP envelope's bare addresses: ``recipients`` holds
    To, Cc and Bcc together (Bcc shows in no header). ``size`` is in bytes as sent;
    ``received_at`` is when the client handed it over (UTC). ``preview`` is the start of the text
    body on one line, for the person deciding.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    sender: str
    recipients: tuple[str, ...]
    subject: str = ""
    size: int = Field(ge=0)
    received_at: datetime
    attachments: tuple[str, ...] = Field(default=(), description="Attached files' names.")
    preview: str = ""


class MailDelivery(BaseModel):
    """What releasing a held message did: to which server it went ("host:port"), or None when
    the environment has no server to send to (the release is recorded, nothing is delivered);
    ``refused`` are recipients that server would not take (the others got the message)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    message_id: str
    upstream: str | None
    refused: tuple[str, ...] = ()


@runtime_checkable
class OutgoingMail(Protocol):
    """Mail the environment's mail client sent, held until the run or the person decides.

    However a send was set off (a key, a button, a menu, a queued outbox), the message only
    leaves through :meth:`release_mail`; the run asks after every step which are waiting.
    """

    def held_mail(self) -> Sequence[HeldMessage]:
        """Every message waiting for a decision, oldest first; cheap enough for every step."""
        ...

    def release_mail(self, message_id: str) -> MailDelivery:
        """Send a held message on. Raises :class:`pcagent.env.mail_relay.UnknownMailError` for
        an id not held, and :class:`pcagent.env.mail_relay.MailDeliveryError` when the server
        cannot take it (it stays held)."""
        ...

    def reject_mail(self, message_id: str) -> None:
        """Never send a held message (it is kept for the record). Raises
        :class:`pcagent.env.mail_relay.UnknownMailError` for an id not held."""
        ...


@runtime_checkable
class ApplicationInterfaces(Protocol):
    """Carries out application actions (:mod:`pcagent.app_actions`) through the applications'
    own interfaces, passed to :meth:`Environment.execute` like any action.

    An environment without this capability offers none of them, and the agents keep to the GUI.
    """

    def app_action_kinds(self) -> frozenset[str]:
        """The kinds of application action this environment can carry out."""
        ...


@runtime_checkable
class Describable(Protocol):
    """Says where it is, for the run record (a display, a state file, an address)."""

    def describe(self) -> dict[str, object]: ...


@runtime_checkable
class Desktops(Protocol):
    """Several named desktops as one environment; the run works on one of them at a time.

    The run layer switches to the desktop a subtask names before each step, plans with each
    desktop's applications, and puts back only the first desktop on a rewind (the one whose HOME
    is snapshotted). :class:`pcagent.env.environment_set.EnvironmentSet` is one implementation.
    """

    @property
    def members(self) -> Mapping[str, Environment]:
        """Every desktop by name, the first the default."""
        ...

    @property
    def primary(self) -> str:
        """The first desktop's name: the one a subtask without a desktop works on."""
        ...

    @property
    def current_name(self) -> str:
        """The name of the desktop the run works on now."""
        ...

    def use(self, name: str) -> Environment:
        """Work on ``name`` ("": the first desktop) from now on; returns that desktop. Raises
        :class:`pcagent.env.environment_set.UnknownEnvironmentError` for a name not in the set."""
        ...

    def current_home(self) -> Path | None:
        """The current desktop's HOME on this machine; None when it has none here."""
        ...

    def environment_apps(self) -> dict[str, list[str]]:
        """Each desktop's applications by logical name (what the plan is made with)."""
        ...
