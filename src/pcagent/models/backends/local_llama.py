"""Local offline inference with xllamacpp (llama.cpp in-process), no network, no API key.

Why these choices:
- JSON-schema constrained decoding (llama.cpp's ``json_schema``): even a small model's reply is
  then syntactically valid and of the right shape; the shared parser still validates it.
- One llama.cpp *slot* per cache key (agent role), pinned with ``id_slot`` and ``cache_prompt``:
  each agent's long, stable prompt prefix (instructions, schema) stays in its slot's KV cache, so
  its next call only evaluates the new tail. Roles beyond ``cache_slots`` share slots, least
  recently used first.
- With ``cache_dir``, each role's slot is also kept on disk between runs
  (:mod:`~pcagent.models.backends.slot_files`): loaded before the role's first call of a run,
  saved after it, so a new run evaluates only the part of a prompt that changed.
- llama.cpp also keeps the states of earlier prompts in memory, to reuse a prefix beyond the
  slots; it grows with every prompt until its cap (8,192 MiB by default: on 2026-12-06 a
  benchmark process grew from 4.2 to 5.5 GB of memory over six tasks of the 25, about 200 MB a
  task, and calls of the small model grew it 60 MB each with the cache, nothing without). The
  cap is ``cache_ram_mib``: by default a quarter of the machine's memory, at most llama.cpp's
  own (:func:`ram_cache_mib`).
- The model loads on the first call, not at construction, so building a router is cheap.
- xllamacpp's server always opens an HTTP listener besides the in-process calls pcagent makes.
  It is bound to a Unix socket in a private folder (mode 700, removed on close) and requires an
  API key made per load, so no other program on the machine can use the model: no TCP port is
  opened at all.
"""

from __future__ import annotations

import os
import secrets
import shutil
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from pcagent.errors import LocalModelNotInstalledError, ModelRequestError
from pcagent.models.backend import BackendInfo, ChatRequest, Completion, prompt_too_long
from pcagent.models.backends.slot_files import SlotFiles, cache_folder
from pcagent.models.messages import Message
from pcagent.scratch import scratch_folder

#: The most memory (MiB) llama.cpp's cache of earlier prompts takes by default: its own default.
MOST_RAM_CACHE_MIB = 8192


def ram_cache_mib(asked: int | None, machine_mib: int | None = None) -> int:
    """The cap of the in-memory prompt cache: ``asked``, or a quarter of the machine's memory
    (``machine_mib``, read from the system when None) but at most :data:`MOST_RAM_CACHE_MIB`.
    Why not llama.cpp's 8 GiB everywhere: on a laptop of 8 or 16 GB beside the desktop and its
    applications, a long run would swap or be killed for memory the cache only saves time with."""
    if asked is not None:
        return asked
    if machine_mib is None:
        machine_mib = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    return min(MOST_RAM_CACHE_MIB, machine_mib // 4)


class LocalLlamaBackend:
    """A GGUF model run by xllamacpp on the CPU."""

    def __init__(
        self,
        gguf_path: Path,
        *,
        info: BackendInfo,
        threads: int = 2,
        context_tokens: int = 4096,
        cache_slots: int = 4,
        cache_dir: Path | None = None,
        cache_ram_mib: int | None = None,
    ):
        self._path = gguf_path
        self._cache_dir = cache_dir
        self._files: SlotFiles | None = None
        #: Roles whose slot this process has saved (once each: the stable part is what counts).
        self._saved: set[str] = set()
        self._info = info
        self._threads = threads
        self._context_tokens = context_tokens
        self._slots = cache_slots
        self._ram_cache_mib = ram_cache_mib(cache_ram_mib)
        self._server: Any = None
        self._socket_dir: Path | None = None
        self._slot_of: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def info(self) -> BackendInfo:
        return self._info

    @property
    def loaded(self) -> bool:
        return self._server is not None

    def load(self) -> None:
        """Load the model now (otherwise the first call does). Takes seconds."""
        with self._lock:
            self._load_locked()

    def _load_locked(self) -> None:
        if self._server is not None:
            return
        if not self._path.is_file():
            raise LocalModelNotInstalledError(
                f"model file {self._path} is missing; run `pcagent models install NAME` "
                "(see `pcagent models list`)"
            )
        import xllamacpp  # heavy native module: loaded only when a local model is used

        params = xllamacpp.CommonParams()
        params.model.path = str(self._path)
        params.n_parallel = self._slots
        params.n_ctx = self._context_tokens * self._slots
        params.cpuparams.n_threads = self._threads
        params.cpuparams_batch.n_threads = self._threads
        params.cache_prompt = True
        params.cache_ram_mib = self._ram_cache_mib
        params.warmup = False
        params.verbosity = -1
        # The embedded HTTP listener is unused: a Unix socket in a private folder, behind a key.
        self._socket_dir = scratch_folder("llama")
        self._socket_dir.chmod(0o700)
        socket, key = self._socket_dir / "llama.sock", secrets.token_urlsafe(32)
        params.hostnames = [str(socket)]
        params.api_keys = [key]
        folder = self._slot_folder()
        if folder is not None:
            params.endpoint_slots = True
            params.slot_save_path = f"{folder}/"  # llama.cpp joins it to a name as it is
        self._server = xllamacpp.Server(params)
        self._files = SlotFiles(folder, socket, key) if folder is not None else None

    def _slot_folder(self) -> Path | None:
        """The folder of this model's saved slots, made if needed; None without a cache
        folder or where it cannot be made (then nothing is kept)."""
        if self._cache_dir is None:
            return None
        folder = cache_folder(self._cache_dir, self._path, self._context_tokens)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return None
        return folder

    def _slot_for(self, cache_key: str) -> int:
        if cache_key in self._slot_of:
            self._slot_of.move_to_end(cache_key)
            return self._slot_of[cache_key]
        if len(self._slot_of) < self._slots:
            slot = len(self._slot_of)
        else:
            _, slot = self._slot_of.popitem(last=False)
        self._slot_of[cache_key] = slot
        if self._files is not None:
            self._files.load(slot, cache_key)  # the role's cache from an earlier run, if any
        return slot

    def complete(self, request: ChatRequest) -> Completion:
        # llama.cpp's server is thread-safe, but slot bookkeeping and loading are ours.
        with self._lock:
            self._load_locked()
            slot = self._slot_for(request.cache_key)
        body: dict[str, Any] = {
            "messages": [_to_llama(message) for message in request.messages],
            "max_tokens": request.max_output_tokens,
            "temperature": request.temperature,
            "cache_prompt": True,
            "id_slot": slot,
        }
        if request.constrained:
            body["json_schema"] = request.schema
        result = self._server.handle_chat_completions(body)
        self._keep(slot, request.cache_key)
        if not isinstance(result, dict) or "error" in result or not result.get("choices"):
            error = result.get("error") if isinstance(result, dict) else result
            too_long = prompt_too_long(f"local model {self._path.name}", error)
            if too_long is not None:
                raise too_long
            raise ModelRequestError(f"local model {self._path.name} refused the request: {error}")
        choice = result["choices"][0]
        usage = result.get("usage", {})
        return Completion(
            text=choice.get("message", {}).get("content") or "",
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            cached_prompt_tokens=int(
                (usage.get("prompt_tokens_details") or {}).get("cached_tokens", 0)
            ),
            truncated=choice.get("finish_reason") == "length",
            details={"timings": result.get("timings", {}), "slot": slot},
        )

    def _keep(self, slot: int, cache_key: str) -> None:
        """Save the role's slot after its first call of this process."""
        with self._lock:
            if self._files is None or cache_key in self._saved:
                return
            self._saved.add(cache_key)
            files = self._files
        files.save(slot, cache_key)

    def close(self) -> None:
        with self._lock:
            if self._files is not None:
                self._files.close()
                self._files = None
            self._server = None  # the server stops when its object is freed
            self._slot_of.clear()
            if self._socket_dir is not None:
                shutil.rmtree(self._socket_dir, ignore_errors=True)
                self._socket_dir = None


def _to_llama(message: Message) -> dict[str, Any]:
    """Text only: the model packs have no vision; the structured layer already swapped images
    for their text alternative."""
    return {"role": message.role, "content": message.text}
