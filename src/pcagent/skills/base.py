"""What a skill is: one typed, parameterised procedure a model chooses and code carries out.

A skill is declared once, with :func:`skill` on the function that does the work: its name (the
function's), the description a model reads, a pydantic model of its parameters (with bounds; the
function's annotation), the applications it needs. The function receives a
:class:`SkillContext` (how it acts on the desktop and reads what it needs) and the validated
parameters; it does the exact work, checks the effect it promised (file saved with the text,
alarm listed, value on the display, mail held by the relay) and returns a :class:`SkillResult`. A skill whose effect check fails returns ``ok=False``: it never
reports success it did not see.

Skills never read the user's words: a model picked the skill and filled its parameters.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import NoneType, UnionType
from typing import (
    Annotated,
    Any,
    Generic,
    Literal,
    Protocol,
    TypeVar,
    Union,
    get_args,
    get_origin,
)

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError
from pydantic.fields import FieldInfo

from pcagent.actions import Action
from pcagent.errors import PcAgentError
from pcagent.step_context import StepContext

P = TypeVar("P", bound=BaseModel)
#: How a skill uses the browser's page (see :attr:`Skill.page`).
PageUse = Literal["opens", "searches", "follows", "fills"]


class SkillError(PcAgentError):
    """A skill was called with what it cannot take (unknown name, invalid parameters)."""


class StepFailed(PcAgentError):
    """One action of a skill failed; the skill's result says which and why (raised by
    :func:`pcagent.skills.common.do`, turned into a failed result by :meth:`Skill.call`)."""

    def __init__(self, outcome: ActionOutcome, kind: str) -> None:
        super().__init__(f"{kind} failed: {outcome.message}")
        self.outcome = outcome


@dataclass(frozen=True)
class Written:
    """How a value of a parameter's type stands in a text, as a closed pattern: an extraction
    whose value goes to such a parameter is answered under it (the reply's grammar holds the
    model to it; :mod:`pcagent.skills.typed_replies`). Metadata of an ``Annotated`` type; the
    parameter itself accepts more (its validator reads other spellings)."""

    pattern: str


class SkillParameters(BaseModel):
    """Base of every skill's parameter model: unknown fields are errors, values immutable. A
    number given for a text (an earlier step's number by reference: the largest of found
    values written into a file) is taken as its text."""

    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)


def choice(question: str, *options: tuple[JsonValue, str]) -> dict[str, JsonValue]:
    """Marks a parameter whose few values a person says in words (which end of a list comes
    first, before or after a time): ``question`` and each value's meaning, as a model asked
    that question alone is shown them (:mod:`pcagent.agents.choice_readings`). Such a value
    is the one a small planner gets wrong while writing a whole program, and that no text can
    show wrong: "from best rated to worst" sorted lowest first and said "finished" (a
    rewording of pc17, 2026-12-02)."""
    return {"choice": {"question": question, "options": [[v, m] for v, m in options]}}


@dataclass(frozen=True)
class ActionOutcome:
    """What one action a skill took came to (the run layer's result, reduced to what skills
    need: they never see records)."""

    ok: bool
    message: str = ""
    output: str | None = None
    verified: bool = False


class NoLanguageReply(PcAgentError):
    """No language model is configured, or it gave no usable reply (the skill fails)."""


class LanguageModel(Protocol):
    """A model that answers a prompt with a validated object of ``schema`` (the run's
    Composer model); the language skills use it. No usable reply: None, and where the model
    can say why, its ``refused`` attribute says (the skill's failure, and so the re-plan,
    is told)."""

    def answer(self, system: str, user: str, schema: type[P]) -> P | None: ...


class SkillContext(Protocol):
    """What a skill may use: carry out actions (application actions first, GUI where they
    fail), read HOME, read the text of the window in front, ask a language model, and read the
    step it runs in (:class:`~pcagent.step_context.StepContext`: the subtask, the window in
    front, the values handed over; None outside a run, as in replay)."""

    def act(self, action: Action) -> ActionOutcome: ...

    def step(self) -> StepContext | None: ...

    def home(self) -> Path | None: ...

    def screen_text(self) -> str: ...

    def language(self) -> LanguageModel | None: ...


@dataclass(frozen=True)
class SkillResult:
    """A skill's outcome: ``value`` is what later steps may use (``{"from": "s1"}``),
    ``evidence`` what the effect check saw, ``message`` what to tell the agents."""

    ok: bool
    value: JsonValue = None
    evidence: str = ""
    message: str = ""
    #: What the skill tells the person (the run's answer to a question), when it tells one.
    answer: str | None = None

    @classmethod
    def failed(cls, message: str, evidence: str = "") -> SkillResult:
        return cls(ok=False, message=message, evidence=evidence)

    def value_text(self) -> str:
        """The value as one line of text (what the hub and the prompts hold)."""
        if self.value is None:
            return ""
        if isinstance(self.value, str):
            return self.value
        import json

        return json.dumps(self.value, ensure_ascii=False)


@dataclass(frozen=True)
class Skill(Generic[P]):
    """One registered skill (see the module docstring)."""

    name: str
    description: str
    parameters: type[P]
    run: Callable[[SkillContext, P], SkillResult]
    #: Logical applications the skill works in; empty: none (pure computation or language).
    apps: tuple[str, ...] = ()
    #: The skill needs the run's language model (extract, compose, translate).
    needs_language: bool = False
    #: Names of the value's fields when it is an object (for references with "key").
    returns: str = ""
    #: The value is an object with these fields (``{"from": "s1", "key": "label"}``) ...
    value_keys: tuple[str, ...] = ()
    #: ... or with the fields a list argument names (``extract_values``' ``names``).
    keys_argument: str = ""
    #: Parameters holding paths in HOME that the skill writes (changes or replaces): the effect
    #: checks let exactly those files change in its step.
    writes: tuple[str, ...] = ()
    #: Parameters holding paths in HOME that the skill reads or changes: each must name a file
    #: that is there when the step runs (a program is checked for it before it runs).
    reads: tuple[str, ...] = ()
    #: The value is a list (labels in order, moved paths): it may fill a parameter that takes
    #: a list; other skills' values are one value or an object of named values.
    gives_list: bool = False
    #: Where a call with these arguments moves files (old path -> new path): a later step finds
    #: them at the new place, and none at the old one.
    moves: Callable[[Mapping[str, Any]], Mapping[str, str]] | None = None
    #: The call is there for the value it works out (a sum, a time, the largest of values): a
    #: program whose later steps go on without it has left the result out.
    computes: bool = False
    #: The call changes nothing and is there for what it reads (a file's text, the messages of
    #: a folder): a program whose later steps go on without it has read for nothing.
    only_reads: bool = False
    #: Parameters that take a whole text (a file's or a page's reading may fill them: what is
    #: written, typed, sent or told); a language skill's parameters all do. Any other parameter
    #: takes single values (a number, a time, a city, a form's value).
    texts: tuple[str, ...] = ()
    #: How the call uses the browser's page, None for none: it ``opens`` one by its address,
    #: ``searches`` (opens a page that lists results to follow), ``follows`` a link of the page
    #: in front to another, or ``fills`` the form of the page in front.
    page: PageUse | None = None
    #: The skill that makes this call once for each of several things and gives their values
    #: as one list (``web_search`` -> ``web_search_each``): a program that hands this call's
    #: one reading on as a list is told of it.
    for_each: str = ""
    #: The parameter whose text every value is copied out of (``extract_values``' ``text``):
    #: the value holds nothing that text did not.
    quotes: str = ""

    @property
    def navigates(self) -> bool:
        """A call opens a page: the same call later opens it again, which the steps after it
        may need (a site's home before its next link), so it is never dropped as a repeat."""
        return self.page in ("opens", "searches", "follows")

    @property
    def gives_reading(self) -> bool:
        """The value is a whole text read off a file, a folder of mails or a page, not one
        value: a step that computes or fills in with it must find the value in it first."""
        return self.only_reads or self.page is not None

    def takes_text(self, parameter: str) -> bool:
        """Whether ``parameter`` may be given a whole text (see :attr:`texts`)."""
        return self.needs_language or parameter in self.texts

    @property
    def on_page(self) -> bool:
        """The call works on the page in front (a link, a form): a step before it in the
        program must open one."""
        return self.page in ("follows", "fills")

    def validate(self, args: dict[str, Any]) -> P:
        """The parameters, validated; :class:`SkillError` naming each bad field otherwise."""
        try:
            return self.parameters.model_validate(args)
        except ValidationError as error:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                for e in error.errors()
            )
            raise SkillError(f"{self.name}: {problems}") from None

    def call(self, context: SkillContext, args: dict[str, Any]) -> SkillResult:
        """Validate ``args`` and run; a failure of the desktop is a failed result."""
        parameters = self.validate(args)
        try:
            return self.run(context, parameters)
        except StepFailed as failure:
            return SkillResult.failed(str(failure))
        except PcAgentError as error:
            return SkillResult.failed(f"{self.name} failed: {error}")

    def written_files(self, args: Mapping[str, Any]) -> list[str]:
        """The paths in HOME that a call with ``args`` (references resolved) writes: the values
        of its :attr:`writes` parameters that are texts, and texts in lists."""
        return _paths(args, self.writes)

    def moved_files(self, args: Mapping[str, Any]) -> Mapping[str, str]:
        """The files a call with ``args`` moves, old path to new (see :attr:`moves`)."""
        return self.moves(args) if self.moves is not None else {}

    def read_files(self, args: Mapping[str, Any]) -> list[str]:
        """The paths in HOME a call with ``args`` reads (its :attr:`reads` parameters' texts)."""
        return _paths(args, self.reads)

    def signature(self) -> str:
        """One line for a prompt: ``name(param: type, ...)  description``."""
        fields = []
        for name, info in self._shown_fields().items():
            kind = _type_name(info.annotation)
            fields.append(f"{name}: {kind}" + ("" if info.is_required() else " = …"))
        returns = f" -> {self.returns}" if self.returns else ""
        return f"{self.name}({', '.join(fields)}){returns}: {self.description}"

    def short_signature(self) -> str:
        """``name(param, optional?)``: what a prompt that must be short shows."""
        fields = [n + ("" if f.is_required() else "?") for n, f in self._shown_fields().items()]
        return f"{self.name}({', '.join(fields)})"

    def written_by_a_model(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """``args`` as a model could write them: the hidden ones code fills in left out."""
        written = _schema_names(self.parameters)
        return {name: value for name, value in args.items() if name in written}

    def _shown_fields(self) -> dict[str, FieldInfo]:
        """The parameters of the reply's schema: not what code fills in (``uses``), which a
        prompt that named it offered though the grammar never lets a reply hold it."""
        written = _schema_names(self.parameters)
        return {n: f for n, f in self.parameters.model_fields.items() if n in written}


@cache
def _schema_names(parameters: type[BaseModel]) -> frozenset[str]:
    """A parameter model's schema names, made once (every prompt's skill lines ask)."""
    return frozenset(parameters.model_json_schema().get("properties", {}))


def _paths(args: Mapping[str, Any], names: tuple[str, ...]) -> list[str]:
    """The texts, and texts in lists, of the parameters ``names`` of ``args``."""
    found: list[str] = []
    for name in names:
        value = args.get(name)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item:
                found.append(item)
    return found


def _type_name(annotation: Any) -> str:
    """A parameter's type as a prompt shows it: the values a literal allows ("before" |
    "after") and a list's item type, which a bare ``Literal`` or ``list`` would hide from the
    model choosing them; constraints and validators left out."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Literal:
        return " | ".join(json.dumps(value) for value in args)
    if origin is Annotated:
        return _type_name(args[0])
    if origin in (Union, UnionType):
        kinds = [_type_name(one) for one in args if one is not NoneType]
        return " | ".join(kinds + (["None"] if NoneType in args else []))
    if origin is list and args:
        return f"list[{_type_name(args[0])}]"
    return getattr(annotation, "__name__", None) or str(annotation).replace("typing.", "")


def skill(
    description: str,
    *,
    apps: tuple[str, ...] = (),
    needs_language: bool = False,
    returns: str = "",
    value_keys: tuple[str, ...] = (),
    keys_argument: str = "",
    writes: tuple[str, ...] = (),
    reads: tuple[str, ...] = (),
    gives_list: bool = False,
    moves: Callable[[Mapping[str, Any]], Mapping[str, str]] | None = None,
    page: PageUse | None = None,
    computes: bool = False,
    only_reads: bool = False,
    texts: tuple[str, ...] = (),
    for_each: str = "",
    quotes: str = "",
) -> Callable[[Callable[[SkillContext, P], SkillResult]], Skill[P]]:
    """Declare the decorated function as a skill named after it, taking the parameter model its
    second parameter is annotated with; the module's :class:`Skill` objects are collected by
    :mod:`pcagent.skills.catalog`, which is what plans and runs use. Each is also noted by name
    for :func:`declared_parameter` alone."""

    def declare(run: Callable[[SkillContext, P], SkillResult]) -> Skill[P]:
        declared = Skill(
            name=run.__name__,
            description=description,
            parameters=_parameter_model(run),
            run=run,
            apps=apps,
            needs_language=needs_language,
            returns=returns,
            value_keys=value_keys,
            keys_argument=keys_argument,
            writes=writes,
            reads=reads,
            gives_list=gives_list,
            moves=moves,
            page=page,
            computes=computes,
            only_reads=only_reads,
            texts=texts,
            for_each=for_each,
            quotes=quotes,
        )
        _DECLARED[declared.name] = declared
        return declared

    return declare


#: Every skill declared so far, by name: the parameters a language step's reply is checked
#: by (``extract_values``' ``uses``) are looked up here, since the catalog that gathers the
#: skills imports the language skills and cannot be imported by them.
_DECLARED: dict[str, Skill[Any]] = {}


def declared_parameter(use: str) -> FieldInfo | None:
    """The parameter ``use`` names (``"set_alarm.time"``) of a skill declared so far; None
    where no such skill or parameter is (every skill module of pcagent is imported with the
    package)."""
    skill_name, _, parameter = use.partition(".")
    found = _DECLARED.get(skill_name)
    return found.parameters.model_fields.get(parameter) if found is not None else None


def _parameter_model(run: Callable[..., SkillResult]) -> type[Any]:
    """The class ``run``'s parameters are annotated with (a name in its module, as the
    annotations are text there); :class:`SkillError` when it is not a parameter model."""
    _, parameters = inspect.signature(run).parameters.values()
    annotation = parameters.annotation
    model = run.__globals__.get(annotation) if isinstance(annotation, str) else annotation
    if not (isinstance(model, type) and issubclass(model, SkillParameters)):
        raise SkillError(f"{run.__name__}: annotate its parameters with a SkillParameters model")
    return model
