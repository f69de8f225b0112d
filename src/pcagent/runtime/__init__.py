"""The run layer: the step loop that drives the agents, its records, the human in it, safety.

- :class:`RunSession`: start, resume and rewind runs on an environment (builds a
  :class:`StepLoop` from the parts chosen in :mod:`pcagent.runtime.loop.parts`).
- :class:`RunStore`: the run record (SQLite + files), typed (:mod:`pcagent.runtime.record.models`,
  :mod:`pcagent.runtime.record.events`); :class:`HomeSnapshots`: HOME snapshots.
- :func:`replay_run`: re-execute a recorded run's actions without a model.
- :class:`SafetyGuard`, :class:`TerminalHuman`, :class:`ScriptedHuman`, :class:`NoHuman`.
"""

from pcagent.runtime.loop.ablations import ABLATIONS, Ablation, check_ablation
from pcagent.runtime.loop.human import Human, NoHuman, Review, ScriptedHuman, TerminalHuman
from pcagent.runtime.loop.loop import StepLoop
from pcagent.runtime.loop.parts import AgentModels
from pcagent.runtime.loop.session import RunOutcome, RunSession
from pcagent.runtime.record.checkpoint import RunCheckpoint
from pcagent.runtime.record.models import (
    ModelCallRecord,
    ReflectionRecord,
    RunEvent,
    RunRecord,
    StepRecord,
    StepResult,
)
from pcagent.runtime.record.replay import ReplayedStep, replay_run
from pcagent.runtime.record.store import RunStore
from pcagent.runtime.safety.guard import ActionContext, GuardVerdict, SafetyGuard, Sensitivity
from pcagent.runtime.safety.home_snapshot import HomeSnapshots

__all__ = [
    "ABLATIONS",
    "Ablation",
    "ActionContext",
    "AgentModels",
    "GuardVerdict",
    "HomeSnapshots",
    "Human",
    "ModelCallRecord",
    "NoHuman",
    "ReflectionRecord",
    "ReplayedStep",
    "Review",
    "RunCheckpoint",
    "RunEvent",
    "RunOutcome",
    "RunRecord",
    "RunSession",
    "RunStore",
    "SafetyGuard",
    "ScriptedHuman",
    "Sensitivity",
    "StepLoop",
    "StepRecord",
    "StepResult",
    "TerminalHuman",
    "check_ablation",
    "replay_run",
]
