"""The cap of llama.cpp's in-memory cache of earlier prompts: as the profile asks, else a
quarter of the machine's memory but never more than llama.cpp's own default. The memory itself
is measured by benchmarks/prompt_ram_cache.py (a real model, in its own processes)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pcagent.config import ModelProfile
from pcagent.models.backends.local_llama import MOST_RAM_CACHE_MIB, ram_cache_mib


def test_a_quarter_of_the_machine_at_most_llama_cpp_s_own() -> None:
    assert ram_cache_mib(None, machine_mib=8192) == 2048  # a laptop of 8 GB
    assert ram_cache_mib(None, machine_mib=64 * 1024) == MOST_RAM_CACHE_MIB == 8192
    assert 0 < ram_cache_mib(None) <= MOST_RAM_CACHE_MIB  # this machine's, read from it


def test_the_profile_s_cap_is_taken_as_given_and_none_below_zero() -> None:
    assert ram_cache_mib(0, machine_mib=8192) == 0
    assert ram_cache_mib(20_000, machine_mib=8192) == 20_000
    assert ModelProfile(cache_ram_mib=512).cache_ram_mib == 512
    assert ModelProfile().cache_ram_mib is None
    with pytest.raises(ValidationError):
        ModelProfile(cache_ram_mib=-1)
