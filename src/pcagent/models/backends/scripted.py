"""A backend that answers from a queue and remembers every request: for orchestration tests.

Not a model. Queue strings (the model's text), :class:`Completion`s (for token counts or
truncation), exceptions (raised in turn, e.g. a ModelTransientError to exercise the retry path) or
responders: callables that get the request and return the text, for scripts whose answer depends
on what is on screen (a button's coordinates).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from pcagent.errors import ScriptExhaustedError
from pcagent.models.backend import BackendInfo, ChatRequest, Completion

Responder = Callable[[ChatRequest], str | Completion]
Scripted = str | Completion | BaseException | Responder


class ScriptedBackend:
    """Returns the queued responses in order; ``requests`` lists what it was asked."""

    def __init__(self, responses: Iterable[Scripted] = (), *, info: BackendInfo | None = None):
        self._queue: deque[Scripted] = deque(responses)
        self._info = info or BackendInfo(name="scripted")
        self.requests: list[ChatRequest] = []

    @property
    def info(self) -> BackendInfo:
        return self._info

    def push(self, *responses: Scripted) -> None:
        """Queue more responses."""
        self._queue.extend(responses)

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def complete(self, request: ChatRequest) -> Completion:
        self.requests.append(request)
        if not self._queue:
            raise ScriptExhaustedError(
                f"scripted model asked a {len(self.requests)}th time but has no response queued"
            )
        item = self._queue.popleft()
        if isinstance(item, BaseException):
            raise item
        if callable(item):
            item = item(request)
        if isinstance(item, Completion):
            return item
        return Completion(text=item, prompt_tokens=0, completion_tokens=0)

    def close(self) -> None:
        pass
