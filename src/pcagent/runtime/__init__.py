"""The run layer: the step loop that drives the agents, its records, the human in it, safety.

- :class:`RunSession`: start, resume and rewind runs on an environment (builds a
  :class:`StepLoop` from the parts chosen in :mod:`pcagent.runtime.parts`).
- :class:`RunStore`: the run record (SQLite + files), typed (:mod:`pcagent.runtime.record_models`,
  :mod:`pcagent.runtime.events`); :class:`HomeSnapshots`: HOME snapshots.
- :func:`replay_run`: re-execute a recorded run's actions without a model.
- :class:`SafetyGuard`, :class:`TerminalHuman`, :class:`ScriptedHuman`, :class:`NoHuman`.
"""

from pcagent.runtime.ablations import ABLATIONS, Ablation, check_ablation
from pcagent.runtime.checkpoint import RunCheckpoint
from pcagent.runtime.home_snapshot import HomeSnapshots
from pcagent.runtime.human import Human, NoHuman, Review, ScriptedHuman, TerminalHuman
from pcagent.runtime.loop import StepLoop
from pcagent.runtime.parts import AgentModels
from pcagent.runtime.record_models import (
    ModelCallRecord,
    ReflectionRecord,
    RunEvent,
    RunRecord,
    StepRecord,
    StepResult,
)
from pcagent.runtime.records import RunStore
from pcagent.runtime.replay import ReplayedStep, replay_run
from pcagent.runtime.safety import ActionContext, GuardVerdict, SafetyGuard, Sensitivity
from pcagent.runtime.session import RunOutcome, RunSession

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
