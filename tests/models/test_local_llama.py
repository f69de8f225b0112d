"""The in-process local backend with the real smollm2-135m model."""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel

from pcagent.errors import PromptTooLongError
from pcagent.models import BackendInfo, Message, StructuredChatModel
from pcagent.models.backends.local_llama import LocalLlamaBackend
from pcagent.models.packs import InstalledPack


class Step(BaseModel):
    action: Literal["click", "type", "done"]
    element_id: int


def test_constrained_output_and_prefix_cache_reuse(smollm2: InstalledPack) -> None:
    backend = LocalLlamaBackend(
        smollm2.path, info=BackendInfo(name="local"), context_tokens=1024, cache_slots=2
    )
    model = StructuredChatModel(backend, max_output_tokens=64, validation_retries=0)
    prefix = Message.system("You are a GUI agent. " + "Elements: [1] OK button, [2] Cancel. " * 8)
    try:
        first = model.ask([prefix, Message.user("Press OK.")], Step, role="decision")
        other = model.ask(
            [Message.system("Other agent."), Message.user("Go.")], Step, role="manager"
        )
        second = model.ask([prefix, Message.user("Press Cancel.")], Step, role="decision")
    finally:
        backend.close()
    assert first.ok and second.ok and other.ok  # constrained decoding: always valid JSON
    assert first.usage.cached_prompt_tokens == 0
    # the manager used its own slot, so the decision agent's prefix was still cached
    assert second.usage.cached_prompt_tokens > 0.8 * first.usage.prompt_tokens
    assert (
        first.attempts[0].completion.details["slot"] != other.attempts[0].completion.details["slot"]
    )


def test_a_role_s_prompt_cache_outlives_the_process_that_made_it(
    smollm2: InstalledPack, tmp_path: Path
) -> None:
    """A new backend (as in a new run) loads the role's saved slot before its first call and
    evaluates only what changed; without a cache folder nothing is kept."""
    prefix = Message.system("You are a GUI agent. " + "Elements: [1] OK button, [2] Cancel. " * 12)

    def first_call(cache_dir: Path | None, said: str) -> tuple[int, int]:
        backend = LocalLlamaBackend(
            smollm2.path,
            info=BackendInfo(name="local"),
            context_tokens=1024,
            cache_slots=1,
            cache_dir=cache_dir,
        )
        model = StructuredChatModel(backend, max_output_tokens=64, validation_retries=0)
        try:
            reply = model.ask([prefix, Message.user(said)], Step, role="decision")
            if cache_dir is not None:  # the slot endpoint wants the key, as every other one
                assert backend._socket_dir is not None
                sock = backend._socket_dir / "llama.sock"
                assert _status_over_unix_socket(sock, "/slots", {}) == 401
        finally:
            backend.close()
        assert reply.ok
        return reply.usage.prompt_tokens, reply.usage.cached_prompt_tokens

    cache = tmp_path / "prompt-cache"
    total, cached = first_call(cache, "Press OK.")
    assert cached == 0
    (folder,) = cache.iterdir()
    assert [f.name for f in folder.iterdir()] == ["decision.bin"]  # no temporary file left
    total, cached = first_call(cache, "Press Cancel.")
    assert cached > 0.8 * total
    assert first_call(None, "Press Cancel.")[1] == 0
    # A file that is no slot's is passed over: the call is only slower.
    (folder / "decision.bin").write_bytes(b"not a slot")
    assert first_call(cache, "Press OK.")[1] == 0


def _listening_tcp_inodes() -> set[str]:
    """Socket inodes in state LISTEN on TCP (IPv4 and IPv6), from /proc."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                inodes.add(fields[9])
    return inodes


def _own_socket_inodes() -> set[str]:
    own = set()
    for fd in Path("/proc/self/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                own.add(target[len("socket:[") : -1])
    return own


def _status_over_unix_socket(path: Path, target: str, headers: dict[str, str]) -> int:
    """The HTTP status of a GET over a Unix socket (http.client speaks TCP only)."""
    lines = [f"GET {target} HTTP/1.1", "Host: localhost", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    with socket.socket(socket.AF_UNIX) as client:
        client.settimeout(10)
        client.connect(str(path))
        client.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        status_line = client.makefile("rb").readline().decode()
    return int(status_line.split()[1])


def test_the_loaded_model_listens_on_no_tcp_port(smollm2: InstalledPack) -> None:
    backend = LocalLlamaBackend(smollm2.path, info=BackendInfo(name="local"), context_tokens=512)
    before = _own_socket_inodes() & _listening_tcp_inodes()
    try:
        backend.load()
        assert backend.loaded
        assert _own_socket_inodes() & _listening_tcp_inodes() == before
        folder = backend._socket_dir  # the private folder of its Unix socket
        assert folder is not None and folder.stat().st_mode & 0o777 == 0o700
        # the listener that is there wants the key made for this load
        for headers in ({}, {"Authorization": "Bearer not-the-key"}):
            status = _status_over_unix_socket(folder / "llama.sock", "/v1/models", headers)
            assert status == 401
    finally:
        backend.close()
    assert not folder.exists()


def test_a_prompt_longer_than_the_context_is_a_typed_error_with_the_counts(
    smollm2: InstalledPack,
) -> None:
    backend = LocalLlamaBackend(
        smollm2.path, info=BackendInfo(name="local"), context_tokens=256, cache_slots=1
    )
    model = StructuredChatModel(backend, max_output_tokens=48, validation_retries=0)
    try:
        with pytest.raises(PromptTooLongError) as raised:
            model.ask([Message.user("word " * 400)], Step, role="decision")
        fits = model.ask([Message.user("Press OK.")], Step, role="decision")
    finally:
        backend.close()
    assert raised.value.context_tokens == 256
    assert raised.value.prompt_tokens > 256
    assert "too long" in str(raised.value)
    assert fits.ok  # the same backend still answers a prompt that fits


def test_a_decision_prompt_too_long_for_the_context_is_shortened_and_answered(
    smollm2: InstalledPack,
) -> None:
    from pcagent.agents import DecisionAgent, DecisionInput
    from pcagent.agents.roles import generalist
    from pcagent.env.apps import app_infos

    backend = LocalLlamaBackend(
        smollm2.path, info=BackendInfo(name="local"), context_tokens=4096, cache_slots=1
    )
    model = StructuredChatModel(backend, max_output_tokens=64, validation_retries=0)
    calls: list[int] = []
    agent = DecisionAgent(
        model,
        role=generalist(info.name for info in app_infos()),
        on_call=lambda _name, result: calls.append(result.usage.prompt_tokens),
    )
    header = 'marks: number role "label" =value states @x,y (centre, screen pixels)'
    marks = [f'{n} link "Result number {n} about weather" @{n % 900},{n % 700}' for n in range(300)]
    step = DecisionInput(
        subtask="open the first result", listing="\n".join([header, *marks]), screen=(1280, 800)
    )
    # the generalist's prompt is some 2,300 tokens with no marks; 300 marks add some 5,600:
    # it fits once three quarters of them are left out (the third try)
    try:
        decided = agent.decide(step)
    finally:
        backend.close()
    assert "prompt shortened" in decided.reasoning
    assert calls and all(0 < tokens <= 4096 for tokens in calls)
