"""Retrying transient transport failures with exponential backoff, in one place.

Backends raise :class:`~pcagent.errors.ModelTransientError` for failures worth another try
(timeouts, refused connections, rate limits, 5xx); everything else propagates at once. The SDKs'
own retries are switched off so that the policy (and its sleeps) is ours and testable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from pcagent.errors import ModelTransientError, ModelUnavailableError

R = TypeVar("R")


@dataclass(frozen=True)
class RetryPolicy:
    """``retries`` extra attempts, waiting ``backoff_s``, 2×, 4×... (capped at ``max_backoff_s``)."""

    retries: int = 3
    backoff_s: float = 1.0
    max_backoff_s: float = 30.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False, compare=False)

    def delays(self) -> list[float]:
        """The waits between attempts, in order."""
        return [min(self.max_backoff_s, self.backoff_s * 2**index) for index in range(self.retries)]

    def run(self, attempt: Callable[[], R]) -> R:
        """Call ``attempt`` until it succeeds or the retries are spent.

        Raises :class:`ModelUnavailableError` carrying the last transient error's message.
        """
        delays = self.delays()
        for index in range(len(delays) + 1):
            try:
                return attempt()
            except ModelTransientError as error:
                if index == len(delays):
                    raise ModelUnavailableError(
                        f"{error} (gave up after {index + 1} attempts)"
                    ) from error
                self.sleep(delays[index])
        raise AssertionError("unreachable")  # pragma: no cover
