"""``pcagent demo``: one real task, carried out by the agents with the configured model.

The instruction is given to the full system (Manager, scheduler and roles, Decision, Reflection,
Progress) in a fresh sandbox desktop; every step is printed as it happens and recorded. At the end
the calculator's display is read back through the accessibility tree, so the demo says plainly
whether the task was done, and where the record is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pcagent.config import PcAgentConfig, RunConfig
from pcagent.env import SandboxDesktop
from pcagent.env.apps import calculator_display
from pcagent.models import ModelRouter
from pcagent.runtime.records import RunStore, StepRecord
from pcagent.runtime.session import RunOutcome, RunSession

DEMO_INSTRUCTION = "Open the calculator and compute 12 * 7 + 5"
EXPECTED_RESULT = "89"
#: Enough for the task done step by step, with room for a few mistakes.
DEMO_MAX_STEPS = 14


@dataclass(frozen=True)
class DemoReport:
    outcome: RunOutcome
    calculator_display: str
    record: Path
    model: str

    @property
    def correct(self) -> bool:
        return self.calculator_display == EXPECTED_RESULT


def _display(desktop: SandboxDesktop) -> str:
    return calculator_display(desktop.observe()) or ""


def run_demo(
    config: PcAgentConfig,
    log: Callable[[str], None] = print,
    on_step: Callable[[StepRecord], Any] | None = None,
    max_steps: int = DEMO_MAX_STEPS,
) -> DemoReport:
    """Run :data:`DEMO_INSTRUCTION` with the configured models; returns what happened."""
    run = config.run.model_dump()
    run["max_steps"] = max_steps
    config = config.model_copy(update={"run": RunConfig.model_validate(run)})
    log("starting the sandbox desktop (Xvfb, D-Bus, AT-SPI, xfwm4)...")
    with (
        SandboxDesktop() as desktop,
        ModelRouter(config) as router,
        RunStore(config.runs_dir) as store,
    ):
        model = router.backend(router.profile_name("decision")).info.name
        log(f"  display {desktop.display}; model {model}")
        log(f"instruction: {DEMO_INSTRUCTION}")
        session = RunSession(desktop, router, store, config, on_step=on_step, log=log)
        outcome = session.start(DEMO_INSTRUCTION)
        display = _display(desktop)
    return DemoReport(outcome, display, config.runs_dir / outcome.run_id, model)
