"""Services that run between ``start()`` and ``stop()``, used as context managers.

The local SMTP servers, the local model server and the offline web each start a thread or a
process in ``start()`` and end it in ``stop()``. A ``with`` block starts such a service on entry
and stops it on exit however the block ends; :class:`StartStop` says that once for all of them.
Stores and clients that hold a connection are simpler still: open on first use, closed when done;
:class:`Closes` is the ``with`` block of those.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Self


class StartStop(ABC):
    """A service with a ``start`` and a ``stop``; ``with service:`` starts it and stops it."""

    @abstractmethod
    def start(self) -> Self:
        """Start the service and return it (raises the service's own error when it cannot)."""

    @abstractmethod
    def stop(self) -> None:
        """End the service; stopping a stopped service does nothing."""

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


class Closes(ABC):
    """Something that holds a connection until ``close()``; ``with thing:`` closes it on exit
    however the block ends."""

    @abstractmethod
    def close(self) -> None:
        """Let go of what it holds; closing twice does nothing."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
