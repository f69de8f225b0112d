"""Small helpers several test packages share."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from pcagent.config import ModelProfile, ModelsConfig, PcAgentConfig, RunConfig, load_config
from pcagent.models.installer import install_pack


def eventually(check: Callable[[], object], timeout: float = 20) -> bool:
    """Whether ``check()`` turns true within ``timeout`` seconds (for processes that end, or
    files that appear, a moment later)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return bool(check())


def smollm2_config(folder: Path, max_steps: int = 2, threads: int = 2) -> PcAgentConfig:
    """Every role on the real smollm2-135m model (installed if missing, shared with the user's
    data folder), run records in ``folder``/data, a short step cap. ``threads``: both cores for
    one model; one each where two models answer side by side."""
    base = load_config(environ={})
    install_pack("smollm2-135m", base.models_dir, report=print)
    data = folder / "data"  # run records stay in the test's folder; models are shared
    data.mkdir()
    (data / "models").symlink_to(base.models_dir, target_is_directory=True)
    return PcAgentConfig(
        data_dir=data,
        models=ModelsConfig(
            profiles={
                "local": ModelProfile(pack="smollm2-135m", max_output_tokens=200, threads=threads)
            },
            validation_retries=0,
        ),
        # One program asked for, no readings of the instruction and no search words for a
        # guessed address: smollm2's programs are rarely usable, each re-ask is a 2,500-token
        # Manager prompt (20-40 s on two shared cores), and each reading one more call. Re-asks and readings have tests of their own
        # (scripted models; the real model in benchmarks' quick runs and the smoke run of
        # tests/runtime/test_local_model_run.py).
        run=RunConfig(
            max_steps=max_steps,
            listing_limit=15,
            program_attempts=1,
            check_named_files=False,
            check_named_apps=False,
            check_asked_answer=False,
            read_choices=False,
            search_guessed_addresses=False,
            screen_steps_doubted=False,  # a screen step's doubt asks the Manager again too
        ),
    )
