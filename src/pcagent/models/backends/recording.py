"""Record request→response pairs of any backend to disk, and replay them without a model.

Why: a run against a real model can be replayed deterministically (debugging, regression tests,
the viewer) at no cost. The key is :meth:`ChatRequest.fingerprint`, so a replay only answers the
exact request that was recorded. The same request asked several times is answered in recorded
order; past the end, the last answer repeats.

Layout: one JSON file per request, ``<fingerprint>.json`` = ``{"request": ..., "responses": [...]}``.
"""

from __future__ import annotations

import json
import os
import threading
from collections import Counter
from pathlib import Path
from typing import Literal

from pcagent.errors import ModelConfigurationError, ReplayMissError
from pcagent.models.backend import BackendInfo, ChatBackend, ChatRequest, Completion


class RecordingBackend:
    """``mode="record"``: call ``inner`` and append each answer to disk.
    ``mode="replay"``: answer from disk only; ``inner`` may be None."""

    def __init__(
        self,
        directory: Path,
        *,
        info: BackendInfo | None = None,
        inner: ChatBackend | None = None,
        mode: Literal["record", "replay"] = "record",
    ):
        if mode == "record" and inner is None:
            raise ModelConfigurationError("recording needs a backend to record from")
        self._directory = directory
        self._inner = inner
        self._mode = mode
        self._info = info or (inner.info if inner is not None else BackendInfo(name="replay"))
        self._replayed: Counter[str] = Counter()
        self._lock = threading.Lock()

    @property
    def info(self) -> BackendInfo:
        return self._info

    def complete(self, request: ChatRequest) -> Completion:
        key = request.fingerprint()
        path = self._directory / f"{key}.json"
        if self._mode == "replay":
            return self._replay(key, path)
        if self._inner is None:
            raise ModelConfigurationError("recording needs a backend to record from")
        completion = self._inner.complete(request)
        with self._lock:
            self._append(path, request, completion)
        return completion

    def _replay(self, key: str, path: Path) -> Completion:
        try:
            responses = json.loads(path.read_text(encoding="utf-8"))["responses"]
        except FileNotFoundError as error:
            raise ReplayMissError(
                f"no recorded response for request {key[:12]} in {self._directory}; "
                "the prompt changed since recording — record again"
            ) from error
        with self._lock:
            index = min(self._replayed[key], len(responses) - 1)
            self._replayed[key] += 1
        return Completion.from_record(responses[index])

    def _append(self, path: Path, request: ChatRequest, completion: Completion) -> None:
        self._directory.mkdir(parents=True, exist_ok=True)
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            record = {"request": request.to_record(), "responses": []}
        record["responses"].append(completion.to_record())
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(record, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(partial, path)

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()
