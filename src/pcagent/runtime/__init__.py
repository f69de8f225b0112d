"""The run layer: the loop that drives the agents, its records, the human in it, the safety guard.

- :class:`RunSession`: start, resume and rewind runs on an environment.
- :class:`RunStore`: the run record (SQLite + files); :class:`HomeSnapshots`: HOME snapshots.
- :func:`replay_run`: re-execute a recorded run's actions without a model.
- :class:`SafetyGuard`, :class:`TerminalHuman`, :class:`ScriptedHuman`, :class:`NoHuman`.
"""

from pcagent.runtime.checkpoint import ABLATIONS, RunCheckpoint
from pcagent.runtime.home_snapshot import HomeSnapshots
from pcagent.runtime.human import Human, NoHuman, Review, ScriptedHuman, TerminalHuman
from pcagent.runtime.records import ModelCallRecord, RunEvent, RunRecord, RunStore, StepRecord
from pcagent.runtime.replay import ReplayedStep, replay_run
from pcagent.runtime.safety import ActionContext, GuardVerdict, SafetyGuard, Sensitivity
from pcagent.runtime.session import AgentModels, RunOutcome, RunSession

__all__ = [
    "ABLATIONS",
    "ActionContext",
    "AgentModels",
    "GuardVerdict",
    "HomeSnapshots",
    "Human",
    "ModelCallRecord",
    "NoHuman",
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
    "StepRecord",
    "TerminalHuman",
    "replay_run",
]
