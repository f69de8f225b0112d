"""Extractions told what their values are for: where a program passes an extracted value whole
to a typed parameter (an alarm's time, a date to count days to, a number of minutes), the
Manager's mends record that parameter in the extraction's ``uses``: the model is told, beside the
value's name, where it goes and what the parameter takes, and the parameter's type checks the
reply (a refused reply is asked again with the refusal; ``pcagent.agents.extraction_uses``,
``pcagent.skills.typed_replies``). Does the model then give a value the parameter takes?

The cases are the gold extractions of generated tasks that read a file of the task's fixtures
and pass a value to such a parameter. Each is asked four ways: with the gold ``what`` and with
a loose one (the value named "text", "the text of the file", as the 1.5B Manager wrote one),
each as written (the baseline) and told. A value counts as typed when the skill kept it (the
text holds it) and the parameter takes it, or the one line of the text it stands on (which the
call then reads, ``pcagent.agents.source_lines``). Prints JSON: the shares typed, told and as
written, for the gold and the loose words, their ratios, the median seconds an extraction
took.

Goal: told, at least 80% typed for the loose words, and never below the baseline.

    python benchmarks/extraction_uses.py --json              # seed 5101, 12 tasks
    python benchmarks/extraction_uses.py --json --quick      # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from generated_runs import share, tasks_with
from headline import headline
from pcagent.agents.extraction_uses import with_extraction_uses_told
from pcagent.agents.program import Program, ProgramStep, is_reference
from pcagent.bench.tasks import Task
from pcagent.models import ModelRouter
from pcagent.runtime.loop.dispatch import ModelLanguage
from pcagent.skills import default_catalog
from pcagent.skills.base import LanguageModel
from pcagent.skills.language import extract_values
from pcagent.skills.typed_replies import taken_by

CATALOG = default_catalog()
#: The name and words of a loose extraction, as the 1.5B Manager wrote one (a rewording of pc01).
LOOSE = ("text", "the text of the file")
GOAL_TYPED = 0.8


@dataclass(frozen=True)
class Case:
    """One gold extraction: the file's text, the value's name, its gold words, the
    instruction, and the typed parameter its value goes to (skill, parameter)."""

    text: str
    name: str
    what: str
    instruction: str
    use: tuple[str, str]


@dataclass
class Asking:
    """What ``extract_values`` needs of a skill's context: the model, and the step's task."""

    model: LanguageModel
    task: str
    hub: dict[str, str] = field(default_factory=dict)

    def language(self) -> LanguageModel:
        return self.model

    def step(self) -> Asking:
        return self


def cases_of(task: Task) -> list[Case]:
    """The gold extractions of ``task`` that read a fixture file and feed a typed parameter."""
    files = {str(one.path): one.text for one in task.fixtures.files if one.text}
    steps = {step.id: step for step in task.program}
    told = with_extraction_uses_told(Program(steps=[*task.program]), CATALOG)
    found: list[Case] = []
    for step in task.program:
        if step.skill != "extract_values" or not is_reference(step.args.get("text")):
            continue
        source = steps.get(step.args["text"]["from"])  # type: ignore[index]
        path = source.args.get("path") if source and source.skill == "read_text_file" else None
        mended = next(one for one in told.steps if one.id == step.id)
        if path not in files or mended == step:
            continue
        name = str(step.args["names"][0])  # type: ignore[index]
        use = _use(task.program, step.id, name)
        if use:
            found.append(Case(files[path], name, str(step.args["what"]), task.instruction, use))
    return found


def _use(program: list[ProgramStep] | tuple[ProgramStep, ...], source: str, name: str) -> Any:
    """The first (skill, parameter) that takes ``source``'s ``name`` whole."""
    whole = ({"from": source, "key": name}, f"{{{source}.{name}}}")
    for step in program:
        for parameter, value in step.args.items():
            if value in whole:
                return step.skill, parameter
    return None


def typed(case: Case, asked: dict[str, Any], model: LanguageModel) -> bool:
    """Whether the model's extraction ``asked`` (its names, words and uses) is kept and its
    value taken by the case's parameter."""
    result = extract_values.call(Asking(model, case.instruction), {"text": case.text, **asked})
    name = asked["names"][0]
    if not result.ok or not isinstance(result.value, dict):
        return False
    check = taken_by(".".join(case.use), case.text)
    if check is None:
        return True
    try:
        check(result.value[name])
    except ValueError:
        return False
    return True


def told(case: Case, name: str, what: str) -> dict[str, Any]:
    """The extraction of ``name`` with ``what`` as the mends leave it for this case."""
    step = ProgramStep(
        id="s1", skill="extract_values", args={"text": "x", "names": [name], "what": what}
    )
    skill, parameter = case.use
    user = ProgramStep(id="s2", skill=skill, args={parameter: f"{{s1.{name}}}"})
    mended = with_extraction_uses_told(Program(steps=[step, user]), CATALOG).steps[0]
    return {key: value for key, value in mended.args.items() if key != "text"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments, config, seed, tasks = tasks_with(parser, (5101, 12), 48, cases_of)
    cases = [case for task in tasks for case in cases_of(task)]
    if arguments.quick:
        cases = cases[:1]
    counts = {"gold": [0, 0], "loose": [0, 0]}  # [as written, told]
    took: list[float] = []
    with ModelRouter(config) as router:
        model = router.for_role("composer")
        language = ModelLanguage(model)
        for case in cases:
            for words, (name, what) in (("gold", (case.name, case.what)), ("loose", LOOSE)):
                began = time.perf_counter()
                plain = typed(case, {"names": [name], "what": what}, language)
                told_too = typed(case, told(case, name, what), language)
                took.append((time.perf_counter() - began) / 2)
                counts[words][0] += plain
                counts[words][1] += told_too
                print(f"{case.use} {words}: as written {plain}, told {told_too}", file=sys.stderr)
    total = len(cases)
    arms = ("baseline", "told")
    shares = {
        f"{w}_{arm}": share(counts[w][i], total) for w in counts for i, arm in enumerate(arms)
    }
    loose_told = shares["loose_told"]
    never_below = all(counts[w][1] >= counts[w][0] for w in counts)
    met = None if loose_told is None else loose_told >= GOAL_TYPED and never_below
    ratios = {
        f"{w}_ratio_to_baseline": round(counts[w][1] / counts[w][0], 2) if counts[w][0] else None
        for w in counts
    }
    print(
        json.dumps(
            {
                **headline(
                    {"loose_typed_share_told": loose_told},
                    {
                        "loose_typed_share_told": f"at least {GOAL_TYPED}, and told never below "
                        "as written (gold and loose words)"
                    },
                    met,
                    quick=arguments.quick,
                ),
                "model": model.info.name,
                "seed": seed,
                "tasks": len(tasks),
                "extractions": total,
                **{f"{key}_typed_share": value for key, value in shares.items()},
                **ratios,
                "seconds_per_extraction_median": round(statistics.median(took), 1)
                if took
                else None,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
