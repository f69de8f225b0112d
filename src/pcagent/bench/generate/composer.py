"""Composing tasks from sub-task templates, as CRAB composes its tasks from sub-tasks.

A task is a chain of one to three templates in different applications, each (after the first)
consuming the value the one before produced: a number read in the editor is multiplied in the
calculator and the result written into a spreadsheet, which is then mailed. The composer picks the
chain, the kinds of value between its links and every attribute from a random source seeded by
``(seed, task number)``, and each sub-task's phrasing from a second one seeded the same way (so
the wording never shifts the values: a seed's chains and values do not depend on how many
phrasings the templates have), so the same seed always gives the same tasks; it joins the
fragments into one validated :class:`~pcagent.bench.tasks.Task`: instruction, fixtures,
subtasks, a sub-goal graph where each sub-task's nodes come after those of the sub-task it
depends on, both reference solutions and the gold program (the fragments' program steps numbered
across the task, each carried value a reference to the step that produced it).

Each application appears at most once in a task: a second ``open_app`` of an application already
open would type into the window the first sub-task left (its note, its document).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from pcagent.bench.generate.catalogue import TEMPLATES
from pcagent.bench.generate.flow import FlowValue, ValueKind
from pcagent.bench.generate.programs import join_programs
from pcagent.bench.generate.template_base import Draw, Fragment, Slot, SubtaskTemplate
from pcagent.bench.generate.vocabulary import NamePool
from pcagent.bench.tasks import Fixtures, Task
from pcagent.errors import BenchError

#: The most tasks one call generates (the vocabulary repeats long before; more is a typo).
MAX_COUNT = 1000
#: How often a task has one, two or three sub-tasks.
LENGTH_WEIGHTS: dict[int, int] = {1: 1, 2: 2, 3: 2}


class TaskGenerationError(BenchError):
    """Tasks could not be generated or written (a bad count, a folder that cannot be written)."""


@dataclass(frozen=True)
class Chain:
    """The templates of one task, in order, and the kind of value passed along each link."""

    templates: tuple[SubtaskTemplate, ...]
    links: tuple[ValueKind, ...]


def choose_chain(
    rng: random.Random, anchor: SubtaskTemplate, templates: Sequence[SubtaskTemplate] = TEMPLATES
) -> Chain:
    """A chain of one to three templates around ``anchor``, grown forwards (a consumer of the
    last one's value) or backwards (a producer of what the first one takes), no application
    twice nor two a template keeps apart (``apart_from``), never starting with a template that
    ``needs_company``."""
    length = rng.choices(list(LENGTH_WEIGHTS), weights=list(LENGTH_WEIGHTS.values()))[0]
    chain = [anchor]
    while len(chain) < length or chain[0].needs_company:
        forwards = [
            (True, t) for t in templates if t.goes_with(chain) and t.fits_after(chain[-1].produces)
        ]
        backwards = [
            (False, t)
            for t in templates
            if t.goes_with(chain) and not t.needs_company and chain[0].fits_after(t.produces)
        ]
        options = backwards if chain[0].needs_company else forwards + backwards
        if not options:
            if chain[0].needs_company:
                raise TaskGenerationError(f"no template can come before {chain[0].name}")
            break
        forward, template = _rendezvous(rng.random(), options)
        if forward:
            chain.append(template)
        else:
            chain.insert(0, template)
    links = tuple(
        rng.choice(sorted(before.produces & after.consumes))
        for before, after in itertools.pairwise(chain)
    )
    return Chain(tuple(chain), links)


def _rendezvous(
    draw: float, options: Sequence[tuple[bool, SubtaskTemplate]]
) -> tuple[bool, SubtaskTemplate]:
    """The option that scores highest for ``draw``, each option's score seeded by the draw and
    its own name. Why not ``rng.choice``: a template added to the catalogue shifted every
    choice's index, so every chain of every seed changed and memory, built from a seed's tasks,
    held other programs than before for every task (2026-12-05: the nearest remembered
    instruction of a benchmark task moved by up to 0.15 when one template was added). Scored
    by name, a choice changes only where the new template scores highest."""

    def score(option: tuple[bool, SubtaskTemplate]) -> float:
        forward, template = option
        return random.Random(f"{draw}:{template.name}:{forward}").random()

    return max(options, key=score)


def build_fragments(rng: random.Random, chain: Chain, wording: random.Random) -> list[Fragment]:
    """Draw each template's attributes from ``rng``, passing each output on to the next, and
    its phrasing from ``wording``, and build them."""
    names = NamePool(rng)
    fragments: list[Fragment] = []
    given: FlowValue | None = None
    for index, template in enumerate(chain.templates):
        wanted = chain.links[index] if index < len(chain.links) else None
        last = index == len(chain.templates) - 1
        slot = Slot(
            subtask_id=f"s{index + 1}",
            after=tuple(n.id for n in fragments[-1].nodes) if fragments else (),
            report=last and template.reportable,
        )
        attributes = template.draw(Draw(rng, names, given, wanted)).model_copy(
            update={"phrasing": wording.randrange(len(template.phrasings))}
        )
        fragment = template.build(attributes, slot)
        if wanted is not None and (fragment.output is None or fragment.output.kind != wanted):
            raise TaskGenerationError(
                f"template {template.name} did not produce the {wanted} the next one needs"
            )
        if fragment.moves:
            fragments = [_not_final_where_moved(f, fragment.moves) for f in fragments]
        fragments.append(fragment)
        given = fragment.output
    return fragments


def _not_final_where_moved(fragment: Fragment, moved: tuple[str, ...]) -> Fragment:
    """``fragment`` with its checks of files a later sub-task moves away made non-final: they
    must pass when their sub-task is done, not again at the end (the file is elsewhere then,
    where the later sub-task's own checks find it)."""
    nodes = [
        n.model_copy(update={"final": False}) if n.params.get("path") in moved else n
        for n in fragment.nodes
    ]
    return dataclasses.replace(fragment, nodes=nodes)


def assemble_task(task_id: str, chain: Chain, fragments: list[Fragment], seed: int) -> Task:
    """One task from its fragments, validated like a task file."""
    # Each sub-task's application in order, then those a sub-task also works in.
    own = [t.app for t in chain.templates]
    apps = list(dict.fromkeys([*own, *(app for t in chain.templates for app in t.also_uses)]))
    services = sorted({service for f in fragments for service in f.services})
    return Task.model_validate(
        {
            "id": task_id,
            "source": (
                f"generated from templates (seed {seed}): "
                + " -> ".join(template.name for template in chain.templates)
            ),
            "instruction": " ".join(f.instruction for f in fragments),
            "apps": apps,
            "fixtures": Fixtures(
                files=[file for f in fragments for file in f.files],
                services=services,  # type: ignore[arg-type]
                inbox=[message for f in fragments for message in f.inbox],
                sent=[message for f in fragments for message in f.sent],
            ),
            "subtasks": [f.subtask for f in fragments],
            "nodes": [n for f in fragments for n in f.nodes],
            "reference": [step for f in fragments for step in f.reference],
            "reference_api": [step for f in fragments for step in f.reference_api],
            "program": join_programs([f.program for f in fragments]),
        }
    )


def compose_task(seed: int, number: int, anchor: SubtaskTemplate, round_: int = 0) -> Task:
    """Task ``gen-<seed>-<number>``, the ``round_``-th built around ``anchor``; the same seed,
    anchor and round always give the same task, whatever its number."""
    chain, fragments = compose_fragments(seed, round_, anchor)
    return assemble_task(f"gen-{seed}-{number}", chain, fragments, seed)


def compose_fragments(
    seed: int, round_: int, anchor: SubtaskTemplate
) -> tuple[Chain, list[Fragment]]:
    """The chain and fragments of the ``round_``-th task of ``seed`` built around ``anchor``:
    seeded by the anchor's name, not by the task's place, so a template added to the
    catalogue leaves the other templates' tasks as they were."""
    rng, wording = task_sources(seed, round_, anchor)
    chain = choose_chain(rng, anchor)
    return chain, build_fragments(rng, chain, wording)


def task_sources(
    seed: int, round_: int, anchor: SubtaskTemplate
) -> tuple[random.Random, random.Random]:
    """The random sources of a task: its chain and values', and its phrasings'."""
    key = f"pcagent-generate:{seed}:{anchor.name}:{round_}"
    return random.Random(key), random.Random(f"{key}:wording")


def anchor_of(seed: int, number: int) -> tuple[SubtaskTemplate, int]:
    """The template task ``number`` of ``seed`` is built around, and which round of it."""
    order = sorted(
        TEMPLATES, key=lambda t: random.Random(f"pcagent-generate:{seed}:{t.name}").random()
    )
    return order[(number - 1) % len(order)], (number - 1) // len(order)


def generate_tasks(count: int, seed: int) -> list[Task]:
    """``count`` tasks for ``seed``. Task n is built around the n-th template of the templates
    in a seeded order (each placed by its name), round after round, so every template appears
    once ``count`` reaches their number; each task is seeded by its anchor and round
    (:func:`compose_fragments`), so one template more changes only the tasks it takes part in
    and the last round's cut.

    Raises :class:`TaskGenerationError` for a count outside 1..:data:`MAX_COUNT`.
    """
    if not 1 <= count <= MAX_COUNT:
        raise TaskGenerationError(
            f"cannot generate {count} tasks; ask for 1 to {MAX_COUNT} (--count)"
        )
    return [compose_task(seed, number, *anchor_of(seed, number)) for number in range(1, count + 1)]
