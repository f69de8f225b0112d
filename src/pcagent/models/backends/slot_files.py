"""A local model's prompt caches, kept on disk between runs.

Why: each agent role's prompt opens with a long part that never changes (its instructions, the
skills, the reply's schema: about 1,900 of the Manager's 2,400 tokens). Within a run llama.cpp
keeps it in the role's slot; a new run (every benchmark task is one) evaluated it again, a minute
of the Manager's first call on two cores. llama.cpp can save a slot's cache to a file and load it
back into a slot of another process; loaded, the prompt is compared token by token as usual and
only the part after the first difference is evaluated, so a stale file costs time, never a wrong
answer.

Files live in one folder per model file and context size (a cache is only valid for the model
that made it), one file per role, written under a temporary name and renamed, so a run never
loads half a file another run is writing. Every failure here is only a slower call: it is
ignored, never raised.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import httpx

#: How long one save or load may take (a file is tens of megabytes).
SLOT_FILE_TIMEOUT_S = 60.0


def cache_folder(cache_dir: Path, model: Path, context_tokens: int) -> Path:
    """The folder of one model file's caches at one context size."""
    size = model.stat().st_size if model.is_file() else 0
    return cache_dir / f"{model.stem}-{size}-{context_tokens}"


def _file_name(key: str) -> str:
    """A role's file name: llama.cpp takes plain names only."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", key)[:80] or "default"


class SlotFiles:
    """Saves and loads the slots of one running llama.cpp server through its slot endpoint.

    ``folder`` must be the server's ``slot_save_path``; ``socket`` and ``api_key`` reach its
    private HTTP listener."""

    def __init__(self, folder: Path, socket: Path, api_key: str) -> None:
        self.folder = folder
        self._client = httpx.Client(
            transport=httpx.HTTPTransport(uds=str(socket)),
            base_url="http://llama",
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=SLOT_FILE_TIMEOUT_S,
        )

    def load(self, slot: int, key: str) -> bool:
        """Fill ``slot`` from ``key``'s file, if there is one; whether it was loaded."""
        name = f"{_file_name(key)}.bin"
        if not (self.folder / name).is_file():
            return False
        return self._action(slot, "restore", name)

    def save(self, slot: int, key: str) -> bool:
        """Write ``slot`` as ``key``'s file; whether it was written."""
        final = f"{_file_name(key)}.bin"
        temporary = f"{_file_name(key)}.{os.getpid()}.tmp"
        if not self._action(slot, "save", temporary):
            (self.folder / temporary).unlink(missing_ok=True)
            return False
        try:
            os.replace(self.folder / temporary, self.folder / final)
        except OSError:
            return False
        return True

    def close(self) -> None:
        self._client.close()

    def _action(self, slot: int, action: str, name: str) -> bool:
        try:
            response = self._client.post(
                f"/slots/{slot}", params={"action": action}, json={"filename": name}
            )
        except httpx.HTTPError:
            return False
        return response.status_code == 200
