"""Several desktops as one environment for one run (CRAB's cross-platform tasks): the run works on
one of them at a time, the one the current subtask names.

The agents see one screen, the current desktop's, and their actions go to it; the run loop
switches desktops when a subtask on another one starts (:meth:`EnvironmentSet.use`), so an
action can never reach a desktop its subtask is not about. What the run layer keeps of the
desktop (the HOME snapshots that rewind and the file-effect checks use) is the first desktop's:
the others are driven and observed, and their files are not snapshotted.

The capabilities offered are those every member has (a remote member without text access
takes it away from the set); each is answered by the current member, except the held mail, which
is every member's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from pcagent.actions import Action
from pcagent.env.observation import ActionResult, Box, Observation, TextState, WindowInfo
from pcagent.env.protocol import (
    AppInfo,
    ApplicationCatalog,
    ApplicationControl,
    ApplicationInterfaces,
    Environment,
    HeldMessage,
    LocalHome,
    MailDelivery,
    OutgoingMail,
    TextAccess,
    UnsavedDocument,
    UnsavedWork,
)
from pcagent.errors import PcAgentError


class UnknownEnvironmentError(PcAgentError):
    """A subtask named a desktop the run does not have."""


class EnvironmentSet:
    """Named desktops, the first the default (a :class:`~pcagent.env.protocol.Desktops`); see the
    module's docstring."""

    def __init__(self, members: Mapping[str, Environment]) -> None:
        if not members:
            raise ValueError("an environment set needs at least one desktop")
        self.members = dict(members)
        self.primary = next(iter(self.members))
        self.current_name = self.primary

    @property
    def current(self) -> Environment:
        return self.members[self.current_name]

    def use(self, name: str) -> Environment:
        """Make ``name`` ("": the first desktop) the desktop the run works on."""
        name = name or self.primary
        if name not in self.members:
            raise UnknownEnvironmentError(
                f"no desktop {name!r} in this run; it has {', '.join(self.members)}"
            )
        self.current_name = name
        return self.members[name]

    def current_home(self) -> Path | None:
        """The current desktop's HOME on this machine (None when it has none here): where a
        subtask on it saves its files."""
        member = self.current
        return Path(member.home) if isinstance(member, LocalHome) else None

    def environment_apps(self) -> dict[str, list[str]]:
        """Each desktop's applications by logical name (what the Manager plans with)."""
        return {
            name: [app.name for app in member.applications()]
            if isinstance(member, ApplicationCatalog)
            else []
            for name, member in self.members.items()
        }

    # --- Environment ----------------------------------------------------------------------------

    def observe(self) -> Observation:
        return self.current.observe()

    def execute(self, action: Action) -> ActionResult:
        return self.current.execute(action)

    def reset(self) -> None:
        for member in self.members.values():
            member.reset()

    def close(self) -> None:
        """The members belong to whoever made the set (the benchmark closes its desktops)."""

    def describe(self) -> dict[str, object]:
        described: dict[str, object] = {}
        for name, member in self.members.items():
            describe = getattr(member, "describe", None)
            described[name] = describe() if callable(describe) else {}
        return {"environments": described, "current": self.current_name}


class _Catalog:
    members: dict[str, Environment]
    current: Environment

    def applications(self) -> Sequence[AppInfo]:
        seen: dict[str, AppInfo] = {}
        for member in self.members.values():
            for app in member.applications():  # type: ignore[attr-defined]
                seen.setdefault(app.name, app)
        return list(seen.values())

    def app_of_window(self, window: WindowInfo) -> str:
        return self.current.app_of_window(window)  # type: ignore[attr-defined]


class _Control:
    current: Environment

    def open_app(self, name: str, files: Sequence[str | Path] = ()) -> WindowInfo:
        return self.current.open_app(name, files)  # type: ignore[attr-defined]

    def bring_to_front(self, name: str) -> WindowInfo | None:
        return self.current.bring_to_front(name)  # type: ignore[attr-defined]

    def close_apps(self) -> list[int]:
        return self.current.close_apps()  # type: ignore[attr-defined]

    def focused_app(self) -> str:
        return self.current.focused_app()  # type: ignore[attr-defined]


class _Home:
    members: dict[str, Environment]
    primary: str

    @property
    def home(self) -> Path:
        return self.members[self.primary].home  # type: ignore[attr-defined]


class _Unsaved:
    current: Environment

    def unsaved_documents(self) -> list[UnsavedDocument]:
        return self.current.unsaved_documents()  # type: ignore[attr-defined]


class _Mail:
    members: dict[str, Environment]

    def held_mail(self) -> Sequence[HeldMessage]:
        return [m for member in self._relays() for m in member.held_mail()]

    def release_mail(self, message_id: str) -> MailDelivery:
        return self._holder(message_id).release_mail(message_id)

    def reject_mail(self, message_id: str) -> None:
        self._holder(message_id).reject_mail(message_id)

    def _relays(self) -> list[OutgoingMail]:
        return [m for m in self.members.values() if isinstance(m, OutgoingMail)]

    def _holder(self, message_id: str) -> OutgoingMail:
        for member in self._relays():
            if any(message.id == message_id for message in member.held_mail()):
                return member
        return self._relays()[0]  # it raises the member's own "unknown message" error


class _Interfaces:
    current: Environment

    def app_action_kinds(self) -> frozenset[str]:
        return frozenset(self.current.app_action_kinds())  # type: ignore[attr-defined]


class _Text:
    current: Environment

    def text_state(self, element_id: int) -> TextState:
        return self.current.text_state(element_id)  # type: ignore[attr-defined]

    def character_boxes(self, element_id: int, offsets: Sequence[int]) -> list[Box | None]:
        return self.current.character_boxes(element_id, offsets)  # type: ignore[attr-defined]

    def select_text_range(self, element_id: int, start: int, end: int) -> bool:
        return self.current.select_text_range(element_id, start, end)  # type: ignore[attr-defined]

    def primary_selection(self) -> str:
        return self.current.primary_selection()  # type: ignore[attr-defined]


_CAPABILITIES: tuple[tuple[type, type], ...] = (
    (ApplicationCatalog, _Catalog),
    (ApplicationControl, _Control),
    (LocalHome, _Home),
    (UnsavedWork, _Unsaved),
    (OutgoingMail, _Mail),
    (ApplicationInterfaces, _Interfaces),
    (TextAccess, _Text),
)


def environment_set(members: Mapping[str, Environment]) -> EnvironmentSet:
    """An :class:`EnvironmentSet` offering what the run needs of ``members``: the capabilities
    every member has, the first member's HOME (see the module's docstring), and the mail held by
    any of them (a relay left undecided would keep its messages forever)."""
    values = list(members.values())
    parts = []
    for protocol, part in _CAPABILITIES:
        if part is _Home:
            offered = bool(values) and isinstance(values[0], LocalHome)
        elif part is _Mail:
            offered = any(isinstance(m, protocol) for m in values)
        else:
            offered = all(isinstance(m, protocol) for m in values)
        if offered:
            parts.append(part)
    if not parts:
        return EnvironmentSet(members)
    name = "EnvironmentSetWith" + "".join(part.__name__.strip("_") for part in parts)
    return type(name, (EnvironmentSet, *parts), {})(members)
