"""Things kept by their name: the role pool, the skill catalog and the checker library.

Each of them holds items that a plan, a task file or a configuration names, and each must say,
when a name is unknown, which names there are; when two items share a name, that one would hide
the other. :class:`Registry` does the keeping and the lookup once; each registry says in its own
words (and with its own error) what went wrong, because the user reading the message knows a
role, a skill or a checker, not a registry.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import ClassVar, Generic, Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


class Registry(Generic[T]):
    """Items by name, in the order they were added.

    A subclass sets ``error`` (the exception it raises) and the two messages, as format strings:
    ``duplicate`` gets ``name``; ``missing`` gets ``name`` and ``names`` (those there are, joined
    by commas, in the order of :meth:`names`).
    """

    error: ClassVar[type[Exception]]
    duplicate: ClassVar[str]
    missing: ClassVar[str]

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: dict[str, T] = {}
        for item in items:
            self._add(item)

    def _add(self, item: T) -> None:
        earlier = self._items.get(item.name)
        if earlier is not None:
            raise self._duplicate(earlier, item)
        self._items[item.name] = item

    def _duplicate(self, earlier: T, item: T) -> Exception:
        """The error for ``item``, whose name ``earlier`` already has."""
        return self.error(self.duplicate.format(name=item.name))

    def get(self, name: str) -> T:
        """The item named ``name``; ``error`` listing the names there are when none is."""
        try:
            return self._items[name]
        except KeyError:
            names = ", ".join(self.names())
            raise self.error(self.missing.format(name=name, names=names)) from None

    def names(self) -> list[str]:
        return list(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items.values())

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items
