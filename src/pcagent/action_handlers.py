"""Where an action runs is declared beside the code that runs it: ``@handles(WriterInsert)``.

A handler is a function or method whose first two parameters are its owner (the object that
carries actions out: the desktop's input executor, an application's interface, the run's
dispatcher) and the action. :func:`handles` marks it; a class that inherits :class:`Dispatches`
collects the handlers of its methods (and of the modules it names in ``handler_modules``) into
one :class:`HandlerTable` when the class is defined, and finds the one for an action by the
action's type. No chain of ``isinstance`` tests, no second list of which class does what: adding
an action's implementation is one decorated function.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType, ModuleType
from typing import Any, ClassVar, TypeVar

from pcagent.action_base import ActionBase
from pcagent.errors import PcAgentError

Handler = Callable[..., Any]
H = TypeVar("H", bound=Handler)

#: The attribute :func:`handles` sets on a handler: the action classes it carries out.
_MARK = "__pcagent_handles__"


class HandlerConflictError(PcAgentError):
    """Two handlers were declared for the same action class in one table."""


def handles(*action_types: type[ActionBase]) -> Callable[[H], H]:
    """Declare the decorated function or method as the handler of ``action_types``."""
    if not action_types:
        raise TypeError("handles() needs at least one action class")

    def declare(handler: H) -> H:
        setattr(handler, _MARK, (*getattr(handler, _MARK, ()), *action_types))
        return handler

    return declare


def declared(candidate: object) -> tuple[type[ActionBase], ...]:
    """The action classes ``candidate`` was declared to handle (none when it is no handler)."""
    return tuple(getattr(candidate, _MARK, ()))


class HandlerTable:
    """Action class -> handler, found for an action by its type (or the nearest base class
    that has one: a narrowed subclass a reply schema made is carried out like its base)."""

    def __init__(self, handlers: Mapping[type[ActionBase], Handler] | None = None) -> None:
        self._handlers: Mapping[type[ActionBase], Handler] = MappingProxyType(dict(handlers or {}))

    @classmethod
    def of(cls, *handlers: Handler) -> HandlerTable:
        """The table of the given handler functions."""
        return cls._collect((f"{h.__module__}.{h.__qualname__}", h) for h in handlers)

    @classmethod
    def in_namespaces(cls, namespaces: Iterable[Mapping[str, object]]) -> HandlerTable:
        """The table of every handler among the values of ``namespaces`` (class bodies from the
        most basic first, then modules): a name defined again later replaces the earlier one."""
        members: dict[str, Handler] = {}
        for namespace in namespaces:
            for name, member in namespace.items():
                if callable(member) and declared(member):
                    members[name] = member
                elif name in members:
                    del members[name]  # redefined without a declaration: no longer a handler
        return cls._collect(members.items())

    @classmethod
    def _collect(cls, named: Iterable[tuple[str, Handler]]) -> HandlerTable:
        table: dict[type[ActionBase], Handler] = {}
        names: dict[type[ActionBase], str] = {}
        for name, handler in named:
            for action_type in declared(handler):
                if action_type in table and table[action_type] is not handler:
                    raise HandlerConflictError(
                        f"{action_type.__name__} has two handlers: {names[action_type]} and {name}"
                    )
                table[action_type], names[action_type] = handler, name
        return cls(table)

    def merged(self, other: HandlerTable) -> HandlerTable:
        """This table with ``other``'s handlers added (``other`` wins where both have one)."""
        return HandlerTable({**self._handlers, **other._handlers})

    def find(self, action: ActionBase) -> Handler | None:
        for action_type in type(action).__mro__:
            handler = self._handlers.get(action_type)
            if handler is not None:
                return handler
        return None

    def __iter__(self) -> Iterator[type[ActionBase]]:
        return iter(self._handlers)

    def __contains__(self, action_type: object) -> bool:
        return action_type in self._handlers

    def __len__(self) -> int:
        return len(self._handlers)


class Dispatches:
    """Base of a class whose methods carry out actions, declared with :func:`handles`.

    ``handlers`` is the class's table, built when the class is defined from its own methods,
    its bases' and the functions of the modules listed in ``handler_modules``.
    """

    handlers: ClassVar[HandlerTable] = HandlerTable()
    handler_modules: ClassVar[tuple[ModuleType, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        bodies = [vars(base) for base in reversed(cls.__mro__)]
        modules = [vars(module) for module in cls.handler_modules]
        cls.handlers = HandlerTable.in_namespaces([*bodies, *modules])

    def handler(self, action: ActionBase) -> Callable[[ActionBase], Any] | None:
        """The handler of ``action``, bound to this object; None when there is none."""
        found = self.handlers.find(action)
        if found is None:
            return None
        return lambda given: found(self, given)
