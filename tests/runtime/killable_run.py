"""A run that blocks in its fourth Decision call, to be killed by a test.

Usage: python killable_run.py RUN_STORE_FOLDER [--clean]. Prints "run ID" when the run exists,
"sandbox ID" for its desktop, and "blocked" once four steps are recorded (the run's own
opening of the calculator and three decisions) and it hangs. With
``--clean`` it runs as the ``pcagent`` command does: a SIGTERM stops it like Ctrl+C, and its
sandbox is closed on the way out.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tests.runtime import scripts
from tests.runtime.scripts import CalculatorDecisions

from pcagent.config import PcAgentConfig, RunConfig
from pcagent.env import SandboxDesktop
from pcagent.interrupts import terminate_as_interrupt
from pcagent.runtime.loop.session import RunSession
from pcagent.runtime.record.store import RunStore


def main(folder: Path, clean: bool) -> None:
    if clean:
        with terminate_as_interrupt():
            run(folder, clean=True)
    else:
        run(folder, clean=False)


def run(folder: Path, *, clean: bool) -> None:
    calculator = CalculatorDecisions()

    def decisions(request: object) -> str:
        if len(calculator.prompts) == 3:
            print("blocked", flush=True)
            time.sleep(600)
        return calculator(request)  # type: ignore[arg-type]

    plan = scripts.plan(
        {"id": "s1", "description": "Compute 12 times 11 in the calculator", "app": "calculator"}
    )
    models = scripts.usual_models(decisions, plan)
    store = RunStore(folder)
    desktop = SandboxDesktop().start()
    print(f"sandbox {desktop.state.sandbox_id}", flush=True)  # type: ignore[union-attr]
    config = PcAgentConfig(
        data_dir=folder.parent,
        run=RunConfig(screen_steps_doubted=False, listing_limit=0, app_actions_first=False),
    )
    session = RunSession(
        desktop, models, store, config, log=lambda message: print(message, flush=True)
    )
    original = store.create_run

    def announce(*args, **kwargs):  # type: ignore[no-untyped-def]
        record = original(*args, **kwargs)
        print(f"run {record.run_id}", flush=True)
        return record

    store.create_run = announce  # type: ignore[method-assign]
    if not clean:
        session.start("Compute 12 times 11")
        return
    with desktop:
        session.start("Compute 12 times 11")


if __name__ == "__main__":
    main(Path(sys.argv[1]), clean="--clean" in sys.argv[2:])
