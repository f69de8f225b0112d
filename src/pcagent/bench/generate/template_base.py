"""What a sub-task template is: typed attributes, and what it produces for given values.

A template is one kind of sub-task in one application ("read a value from a note in the text
editor", "compute an expression in the calculator"). :meth:`SubtaskTemplate.draw` picks its
attribute values (a pydantic model) from the generator's random source and vocabulary, taking the
value an earlier sub-task produced when there is one; :meth:`SubtaskTemplate.build` turns those
attributes into a :class:`Fragment`: the instruction sentence, the fixtures, one subtask, its
sub-goal nodes (existing checkers only), both reference solutions and its gold program (the skill
calls that do it, :mod:`~pcagent.bench.generate.programs`). ``build`` is a pure function of the
attributes, so a task is reproducible from its seed.

The instruction sentence is one of the template's :attr:`SubtaskTemplate.phrasings` (format
strings with named fields, kept as data): the attributes say which (``phrasing``), and the
composer draws it from the task's seeded random source. The phrasings and the rest of a
template's plain data (application, summary, the kinds of value it takes and gives) are one
entry of ``template_specs.yaml``, which a template class names when it is declared
(``class ClockSetAlarm(SubtaskTemplate[AlarmTime], spec="clock_set_alarm")``), so the classes
keep only their logic.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar, get_args, get_origin

import yaml
from pydantic import BaseModel, ConfigDict, Field

from pcagent.bench.generate.flow import FlowValue, ValueKind
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.vocabulary import NamePool
from pcagent.bench.generate.wording import TELL, Phrasing, PhrasingKind
from pcagent.bench.tasks import (
    FileFixture,
    MessageFixture,
    ReferenceStep,
    SubGoal,
    SubtaskSpec,
)


class TemplateAttributes(BaseModel):
    """Base of every template's attributes: frozen, unknown fields refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Which of the template's phrasings words the instruction (an index into
    #: :attr:`SubtaskTemplate.phrasings`; the composer draws it, ``draw`` leaves it at 0).
    phrasing: int = Field(default=0, ge=0)
    #: How the instruction names a value the sub-task before handed on ("that city", a file's
    #: name); "" where the instruction gives the value itself, or the template takes none.
    reference_to_previous: str = ""


@dataclass(frozen=True)
class Slot:
    """Where a fragment sits in its task: its subtask id (``s2``), the nodes of the sub-task it
    takes its input from (its own first nodes come after them), and whether the task ends with
    it and it should report its value (``answer``)."""

    subtask_id: str
    after: tuple[str, ...] = ()
    report: bool = False

    def node_id(self, name: str) -> str:
        """A node id unique in the task: ``s2_saved``."""
        return f"{self.subtask_id}_{name}"


@dataclass(frozen=True)
class Fragment:
    """What one template contributes to a task."""

    instruction: str
    #: The index of the template's phrasing the instruction is worded in.
    phrasing: int
    subtask: SubtaskSpec
    nodes: list[SubGoal]
    reference: list[ReferenceStep]
    reference_api: list[ReferenceStep]
    #: The program steps that do the sub-task with the skills (a GUI step where none fits).
    program: FragmentProgram
    files: list[FileFixture] = field(default_factory=list)
    inbox: list[MessageFixture] = field(default_factory=list)
    #: Messages the user sent earlier (the mail client's Sent folder).
    sent: list[MessageFixture] = field(default_factory=list)
    services: tuple[str, ...] = ()
    output: FlowValue | None = None
    #: Files (paths in HOME) this sub-task moves away: what earlier sub-tasks saved there can no
    #: longer be checked there at the end.
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class Draw:
    """What a template draws one use's attributes from: the task's seeded random source and
    name pool, the value the sub-task before hands on (``given``; None: the template uses
    values of its own) and the kind of value the next sub-task needs (``wanted``; None:
    nothing)."""

    rng: random.Random
    names: NamePool
    given: FlowValue | None = None
    wanted: ValueKind | None = None

    def given_as(self, kind: ValueKind) -> FlowValue | None:
        """The value handed on when it is of this kind, else None."""
        return self.given if self.given is not None and self.given.kind == kind else None


class TemplateSpec(BaseModel):
    """One entry of ``template_specs.yaml``: a template's plain data (see
    :class:`SubtaskTemplate` for what each part means)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    app: str
    summary: str
    consumes: frozenset[ValueKind] = frozenset()
    produces: frozenset[ValueKind] = frozenset()
    reportable: bool = False
    needs_company: bool = False
    apart_from: frozenset[str] = frozenset()
    also_uses: tuple[str, ...] = ()
    #: In order, each one ``{kind: text}``.
    phrasings: tuple[dict[PhrasingKind, str], ...]


@cache
def template_specs() -> dict[str, TemplateSpec]:
    """The entries of ``template_specs.yaml``, by template name (read once, validated)."""
    raw = yaml.safe_load(Path(__file__).with_name("template_specs.yaml").read_text("utf-8"))
    return {name: TemplateSpec.model_validate(data) for name, data in raw.items()}


A = TypeVar("A", bound=TemplateAttributes)


class SubtaskTemplate(ABC, Generic[A]):
    """One kind of sub-task. Subclasses name their entry of ``template_specs.yaml`` (``spec=``
    in the class statement, which sets the class attributes below from it), name their
    attribute model as the class's parameter (which sets ``attributes``) and implement
    ``draw`` and ``build``.

    ``consumes``: the kinds of value it can take from the sub-task before it (it can always run
    on its own values too). ``produces``: the kinds it can hand on (chosen by the composer to
    fit the next template). ``reportable``: it can end a task by telling its value.
    ``needs_company``: it always comes after another sub-task. ``phrasings``: the ways its
    instruction can be worded, at least one of each :data:`~wording.PHRASING_KINDS`, each
    carrying every value the checkers need (``tests/bench/test_generated_phrasings.py``).
    """

    name: ClassVar[str]
    app: ClassVar[str]
    summary: ClassVar[str]
    attributes: ClassVar[type[TemplateAttributes]]
    phrasings: ClassVar[tuple[Phrasing, ...]]
    consumes: ClassVar[frozenset[ValueKind]] = frozenset()
    produces: ClassVar[frozenset[ValueKind]] = frozenset()
    reportable: ClassVar[bool] = False
    #: It must not be a task's first sub-task: gnome-clocks alone on the screen often leaves its
    #: dialogs out of the accessibility tree, so every Clocks task opens another application
    #: first (as the built-in ones do).
    needs_company: ClassVar[bool] = False
    #: Applications it never shares a task with: with Thunderbird open, gnome-clocks' window
    #: shows no tabs in the accessibility tree (measured 2026-11-28), so no Clocks sub-task
    #: can follow a mail one.
    apart_from: ClassVar[frozenset[str]] = frozenset()
    #: Applications it works in besides its own (a task's ``apps`` lists them too).
    also_uses: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, spec: str, **kwargs: Any) -> None:
        """Set the template's name and plain data from its entry ``spec`` of the specs file
        (KeyError for a name the file does not have), and its attribute model from the class
        statement (``SubtaskTemplate[AlarmTime]``)."""
        super().__init_subclass__(**kwargs)
        (cls.attributes,) = (
            get_args(base)[0]
            for base in cls.__orig_bases__  # type: ignore[attr-defined]
            if get_origin(base) is SubtaskTemplate
        )
        data = template_specs()[spec]
        cls.name, cls.app, cls.summary = spec, data.app, data.summary
        cls.consumes, cls.produces = data.consumes, data.produces
        cls.reportable, cls.needs_company = data.reportable, data.needs_company
        cls.apart_from, cls.also_uses = data.apart_from, data.also_uses
        cls.phrasings = tuple(
            Phrasing(kind, text) for phrasing in data.phrasings for kind, text in phrasing.items()
        )

    @abstractmethod
    def draw(self, source: Draw) -> A:
        """Attribute values for one use, drawn from ``source``."""

    @abstractmethod
    def build(self, attributes: A, slot: Slot) -> Fragment:
        """The fragment for these attributes in this slot."""

    def instruction(self, attributes: TemplateAttributes, **fields: str) -> str:
        """The instruction sentence in the phrasing ``attributes.phrasing`` names, its fields
        filled in. Raises ValueError for an index past the template's phrasings."""
        if attributes.phrasing >= len(self.phrasings):
            raise ValueError(
                f"template {self.name} has {len(self.phrasings)} phrasings; "
                f"there is no phrasing {attributes.phrasing}"
            )
        return self.phrasings[attributes.phrasing].render(**fields)

    def fragment(
        self,
        attributes: A,
        slot: Slot,
        subtask: str,
        *,
        words: Mapping[str, str],
        **parts: Any,
    ) -> Fragment:
        """The fragment whose instruction is the attributes' phrasing filled with ``words`` (and
        the request to tell the value where the slot reports it, for the phrasings that ask)
        and whose sub-task ``subtask`` describes; ``parts`` are the rest of the fragment."""
        return Fragment(
            instruction=self.instruction(
                attributes, **{"tell": TELL if slot.report else "", **words}
            ),
            phrasing=attributes.phrasing,
            subtask=self.subtask_in(slot, subtask),
            **parts,
        )

    def subtask_in(self, slot: Slot, description: str) -> SubtaskSpec:
        """The subtask a fragment of this template is in ``slot``: in this template's app."""
        return SubtaskSpec(id=slot.subtask_id, app=self.app, description=description)

    def goes_with(self, others: Sequence[SubtaskTemplate]) -> bool:
        """Whether it can share a task with ``others``: none in its application, none in an
        application it or they keep apart from."""
        return all(
            other.app != self.app
            and other.app not in self.apart_from
            and self.app not in other.apart_from
            for other in others
        )

    def fits_after(self, kinds: frozenset[ValueKind]) -> bool:
        """Whether this template can take one of these kinds of value."""
        return bool(self.consumes & kinds)

    def attributes_of(self, data: dict[str, Any]) -> A:
        """Validated attributes from plain data (for tests and tools)."""
        return self.attributes.model_validate(data)  # type: ignore[return-value]
