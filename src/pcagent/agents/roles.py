"""The role pool (COLA): specialised decision roles, each with a capability and an action domain.

A role is data: a name, a capability description the scheduler reads, the action kinds it may
emit and the applications it may open (only ever those the environment offers: the pool is built
from the environment's list, :func:`default_pool`). The built-in specialists are the application
catalog's role families (:mod:`pcagent.applications`). Adding a role is one :meth:`RolePool.register` call. The
domain is enforced twice: the Decision agent's reply schema only contains the role's kinds, and
:meth:`RolePool.check` refuses anything outside the domain before it reaches the executor.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from pcagent import actions as act
from pcagent.applications import FAMILIES, RoleFamily, applications_of
from pcagent.errors import ConfigurationError, OutOfDomainError
from pcagent.registry import Registry

#: What every role may do: wait, call a skill (its own actions are checked against the role's
#: domain one by one), report values, finish, give up, and (in the modes that have a human) ask
#: for help.
COMMON_KINDS = frozenset({"wait", "use_skill", "answer", "done", "fail", "ask_human"})
#: Mouse and keyboard on the window in front.
GUI_KINDS = frozenset(
    {
        "click_element",
        "click",
        "double_click",
        "right_click",
        "type",
        "drag",
        "scroll",
        "hotkey",
        "press",
    }
)


@dataclass(frozen=True)
class Role:
    """One decision role. ``kinds`` and ``apps`` are its action domain."""

    name: str
    capability: str
    kinds: frozenset[str]
    apps: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.kinds) - set(act.ACTION_TYPES))
        if unknown:
            raise ConfigurationError(f"role {self.name!r} names unknown action kinds {unknown}")

    def allowed_kinds(self, with_human: bool) -> tuple[str, ...]:
        """The kinds in canonical order; ``ask_human`` only when a human is there to answer."""
        kinds = set(self.kinds) | COMMON_KINDS
        if not with_human:
            kinds.discard("ask_human")
        return tuple(kind for kind in act.ACTION_TYPES if kind in kinds)

    def check(self, action: act.Action) -> None:
        """Raise :class:`OutOfDomainError` if this role may not take ``action``."""
        if action.kind not in self.kinds and action.kind not in COMMON_KINDS:
            raise OutOfDomainError(
                f"role {self.name!r} may not use {action.kind!r} actions; its domain is "
                f"{', '.join(sorted(self.kinds | COMMON_KINDS))}"
            )
        owner = action.belongs_to
        if owner is not None and self.apps and owner not in self.apps:
            raise OutOfDomainError(
                f"role {self.name!r} may not use {action.kind!r}, an action of {owner!r}; it "
                f"works with {', '.join(sorted(self.apps))}"
            )
        if isinstance(action, act.OpenApp) and self.apps and action.app not in self.apps:
            raise OutOfDomainError(
                f"role {self.name!r} may not open {action.app!r}; it works with "
                f"{', '.join(sorted(self.apps))}"
            )


class RolePool(Registry[Role]):
    """The registered roles, by name, in registration order."""

    error = ConfigurationError
    duplicate = "a role named {name!r} is already registered"
    missing = "no role {name!r}; registered roles: {names}"

    def register(self, role: Role) -> None:
        self._add(role)

    def for_app(self, app: str) -> Role | None:
        """The most specialised role whose applications include ``app`` (fewest apps; the
        scheduler's rule fallback). Between roles holding as few, the one with more action kinds
        wins: with one application offered, the launcher holds it as narrowly as the specialist
        does, but only the specialist can work inside it."""
        holding = [role for role in self if app in role.apps]
        if not holding:
            return None
        return min(holding, key=lambda role: (len(role.apps), -len(role.kinds)))


def _specialist(family: RoleFamily) -> Role:
    """The built-in role of one application family (:mod:`pcagent.applications.families`),
    before it meets an environment: GUI actions, opening its applications and, where the family
    says so, selecting text."""
    extra = {"open_app", "select_text"} if family.selects_text else {"open_app"}
    return Role(family.name, family.capability, GUI_KINDS | extra, applications_of(family))


def _with_app_actions(role: Role, app_kinds: frozenset[str]) -> Role:
    """``role`` with the application actions (of ``app_kinds``) of its own applications."""
    own = act.app_kinds_for(role.apps) & app_kinds
    return replace(role, kinds=role.kinds | own) if own else role


def default_pool(apps: Iterable[str], app_kinds: Iterable[str] = ()) -> RolePool:
    """The built-in roles for an environment offering ``apps`` (logical application names) and
    the application actions ``app_kinds`` (:mod:`pcagent.app_actions`; none: GUI alone).

    The launcher comes first and may open every one of them. Each specialist keeps only the
    applications of its family that the environment offers, and a specialist left with none is
    not registered: the scheduler must never hand a subtask to a role that cannot open its
    application. Each specialist gets the application actions of its applications; the launcher
    gets none. (An empty ``apps`` leaves the launcher alone and unrestricted: a role with no
    applications may open any, and the environment then judges the name.)
    """
    offered = frozenset(apps)
    interfaces = frozenset(app_kinds)
    pool = RolePool(
        [
            Role(
                "app_launcher",
                "Opens applications and switches between windows; does nothing inside them.",
                frozenset({"open_app", "hotkey", "press", "click"}),
                offered,
            )
        ]
    )
    for role in map(_specialist, FAMILIES):
        kept = role.apps & offered
        if kept:
            pool.register(_with_app_actions(replace(role, apps=kept), interfaces))
    return pool


def generalist(apps: Iterable[str], app_kinds: Iterable[str] = ()) -> Role:
    """The role of the ablation without a role pool: every action, every application the
    environment offers, and their application actions among ``app_kinds``."""
    role = Role(
        "generalist",
        "Does anything on the desktop.",
        GUI_KINDS | {"open_app", "select_text"},
        frozenset(apps),
    )
    return _with_app_actions(role, frozenset(app_kinds))
