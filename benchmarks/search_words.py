"""Words searched for in place of a guessed address: do they find the page the task needs?

For generated tasks of a seed (``--tasks SEED:COUNT``) whose gold program finds its page with a
web search, the search step is replaced by what the 1.5B planner wrote in its place on the
benchmark (``open_page`` of a search engine's home page), and the `search_words` role's model
is asked for the words instead (``pcagent.agents.search_instead``). The page the gold search
finds first on the offline search engine is the one the task needs; a swap finds it when that
page is among the first results of the model's words (a reference to an earlier step left out:
the run would fill in the value, so this counts against the words). Prints JSON: the share of
swaps kept and the share that find the page, against a baseline that searches for the whole
instruction, and seconds per call.

Goal: at least 80% of the guesses replaced by words that find the page.

    python benchmarks/search_words.py --tasks 77:100          # qwen2.5-coder-1.5b, 2 threads
    python benchmarks/search_words.py --json --quick          # smollm2-135m, one task
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from generated_runs import parsed_with_model, share
from headline import headline
from pcagent.agents.program import SLOT, Program, ProgramStep
from pcagent.agents.search_instead import SEARCH_SKILL, GuessedAddress, SearchWordsAgent, searched
from pcagent.bench.generate import generate_tasks
from pcagent.bench.web.sites.search import search_results
from pcagent.models import ModelRouter

GOAL_FOUND = 0.8
#: What the planner opened instead of searching (pc02, 2026-11-27).
GUESS = "www.google.com"
#: Results a person (and the next step, by a link's text) looks at.
FIRST_RESULTS = 3


def guessed(steps: list[ProgramStep]) -> tuple[Program, GuessedAddress] | None:
    """The program with its first search an ``open_page`` of :data:`GUESS`, and that guess;
    None when it does not search."""
    for index, step in enumerate(steps):
        if step.skill == SEARCH_SKILL:
            opened = ProgramStep(id=step.id, skill="open_page", args={"address": GUESS})
            program = Program(steps=[*steps[:index], opened, *steps[index + 1 :]])
            return program, GuessedAddress(step.id, GUESS)
    return None


def finds(query: str, page: str) -> bool:
    """Whether ``page`` is among the first results of ``query`` on the offline engine."""
    return page in [url for url, _title, _snippet in search_results(query)[:FIRST_RESULTS]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments, config = parsed_with_model(parser, (77, 100), quick_tokens=40)
    seed, count = arguments.tasks
    # The quick run's one task is the first that searches, wherever it stands in the seed.
    drawn = generate_tasks(count if not arguments.quick else 40, seed)
    cases = [(task, guessed(list(task.program or ()))) for task in drawn]
    cases = [(task, case) for task, case in cases if case is not None]
    cases = cases[:1] if arguments.quick else cases
    kept = found = baseline = 0
    took: list[float] = []
    with ModelRouter(config) as router:
        model = router.for_role(SearchWordsAgent.name)
        agent = SearchWordsAgent(model)
        for task, (program, guess) in cases:
            gold = next(s for s in task.program or () if s.id == guess.step).args["query"]
            page = search_results(str(gold))[0][0]
            began = time.perf_counter()
            words = agent.words(task.instruction, program, guess)
            took.append(time.perf_counter() - began)
            swapped = searched(program, guess, words, [task.instruction])
            kept += swapped is not None
            if swapped is not None:
                query = next(s for s in swapped.steps if s.id == guess.step).args["query"]
                found += finds(SLOT.sub(" ", str(query)), page)
            baseline += finds(task.instruction, page)
    found_share = share(found, len(cases))
    met = None if found_share is None else found_share >= GOAL_FOUND
    print(
        json.dumps(
            {
                **headline(
                    {"found_share": found_share},
                    {
                        "found_share": f"at least {GOAL_FOUND}: guesses replaced by words "
                        f"whose first {FIRST_RESULTS} results hold the page the task needs"
                    },
                    met,
                    quick=arguments.quick,
                ),
                "model": model.info.name,
                "seed": seed,
                "searches": len(cases),
                "kept_share": share(kept, len(cases)),
                "instruction_as_query_found_share_baseline": share(baseline, len(cases)),
                "found_ratio_to_baseline": round(found / baseline, 2) if baseline else None,
                "seconds_per_call_median": round(statistics.median(took), 1) if took else None,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
