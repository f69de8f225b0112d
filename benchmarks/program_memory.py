"""Program memory: how often the programs it shows the Manager have the shape the task needs.

Builds program memory from the gold programs of generated training tasks (``--train SEED:COUNT``,
repeatable), then asks it, as the Manager's prompt does, for the programs of each instruction of
other generated tasks (``--queries SEED:COUNT``, a seed memory was not built from). A shown
program "fits" when its skills, in order, are those of the query task's own gold program: the
shape the Manager is meant to copy (the values are the query's own). Prints JSON: the memory's
size and build time; of the queries, how many have their shape anywhere in memory, how many get
no program (none is similar enough), how many get a fitting one first and among those shown; and
the shown text's size (characters) and retrieval time. The baseline is memory's own coverage:
a query whose shape is nowhere in memory cannot be fitted. For the tasks pcagent is measured on
(the 25 and their 50 rewordings, which memory never holds) it also prints how many would be
shown any program at all, and the median cosine of their nearest training instruction: a
memory built from short training tasks may show nothing for long instructions.

The same queries are asked again with the programs that work in each of the query's own
applications shown first (``covering``, as the Manager asks when a model has read which
applications the instruction asks for; here the task's own applications stand in for that
reading): ``covering_fitting_first`` and ``covering_fitting_among_shown``, and their ratio to
the nearest-first figures. And once more with, of those, the programs that work in no other
application shown alone where there are any (``avoiding``, as the Manager asks by default):
``asked_only_fitting_first`` and ``asked_only_fitting_among_shown``; beside each way, the mean
count of programs of other shapes shown with the query (``*_other_shapes_mean``: what a small
model may merge into its program). Last, as the Manager asks by default since 2026-12-01, for a
query that names one of its own fixture files (standing in for the model's reading of the file
names and the run's look at HOME), of those only the programs that work on a file the person
had, where there are any (``preferring``): ``given_files_fitting_first`` and
``given_files_fitting_among_shown``.

With the examples shown that last way, it also counts what the check that a program is an
example's with one step that leaves something done taken out
(``pcagent.agents.left_out_of_examples``) does with each query's gold program: right programs
doubted (``left_out_right_doubted``), and, of the programs made by taking one such step out of
the gold program (``left_out_dropped``), those doubted naming that step's skill
(``left_out_dropped_caught``).

Goal: a fitting program among those shown for at least half of the queries.

    python benchmarks/program_memory.py --train 11:60 [--train 12:60] --queries 99:100 [--quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import PurePosixPath

from generated_runs import seed_and_count
from headline import add_quick_option, headline
from pcagent.agents.existing_files import works_on_given_file
from pcagent.agents.left_out_of_examples import EFFECT_SKILLS, steps_left_out_of_examples
from pcagent.agents.manager_memory import Example, shown_examples
from pcagent.agents.program import Program, ProgramStep, reference_values
from pcagent.bench.generate import generate_tasks
from pcagent.bench.tasks import load_reworded_tasks, load_tasks
from pcagent.experience.build import GraphBuilder, ProgramExample
from pcagent.experience.embedding import SentenceEncoder
from pcagent.experience.guide import MIN_PLAN_COSINE, Experience
from pcagent.models.embedding_pack import DEFAULT_EMBEDDING_PACK
from pcagent.skills import default_catalog

GOAL_SHARE = 0.5


def shape(program: Sequence[ProgramStep] | Sequence[Mapping[str, object]]) -> tuple[str, ...]:
    return tuple(
        step.skill if isinstance(step, ProgramStep) else str(step["skill"]) for step in program
    )


def shown_shapes(examples: Sequence[Example]) -> list[tuple[str, ...]]:
    """The shapes of the programs memory shows, in the order shown."""
    return [shape(example.steps) for example in examples]


def left_out_counts(gold: Sequence[ProgramStep], examples: str) -> tuple[bool, int, int]:
    """For a query's gold program and the examples shown for it: whether
    :func:`steps_left_out_of_examples` doubts the gold program (a right program doubted), how
    many programs with one step that leaves something done taken out there are (none that a
    later step refers to), and how many of those it doubts naming that step's skill."""
    doubted = bool(steps_left_out_of_examples(Program(steps=list(gold)), examples))
    dropped = caught = 0
    for index, step in enumerate(gold):
        used = {ref["from"] for later in gold for ref in reference_values(later.args)}
        if step.skill not in EFFECT_SKILLS or step.id in used or len(gold) < 2:
            continue
        dropped += 1
        less = Program(steps=[*gold[:index], *gold[index + 1 :]])
        caught += any(step.skill in d.skills for d in steps_left_out_of_examples(less, examples))
    return doubted, dropped, caught


def measured_sets_reach(memory: Experience, encoder: SentenceEncoder) -> dict[str, object]:
    """For the 25 tasks and their rewordings: how many would be shown a program, and the median
    cosine of each one's nearest training instruction."""
    found: dict[str, object] = {}
    for name, tasks in (("builtin", load_tasks()), ("reworded", load_reworded_tasks())):
        vectors = encoder.encode([task.instruction for task in tasks.values()])
        nearest = [float(max(memory.plan_similarities(vector), default=0.0)) for vector in vectors]
        # similar_plans shows programs exactly when the nearest is at least this alike
        shown = sum(cosine >= MIN_PLAN_COSINE for cosine in nearest)
        found[f"{name}_tasks"] = len(vectors)
        found[f"{name}_shown_a_program"] = shown
        found[f"{name}_nearest_cosine_median"] = round(statistics.median(nearest), 3)
    found["min_plan_cosine"] = MIN_PLAN_COSINE
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=seed_and_count, action="append")
    parser.add_argument("--queries", type=seed_and_count, default=(99, 100))
    parser.add_argument("--json", action="store_true", help="accepted: the output is JSON")
    add_quick_option(parser)
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.train, arguments.queries = [(11, 12)], (99, 4)
    if not arguments.train:
        parser.error("--train SEED:COUNT is required (or --quick)")

    training = [t for seed, count in arguments.train for t in generate_tasks(count, seed)]
    queries = generate_tasks(arguments.queries[1], arguments.queries[0])
    encoder = SentenceEncoder.load()
    started = time.perf_counter()
    builder = GraphBuilder(encoder, DEFAULT_EMBEDDING_PACK)
    builder.add_programs(
        [
            ProgramExample(t.id, t.instruction, tuple(t.apps), tuple(t.program or ()))
            for t in training
        ]
    )
    build_s = time.perf_counter() - started
    memory = Experience(builder.graph, encoder)

    catalog = default_catalog()
    known = {shape(t.program or []) for t in training}
    covered = none = first = among = covering_first = covering_among = 0
    asked_first = asked_among = given_first = given_among = 0
    right_doubted = dropped = caught = 0
    others: dict[str, list[int]] = {
        "nearest": [],
        "covering": [],
        "asked_only": [],
        "given_files": [],
    }
    given_file = partial(works_on_given_file, catalog=catalog)
    sizes: list[int] = []
    took_ms: list[float] = []
    for query in queries:
        wanted = shape(query.program or [])
        covered += wanted in known
        began = time.perf_counter()
        examples = memory.similar_programs(query.instruction)
        took_ms.append((time.perf_counter() - began) * 1000)
        sizes.append(len(shown_examples(examples)))
        shown = shown_shapes(examples)
        none += not shown
        first += bool(shown) and shown[0] == wanted
        among += wanted in shown
        groups = [[one.name for one in catalog if app in one.apps] for app in query.apps]
        covering = shown_shapes(memory.similar_programs(query.instruction, covering=groups))
        covering_first += bool(covering) and covering[0] == wanted
        covering_among += wanted in covering
        avoiding = [one.name for one in catalog if one.apps and not set(one.apps) & set(query.apps)]
        asked = shown_shapes(
            memory.similar_programs(query.instruction, covering=groups, avoiding=avoiding)
        )
        asked_first += bool(asked) and asked[0] == wanted
        asked_among += wanted in asked
        named = any(PurePosixPath(f.path).name in query.instruction for f in query.fixtures.files)
        shown_by_default = memory.similar_programs(
            query.instruction,
            covering=groups,
            avoiding=avoiding,
            preferring=given_file if named else None,
        )
        given = shown_shapes(shown_by_default)
        given_first += bool(given) and given[0] == wanted
        given_among += wanted in given
        counts = left_out_counts(query.program or [], shown_examples(shown_by_default))
        right_doubted += counts[0]
        dropped += counts[1]
        caught += counts[2]
        ways = (("nearest", shown), ("covering", covering), ("asked_only", asked))
        for way, shapes in (*ways, ("given_files", given)):
            others[way].append(sum(one != wanted for one in shapes))
    print(
        json.dumps(
            {
                **headline(
                    {"fitting_among_shown_share": round(among / len(queries), 3)},
                    {
                        "fitting_among_shown_share": f"at least {GOAL_SHARE}: a program of the "
                        "query's own shape among those shown, for that share of the queries"
                    },
                    among / len(queries) >= GOAL_SHARE,
                    quick=arguments.quick,
                ),
                "memory_programs": len(training),
                "build_s": round(build_s, 1),
                "queries": len(queries),
                "shape_in_memory": covered,
                "no_program_shown": none,
                "fitting_first": first,
                "fitting_among_shown": among,
                "covering_fitting_first": covering_first,
                "covering_fitting_among_shown": covering_among,
                "covering_ratio_first": round(covering_first / first, 2) if first else None,
                "covering_ratio_among": round(covering_among / among, 2) if among else None,
                "asked_only_fitting_first": asked_first,
                "asked_only_fitting_among_shown": asked_among,
                "given_files_fitting_first": given_first,
                "given_files_fitting_among_shown": given_among,
                **{
                    f"{way}_other_shapes_mean": round(statistics.mean(counts), 2)
                    for way, counts in others.items()
                },
                # An example's program with a step that leaves something done taken out:
                # right programs doubted, and programs with such a step taken out caught.
                "left_out_right_doubted": right_doubted,
                "left_out_dropped": dropped,
                "left_out_dropped_caught": caught,
                "shown_chars_median": statistics.median(sizes),
                "shown_chars_max": max(sizes),
                "retrieval_median_ms": round(statistics.median(took_ms), 1),
                **measured_sets_reach(memory, encoder),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
