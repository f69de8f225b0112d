"""What pcagent knows of one desktop application, before any layer puts it to work.

An :class:`Application` is plain data: its logical name (the one plans, task files and actions
use), what it is for, the program behind it, how its windows are recognised, which role family
works in it, whether it edits documents, which documents it opens and what its controls' labels
mean. Each layer derives its own view from it: the sandbox how to start it (:mod:`pcagent.env.apps`),
the role pool who works in it (:mod:`pcagent.agents.roles`), the grounding eval what its buttons do
(:mod:`pcagent.bench.grounding`), and the safety guard, through the environment's application list,
which applications edit documents.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class RoleFamily:
    """A decision role that works in a family of applications (COLA's specialised agents).

    ``capability`` is what the scheduler reads when it picks a role; ``selects_text`` gives the
    role the ``select_text`` action (for applications that show text to copy from)."""

    name: str
    capability: str
    selects_text: bool = False


@dataclass(frozen=True)
class Application:
    """One application, as every layer knows it.

    ``description`` is the planner's view of it (no program names: plans name logical
    applications). ``window_classes`` are X11 WM_CLASS class names (case-insensitive) of its
    windows; ``title_hint`` is a substring of its window titles that decides between applications
    sharing a class (LibreOffice's modules) and names a window that has no class at all.
    ``opens`` are the document suffixes (lower case, with the dot) it is the opener of.
    ``also_called`` are other words people use for it ("Calc", "workbook", "the web"): a model's
    quote of the words that ask for an application is believed when it calls the application by
    one of its names, and without these a request in everyday words was never checked.
    ``label_purposes`` say what a control labelled so does in this application, where the label
    means something particular to it (general labels such as "Save" are the grounding eval's).
    """

    name: str
    description: str
    program: str
    window_classes: tuple[str, ...]
    family: RoleFamily
    title_hint: str = ""
    #: It edits documents, so closing it may lose unsaved work (the safety guard's concern).
    edits_documents: bool = False
    opens: tuple[str, ...] = ()
    also_called: tuple[str, ...] = ()
    label_purposes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: Seconds the sandbox waits for its first accessible window.
    startup_timeout: float = 30.0
    #: Seconds between typed keys when it has the focus (0: as fast as possible).
    key_pause: float = 0.0

    def __post_init__(self) -> None:
        # A read-only view, so that the catalog cannot be changed through an application.
        object.__setattr__(self, "label_purposes", MappingProxyType(dict(self.label_purposes)))
