"""The grounding eval: given a screen's numbered marks and a one-step instruction, does a model
pick the mark the instruction is about?

PC-Agent measures this separately from whole tasks because a small model that plans well still
fails when it clicks the wrong thing. The cases are built from screens recorded from the real
applications (:mod:`pcagent.perception.recorded`): every labelled control that is the only one of
its kind and label on its screen gives a case whose instruction names it ("Press the "Save"
button"), and a short table of general application knowledge adds cases that describe a control
by what it does ("Undo the last change"). Nothing here names a benchmark task, file or value.

Each case is asked twice, with the full listing and with the listing pruned to the instruction
(:func:`~pcagent.perception.listing.prune_marks`, as the agents see it), and scored top-1. A
model-free baseline, the mark that the pruning ranks first, is scored in the same run.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from pcagent.bench.grounding_phrases import TEMPLATES, purpose_of
from pcagent.models.messages import Message
from pcagent.models.structured import ChatModel
from pcagent.perception.interactive import interactive_marks
from pcagent.perception.listing import compact_listing, element_targets, prune_marks, relevance
from pcagent.perception.marks import Mark
from pcagent.perception.recorded import load_recorded

Kind = Literal["label", "purpose"]
#: Which listing the model sees, and whether it answers with a mark's number or (``_label``) with
#: the label as listed, as ``click_element`` does.
Listing = Literal["full", "pruned", "full_label", "pruned_label"]
LISTINGS: tuple[Listing, ...] = ("full", "pruned", "full_label", "pruned_label")


class GroundingCase(BaseModel):
    """One instruction on one recorded screen, and the mark that answers it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    app: str
    screen: str
    kind: Kind
    instruction: str
    mark: int
    role: str
    label: str


class MarkChoice(BaseModel):
    """The model's reply: the number of the one mark the instruction is about."""

    mark: int = Field(description="number of the element the instruction is about")


def screen_marks(folder: Path, screen: str) -> list[Mark]:
    """The marks of a recorded screen, numbered as the agents would see them."""
    return interactive_marks(load_recorded(folder, screen))


def _family(role: str) -> str:
    """Roles a person cannot tell apart on screen count as one when judging uniqueness."""
    return "button" if role in ("push button", "toggle button") else role


def _shown_label(label: str) -> str:
    """The label as a person reads it: GTK's mnemonic underscore and a doubled accessible name
    ("_Add World Clock Add World Clock") removed."""
    text = " ".join(label.replace("_", "").split())
    words = text.split()
    half = len(words) // 2
    if half and len(words) % 2 == 0 and words[:half] == words[half:]:
        text = " ".join(words[:half])
    return text


def _readable(label: str) -> bool:
    """Labels a person could name: not a widget class ("GtkImage"), not a file system path
    (the sandbox's own folder names are random), not a whole sentence."""
    return bool(label) and len(label) <= 40 and not label.startswith(("Gtk", "/"))


def _unique_controls(marks: Sequence[Mark]) -> list[Mark]:
    """Marks with a template and a readable label that no other mark of the same family shares
    or begins with ("Inbox" beside "Inbox, 2 unread messages" would be ambiguous)."""
    labels: dict[str, list[str]] = {}
    for mark in marks:
        labels.setdefault(_family(mark.role), []).append(_shown_label(mark.label).casefold())
    unique = []
    for mark in marks:
        label = _shown_label(mark.label)
        if mark.role not in TEMPLATES or not _readable(label):
            continue
        folded = label.casefold()
        if sum(1 for other in labels[_family(mark.role)] if other.startswith(folded)) == 1:
            unique.append(mark)
    return unique


def _spread(items: Sequence[Mark], count: int) -> list[Mark]:
    """``count`` items spread evenly over ``items`` in their order (all when fewer)."""
    if len(items) <= count:
        return list(items)
    step = len(items) / count
    return [items[int(index * step)] for index in range(count)]


def build_cases(
    folder: Path, screens: Mapping[str, str], per_screen: int = 16
) -> list[GroundingCase]:
    """The cases of the recorded ``screens`` (screen -> application) in ``folder``: up to
    ``per_screen`` label cases spread over each screen's unique controls, and a purpose case
    for each unique control :func:`purpose_of` describes. Deterministic: the same screens give
    the same cases."""
    cases: list[GroundingCase] = []
    for screen, app in screens.items():
        controls = _unique_controls(screen_marks(folder, screen))
        chosen: list[tuple[Kind, str, Mark]] = [
            ("label", TEMPLATES[m.role].format(label=_shown_label(m.label)), m)
            for m in _spread(controls, per_screen)
        ]
        purposes = [(purpose_of(app, _shown_label(m.label)), m) for m in controls]
        said = [text for text, _ in purposes if text]
        # A purpose two controls serve (a Bold button and a Bold menu item) has no one answer.
        chosen += [("purpose", text, m) for text, m in purposes if text and said.count(text) == 1]
        for index, (kind, instruction, mark) in enumerate(chosen, start=1):
            cases.append(
                GroundingCase(
                    id=f"{screen}-{index:02d}",
                    app=app,
                    screen=screen,
                    kind=kind,
                    instruction=instruction,
                    mark=mark.number,
                    role=mark.role,
                    label=mark.label,
                )
            )
    return cases


def load_cases(path: Path) -> list[GroundingCase]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [GroundingCase.model_validate(case) for case in raw["cases"]]


def save_cases(path: Path, screens: Mapping[str, str], cases: Sequence[GroundingCase]) -> None:
    document = {"screens": dict(screens), "cases": [case.model_dump() for case in cases]}
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


SYSTEM = (
    "You find the one element of a computer screen that an instruction is about. The screen's "
    'elements are listed one per line: number, role, "label", =value, states, and the centre '
    "@x,y in screen pixels. Reply with the number of the element to act on."
)


SYSTEM_BY_LABEL = (
    "You find the one element of a computer screen that an instruction is about. The screen's "
    'elements are listed one per line: number, role, "label", =value, states, and the centre '
    "@x,y in screen pixels. Reply with the label of the element to act on, copied exactly as "
    'listed; for a label listed more than once, add # and the element\'s number ("Close #7").'
)


class LabelChoice(BaseModel):
    """The model's reply in the ``_label`` listings: the label of the one element."""

    label: str = Field(description="label of the element the instruction is about, as listed")


@lru_cache(maxsize=64)
def _label_choice_within(labels: tuple[str, ...]) -> type[LabelChoice]:
    names: Any = Literal[labels]
    return create_model("LabelChoice", __base__=LabelChoice, label=(names, Field()))


def grounding_messages(listing: str, instruction: str, by_label: bool = False) -> list[Message]:
    """The listing comes first and the instruction last, so that the cases of one screen with
    the full listing share a prompt prefix (a local model reuses its cache)."""
    return [
        Message.system(SYSTEM_BY_LABEL if by_label else SYSTEM),
        Message.user(f"Screen elements:\n{listing}\n\nInstruction: {instruction}"),
    ]


def shown_marks(
    marks: Sequence[Mark], instruction: str, listing: Listing, limit: int
) -> list[Mark]:
    if listing.startswith("full"):
        return list(marks)
    return prune_marks(marks, instruction, limit)


def lexical_choice(marks: Sequence[Mark], instruction: str) -> int:
    """The model-free baseline: the mark the pruning ranks first (ties: reading order)."""
    best = max(marks, key=lambda mark: (relevance(mark, instruction), -mark.number))
    return best.number


@dataclass
class Answer:
    """One case asked with one listing."""

    case: GroundingCase
    listing: Listing
    chosen: int | None
    in_listing: bool
    prompt_tokens: int
    seconds: float
    error: str = ""

    @property
    def correct(self) -> bool:
        return self.chosen == self.case.mark


def ask_case(
    model: ChatModel, marks: Sequence[Mark], case: GroundingCase, listing: Listing, limit: int
) -> Answer:
    """Ask ``model`` for the case's mark; a failed reply counts as a wrong answer, with why."""
    shown = shown_marks(marks, case.instruction, listing, limit)
    in_listing = any(mark.number == case.mark for mark in shown)
    by_label = listing.endswith("_label")
    messages = grounding_messages(compact_listing(shown), case.instruction, by_label)
    targets = element_targets(shown)
    schema: type[BaseModel] = (
        _label_choice_within(tuple(targets)) if by_label and targets else MarkChoice
    )
    started = time.perf_counter()
    result = model.ask(messages, schema, role=f"grounding-{listing}")
    seconds = time.perf_counter() - started
    error = ""
    chosen = None
    if isinstance(result.value, LabelChoice):
        chosen = targets[result.value.label].number
    elif isinstance(result.value, MarkChoice):
        chosen = result.value.mark
    if result.failure is not None:
        error = result.failure.message
    return Answer(case, listing, chosen, in_listing, result.usage.prompt_tokens, seconds, error)


@dataclass
class Tally:
    correct: int = 0
    total: int = 0

    def add(self, ok: bool) -> None:
        self.correct += ok
        self.total += 1

    @property
    def accuracy(self) -> float | None:
        return round(self.correct / self.total, 3) if self.total else None


@dataclass
class GroundingReport:
    """Top-1 accuracy per application and kind of instruction, for each listing, beside the
    model-free baseline and the share of cases whose mark survives the pruning."""

    answers: list[Answer] = field(default_factory=list)
    baseline: dict[str, Tally] = field(default_factory=dict)
    kept_by_pruning: Tally = field(default_factory=Tally)

    def as_json(self) -> dict[str, object]:
        per_listing: dict[str, dict[str, object]] = {}
        for listing in LISTINGS:
            answers = [a for a in self.answers if a.listing == listing]
            if not answers:
                continue
            by_app: dict[str, Tally] = {}
            by_kind: dict[str, Tally] = {}
            overall = Tally()
            for answer in answers:
                by_app.setdefault(answer.case.app, Tally()).add(answer.correct)
                by_kind.setdefault(answer.case.kind, Tally()).add(answer.correct)
                overall.add(answer.correct)
            tokens = [a.prompt_tokens for a in answers if a.prompt_tokens]
            per_listing[listing] = {
                "top1": overall.accuracy,
                "per_app": {app: t.accuracy for app, t in sorted(by_app.items())},
                "per_kind": {kind: t.accuracy for kind, t in sorted(by_kind.items())},
                "failed_replies": sum(1 for a in answers if a.error),
                "median_prompt_tokens": statistics.median(tokens) if tokens else None,
                "median_seconds": round(statistics.median(a.seconds for a in answers), 2),
            }
        baseline = self.baseline.get("all", Tally())
        ratios = {
            listing: round(figures["top1"] / baseline.accuracy, 2)  # type: ignore[operator]
            for listing, figures in per_listing.items()
            if baseline.accuracy and figures["top1"] is not None
        }
        return {
            "cases": len({a.case.id for a in self.answers}),
            "model": per_listing,
            "baseline_lexical": {
                "top1": baseline.accuracy,
                "per_app": {
                    key: t.accuracy
                    for key, t in sorted(self.baseline.items())
                    if key != "all" and not key.startswith("kind:")
                },
                "per_kind": {
                    key.removeprefix("kind:"): t.accuracy
                    for key, t in sorted(self.baseline.items())
                    if key.startswith("kind:")
                },
            },
            "ratio_to_baseline": ratios,
            "pruning_keeps_answer": self.kept_by_pruning.accuracy,
        }


def evaluate(
    model: ChatModel,
    folder: Path,
    cases: Iterable[GroundingCase],
    listings: Sequence[Listing] = ("full", "pruned"),
    limit: int = 60,
    progress: Callable[[Answer], None] | None = None,
) -> GroundingReport:
    """Ask every case with each listing, screen by screen (so a screen's full listing stays in
    the model's prompt cache)."""
    report = GroundingReport()
    marks_of: dict[str, list[Mark]] = {}
    ordered = sorted(cases, key=lambda case: (case.screen, case.id))
    for listing in listings:
        for case in ordered:
            marks = marks_of.setdefault(case.screen, screen_marks(folder, case.screen))
            answer = ask_case(model, marks, case, listing, limit)
            report.answers.append(answer)
            if progress is not None:
                progress(answer)
    for case in ordered:
        marks = marks_of.setdefault(case.screen, screen_marks(folder, case.screen))
        ok = lexical_choice(marks, case.instruction) == case.mark
        for key in (case.app, f"kind:{case.kind}", "all"):
            report.baseline.setdefault(key, Tally()).add(ok)
        kept = prune_marks(marks, case.instruction, limit)
        report.kept_by_pruning.add(any(mark.number == case.mark for mark in kept))
    return report
