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

from pcagent.assembly import RunChoices, open_run
from pcagent.config import PcAgentConfig
from pcagent.env import SandboxDesktop
from pcagent.env.apps import calculator_display
from pcagent.models import ModelRouter
from pcagent.runtime.loop.human import Human
from pcagent.runtime.loop.progress import Progress
from pcagent.runtime.loop.session import RunOutcome
from pcagent.runtime.record.models import StepRecord

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
    human: Human | None = None,
    progress: Progress | None = None,
) -> DemoReport:
    """Run :data:`DEMO_INSTRUCTION` with the configured models in a fresh sandbox (never on an
    attached display: the demo is meant to be safe to run anywhere); returns what happened.

    ``human`` defaults to nobody in ``auto`` mode and the terminal otherwise; ``progress`` is
    told of the sandbox's start and every model call as waits.
    """
    choices = RunChoices.of(config.updated("run", max_steps=max_steps), may_attach=False)
    log("starting the sandbox desktop (Xvfb, D-Bus, AT-SPI, xfwm4)...")
    with (
        ModelRouter(choices.config) as router,
        open_run(
            choices, human=human, on_step=on_step, log=log, models=router, progress=progress
        ) as parts,
    ):
        model = router.backend(router.profile_name("decision")).info.name
        log(f"  display {parts.environment.display}; model {model}")
        log(f"instruction: {DEMO_INSTRUCTION}")
        outcome = parts.session().start(DEMO_INSTRUCTION)
        display = _display(parts.environment)
    return DemoReport(outcome, display, choices.config.runs_dir / outcome.run_id, model)
