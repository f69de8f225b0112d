"""What the benchmark scripts that ask a model about generated tasks share: reading a
``SEED:COUNT`` option, and the tiny model their ``--quick`` run asks instead of the configured
one (smollm2-135m, one thread, no re-asks: a check that the script works, not a figure)."""

from __future__ import annotations

from pcagent.config import ModelProfile, ModelsConfig, PcAgentConfig

QUICK_PACK = "smollm2-135m"


def seed_and_count(text: str) -> tuple[int, int]:
    """``"77:20"`` as ``(77, 20)``: generated tasks of seed 77, the first 20."""
    seed, _, count = text.partition(":")
    return int(seed), int(count)


def with_quick_model(config: PcAgentConfig, max_output_tokens: int) -> PcAgentConfig:
    """``config`` with every role on the tiny local model, its replies cut at
    ``max_output_tokens``."""
    profile = ModelProfile(pack=QUICK_PACK, max_output_tokens=max_output_tokens, threads=1)
    return config.model_copy(
        update={"models": ModelsConfig(profiles={"local": profile}, validation_retries=0)}
    )
