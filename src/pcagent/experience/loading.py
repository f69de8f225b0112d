"""Opening a page graph for a run: the graph and the embedding model, loaded once per process.

A benchmark runs many tasks in one process; loading the 90 MB encoder and the graph for each
would cost seconds every task, so both are kept, keyed by the file and its modification time (a
graph built again is read again).
"""

from __future__ import annotations

import threading
from pathlib import Path

from pcagent.experience.graph import ExperienceError
from pcagent.experience.guide import Experience
from pcagent.models.embedding_pack import DEFAULT_EMBEDDING_PACK

_LOCK = threading.Lock()
_OPEN: dict[tuple[str, int], Experience] = {}


def open_experience(path: Path, models_dir: Path | None = None) -> Experience:
    """The page graph at ``path`` with the embedding model it was built with.

    Raises :class:`ExperienceError` for a missing or unreadable graph, and the model layer's
    not-installed error (with the install command) when the embedding model is missing.
    """
    from pcagent.experience.embedding import SentenceEncoder

    resolved = path.expanduser().resolve()
    try:
        key = (str(resolved), resolved.stat().st_mtime_ns)
    except OSError:
        raise ExperienceError(
            f"no page graph at {path}; build one with `pcagent experience build`"
        ) from None
    with _LOCK:
        if key not in _OPEN:
            encoder = SentenceEncoder.load(models_dir)
            _OPEN[key] = Experience.load(resolved, encoder, DEFAULT_EMBEDDING_PACK)
        return _OPEN[key]
