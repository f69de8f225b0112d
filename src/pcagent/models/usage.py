"""Token, time and cost accounting: per call, and summed per agent role, per step, per run.

Why a separate accumulator: the model layer measures each call once; the run decides how to slice
the totals (CRAB's cost efficiency needs tokens per run, the viewer wants them per step and role).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import asdict, dataclass, fields


@dataclass(frozen=True)
class Usage:
    """What one or more model calls cost. ``cost_usd`` is 0 when prices are not configured."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    calls: int = 0
    latency_s: float = 0.0
    cost_usd: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        # Every field is a count or a sum, so a field added later is summed without a change here.
        return Usage(
            **{
                field.name: getattr(self, field.name) + getattr(other, field.name)
                for field in fields(self)
            }
        )

    def to_dict(self) -> dict[str, float | int]:
        return {**asdict(self), "total_tokens": self.total_tokens}


class UsageLedger:
    """Sums :class:`Usage` per agent role, per step and for the whole run. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._total = Usage()
        self._by_role: dict[str, Usage] = defaultdict(Usage)
        self._by_step: dict[int, Usage] = defaultdict(Usage)

    def record(self, usage: Usage, *, role: str = "", step: int | None = None) -> None:
        """Add one call's usage under ``role`` (empty: unnamed) and ``step`` (None: no step)."""
        with self._lock:
            self._total = self._total + usage
            self._by_role[role] = self._by_role[role] + usage
            if step is not None:
                self._by_step[step] = self._by_step[step] + usage

    @property
    def total(self) -> Usage:
        with self._lock:
            return self._total

    def by_role(self) -> dict[str, Usage]:
        with self._lock:
            return dict(self._by_role)

    def by_step(self) -> dict[int, Usage]:
        with self._lock:
            return dict(sorted(self._by_step.items()))

    def to_dict(self) -> dict[str, object]:
        """JSON-ready summary for run records."""
        return {
            "total": self.total.to_dict(),
            "by_role": {role: usage.to_dict() for role, usage in self.by_role().items()},
            "by_step": {str(step): usage.to_dict() for step, usage in self.by_step().items()},
        }
