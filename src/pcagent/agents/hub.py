"""The communication hub: values found by finished subtasks, handed to the ones that need them."""

from __future__ import annotations

from collections.abc import Mapping

from pcagent.agents.plan import PLACEHOLDER, SubtaskSpec
from pcagent.errors import MissingInputError


class CommunicationHub:
    """Named string values, written once a subtask reports them, read when instantiating others.

    Kept as plain ``str -> str`` so it is trivially saved in every step's record and restored on
    resume or rewind.
    """

    def __init__(self, values: Mapping[str, str] | None = None) -> None:
        self._values: dict[str, str] = dict(values or {})

    def publish(self, outputs: Mapping[str, str]) -> None:
        """Store a subtask's outputs; a later value of the same name replaces the earlier one."""
        for name, value in outputs.items():
            self._values[name] = str(value)

    def get(self, name: str) -> str | None:
        return self._values.get(name)

    def has_inputs(self, subtask: SubtaskSpec) -> bool:
        return all(name in self._values for name in subtask.inputs)

    def missing(self, subtask: SubtaskSpec) -> list[str]:
        return [name for name in subtask.inputs if name not in self._values]

    def instantiate(self, subtask: SubtaskSpec) -> str:
        """The subtask's description with every ``{name}`` replaced by its value.

        Raises :class:`MissingInputError` naming what is missing; a subtask is never started with
        a hole in its description.
        """
        missing = self.missing(subtask)
        if missing:
            raise MissingInputError(
                f"subtask {subtask.id} needs {missing}, which no finished subtask reported yet"
            )

        def value(match: object) -> str:
            name = match.group(1)  # type: ignore[attr-defined]
            return self._values.get(name, match.group(0))  # type: ignore[attr-defined]

        return PLACEHOLDER.sub(value, subtask.description)

    def as_dict(self) -> dict[str, str]:
        return dict(self._values)

    def __len__(self) -> int:
        return len(self._values)
