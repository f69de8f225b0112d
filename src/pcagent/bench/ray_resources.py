"""What a benchmark run on Ray asks of the cluster, and its defaults.

Kept apart from :mod:`pcagent.bench.ray_runner` so that the command line can show the defaults
without importing the runner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The custom Ray resource a sandbox takes: nodes declare how many sandboxes they can host.
DISPLAY_RESOURCE = "pcagent_display"
#: Default for how long one task may run, in seconds, before it is ended.
DEFAULT_TASK_TIMEOUT = 1800.0
#: Default for how many times a task is started when its worker dies under it.
DEFAULT_ATTEMPTS = 2


@dataclass(frozen=True)
class ActorResources:
    """What one actor asks Ray for. The default memory fits a sandbox with its applications and
    the 1.5B local model; raise it for bigger models."""

    cpus: float = 1.0
    memory_gb: float = 3.0

    def options(self, displays: int) -> dict[str, Any]:
        return {
            "num_cpus": self.cpus,
            "memory": int(self.memory_gb * 1024**3),
            "resources": {DISPLAY_RESOURCE: displays},
        }

    def fits(self, available: Mapping[str, float], displays: int) -> int:
        """How many actors the resources ``available`` (a cluster's totals) can hold."""
        counts = [int(available.get(DISPLAY_RESOURCE, 0) // displays)]
        if self.cpus:
            counts.append(int(available.get("CPU", 0) // self.cpus))
        if self.memory_gb:
            counts.append(int(available.get("memory", 0) // (self.memory_gb * 1024**3)))
        return max(0, min(counts))
