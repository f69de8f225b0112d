"""The base of the application actions and the path type they share (see the package's
docstring)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from pcagent.action_base import ActionBase, ActionSite

if TYPE_CHECKING:
    from pcagent.applications import Application

_PATH = 'Path in HOME, e.g. "Documents/report.docx".'


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise PydanticCustomError("path_nul", "a path cannot contain a NUL character")
    return value


HomePath = Annotated[str, AfterValidator(_no_nul)]
"""A path as a model writes it; whether it lies in HOME is checked where HOME is known."""

OpenedPath = Annotated[HomePath, Field(min_length=1, description=_PATH)]
"""The file an opening or saving action names."""


class AppAction(ActionBase):
    """Base of the actions carried out through an application's own interface.

    Each action names its application where it is declared,
    ``class WriterOpen(AppAction, application=applications.WRITER)``, which sets
    :attr:`belongs_to` to that application's name.
    """

    runs_on: ClassVar[ActionSite] = "application"
    belongs_to: ClassVar[str | None] = None

    def __init_subclass__(cls, *, application: Application | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if application is not None:
            cls.belongs_to = application.name


class OpensFile(AppAction):
    """An action that opens a file by its path in its application. It changes no file, so it
    checks no effect of a subtask (``only_looks``)."""

    only_looks: ClassVar[bool] = True
    path: OpenedPath


class ReadsFront(AppAction):
    """An action that reads what an application holds (the document or page in front, a folder, a mail folder): nothing changes, so it checks
    no effect and the screen is not waited on to settle."""

    only_looks: ClassVar[bool] = True
    settles: ClassVar[bool] = False
