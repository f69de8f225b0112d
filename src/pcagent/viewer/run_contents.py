"""What a run's page shows, read once from the record and grouped by step: its own module, since
the page's sections (the plan, the steps) and the routes that serve them all read it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from pcagent.runtime.record.models import ModelCallRecord, RunEvent, RunRecord, StepRecord


@dataclass
class RunContents:
    """A run with what its page shows, grouped by step."""

    run: RunRecord
    steps: list[StepRecord]
    calls_by_step: dict[int, list[ModelCallRecord]] = field(default_factory=dict)
    events_by_step: dict[int, list[RunEvent]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        run: RunRecord,
        steps: list[StepRecord],
        calls: Iterable[ModelCallRecord],
        events: Iterable[RunEvent],
    ) -> RunContents:
        calls_by_step: dict[int, list[ModelCallRecord]] = defaultdict(list)
        for call in calls:
            calls_by_step[call.step].append(call)
        events_by_step: dict[int, list[RunEvent]] = defaultdict(list)
        for event in events:
            events_by_step[event.step].append(event)
        return cls(run, steps, dict(calls_by_step), dict(events_by_step))

    def all_events(self) -> list[RunEvent]:
        return [e for step in sorted(self.events_by_step) for e in self.events_by_step[step]]
