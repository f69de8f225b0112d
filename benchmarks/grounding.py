"""Grounding: does a model pick the right numbered mark for a one-step instruction?

The cases (``grounding/cases.json``, over 150, all eight applications) are built from screens
recorded from the real applications in the sandbox (``grounding/screens``), as described in
:mod:`pcagent.bench.grounding`. Each case is asked with the full mark listing and with the
listing pruned to the instruction (``run.listing_limit`` marks, as the agents get it); the JSON
gives top-1 accuracy overall, per application and per kind of instruction, beside a model-free
baseline in the same run (the mark the pruning ranks first) and the share of cases whose
answer survives the pruning.

    python benchmarks/grounding.py --json [--model local] [--listings full pruned pruned_label]
    python benchmarks/grounding.py --record     # record the screens again (starts a sandbox)
    python benchmarks/grounding.py --build      # rebuild cases.json from the recorded screens
    python benchmarks/grounding.py --json --quick   # one case, pruned listing, smollm2-135m

Goal: from the pruned listing, the model is right at least as often as the lexical baseline.

A local model keeps the full listing of a screen in its prompt cache across that screen's
cases, so ``--context-tokens`` (default 16384) must hold the largest screen's listing.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from headline import add_quick_option, headline
from pcagent import actions as act
from pcagent.bench.grounding import (
    LISTINGS,
    Answer,
    build_cases,
    evaluate,
    load_cases,
    save_cases,
)
from pcagent.bench.mail_profile import MailMessage, write_mail_profile
from pcagent.cli.options import config_with
from pcagent.config import ModelProfile
from pcagent.env import SandboxDesktop
from pcagent.models import ModelRouter
from pcagent.perception.recorded import save_recorded
from perception import SCREENS as PERCEPTION_SCREENS
from perception import Context, park_pointer, serve_page

HERE = Path(__file__).resolve().parent / "grounding"
SCREENS_DIR = HERE / "screens"
CASES_FILE = HERE / "cases.json"
#: The model --quick asks: the tiny one the tests install.
QUICK_PACK = "smollm2-135m"


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


# --- the screens ---------------------------------------------------------------------------------


def _editor_menu(desktop: SandboxDesktop, context: Context) -> None:
    PERCEPTION_SCREENS["text_editor"](desktop, context)
    desktop.execute(act.Hotkey(keys=("alt", "f")))


def _editor_save_dialog(desktop: SandboxDesktop, context: Context) -> None:
    PERCEPTION_SCREENS["text_editor"](desktop, context)
    desktop.execute(act.Hotkey(keys=("ctrl", "shift", "s")))
    desktop.wait_settled(timeout=10, quiet=1.0)


def _writer_menu(desktop: SandboxDesktop, context: Context) -> None:
    PERCEPTION_SCREENS["writer"](desktop, context)
    desktop.execute(act.Hotkey(keys=("alt", "o")))
    desktop.wait_settled(timeout=10, quiet=1.0)


def _clock(desktop: SandboxDesktop, context: Context) -> None:
    desktop.open_app("clock")
    desktop.wait_settled(timeout=10, quiet=1.0)


def _mail(desktop: SandboxDesktop, context: Context) -> None:
    inbox = [
        MailMessage(
            sender="Jamie Lee <jamie@example.test>",
            subject="Team lunch on Friday",
            body="Shall we book the usual place for noon?",
            date="2024-05-02 09:30",
        ),
        MailMessage(
            sender="Priya Shah <priya@example.test>",
            subject="Quarterly figures",
            body="The spreadsheet is attached.",
            date="2024-05-03 14:05",
        ),
    ]
    write_mail_profile(desktop.home, smtp_port=desktop.mail_relay_address[1], inbox=inbox)
    desktop.open_app("mail")
    desktop.wait_settled(timeout=20, quiet=2.0)


#: Recorded screen -> (its application, how to bring it up).
SCREENS: dict[str, tuple[str, Callable[[SandboxDesktop, Context], None]]] = {
    "text_editor": ("text_editor", PERCEPTION_SCREENS["text_editor"]),
    "text_editor_menu": ("text_editor", _editor_menu),
    "text_editor_save": ("text_editor", _editor_save_dialog),
    "calculator": ("calculator", PERCEPTION_SCREENS["calculator"]),
    "clock": ("clock", _clock),
    "writer": ("writer", PERCEPTION_SCREENS["writer"]),
    "writer_menu": ("writer", _writer_menu),
    "spreadsheet": ("spreadsheet", PERCEPTION_SCREENS["spreadsheet"]),
    "file_manager": ("file_manager", PERCEPTION_SCREENS["file_manager"]),
    "browser": ("browser", PERCEPTION_SCREENS["browser"]),
    "mail": ("mail", _mail),
}


def record(names: list[str]) -> None:
    with (
        tempfile.TemporaryDirectory(prefix="grounding-") as scratch,
        serve_page(Path(scratch)) as url,
        SandboxDesktop() as desktop,
    ):
        context = Context(scratch=Path(scratch), url=url)
        for index, name in enumerate(names):
            if index:
                desktop.reset()
            log(f"[{name}] opening...")
            SCREENS[name][1](desktop, context)
            park_pointer(desktop)
            save_recorded(desktop.observe(), SCREENS_DIR, name)
            log(f"[{name}] recorded")


# --- asking --------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    parser.add_argument("--record", action="store_true", help="record the screens again")
    parser.add_argument("--build", action="store_true", help="rebuild the cases file")
    parser.add_argument("--screens", nargs="+", choices=list(SCREENS), default=list(SCREENS))
    parser.add_argument("--model", help="model profile to ask (default: the configured one)")
    parser.add_argument(
        "--listings",
        nargs="+",
        choices=list(LISTINGS),
        default=["full", "pruned"],
        help="full/pruned: answer with a mark number; *_label: with the label (click_element)",
    )
    parser.add_argument("--apps", nargs="+", help="only the cases of these applications")
    parser.add_argument("--limit", type=int, help="at most this many cases (spread over all)")
    parser.add_argument("--context-tokens", type=int, default=16384)
    add_quick_option(parser)
    arguments = parser.parse_args()
    if arguments.quick:  # one case, the pruned listing, the tiny local model
        arguments.limit, arguments.listings, arguments.context_tokens = 1, ["pruned"], 4096
    if arguments.record:
        record(arguments.screens)
    if arguments.build or arguments.record:
        screens = {name: SCREENS[name][0] for name in SCREENS}
        cases = build_cases(SCREENS_DIR, screens)
        save_cases(CASES_FILE, screens, cases)
        log(f"{len(cases)} cases written to {CASES_FILE}")
        return

    cases = load_cases(CASES_FILE)
    if arguments.apps:
        cases = [case for case in cases if case.app in arguments.apps]
    if arguments.limit and len(cases) > arguments.limit:
        step = len(cases) / arguments.limit
        cases = [cases[int(index * step)] for index in range(arguments.limit)]
    if not cases:
        parser.error("no cases left to ask")
    config = config_with(model=arguments.model)
    profile_name = config.models.default
    profile = config.models.profiles.get(profile_name, ModelProfile())
    if arguments.quick:
        profile = ModelProfile(pack=QUICK_PACK, max_output_tokens=32)
    profiles = dict(config.models.profiles)
    profiles[profile_name] = profile.model_copy(
        update={"context_tokens": max(profile.context_tokens, arguments.context_tokens)}
    )
    config = config.updated("models", profiles=profiles, validation_retries=1)
    total = len(cases) * len(arguments.listings)
    done = 0
    started = time.perf_counter()

    def progress(answer: Answer) -> None:
        nonlocal done
        done += 1
        verdict = "ok" if answer.correct else f"chose {answer.chosen}"
        log(
            f"[{done}/{total}] {answer.listing} {answer.case.id}: {verdict} "
            f"({answer.prompt_tokens} tokens, {answer.seconds:.1f} s)"
        )

    with ModelRouter(config) as router:
        model = router.for_role("decision")
        log(f"asking {len(cases)} cases with {model.info.name}...")
        report = evaluate(
            model,
            SCREENS_DIR,
            cases,
            arguments.listings,
            config.run.listing_limit or 60,
            progress,
        )
        label = model.info.name
    figures = report.as_json()
    ratios: dict[str, float] = figures.get("ratio_to_baseline", {})  # type: ignore[assignment]
    ratio = ratios.get("pruned")
    output = {
        **headline(
            {"pruned_over_baseline": ratio},
            {
                "pruned_over_baseline": "at least 1: the model picks the right mark from the "
                "pruned listing as often as the lexical baseline does"
            },
            None if ratio is None else ratio >= 1,
            quick=arguments.quick,
        ),
        "model_name": label,
        **figures,
        "run_s": round(time.perf_counter() - started),
    }
    print(
        json.dumps(output, ensure_ascii=False) if arguments.json else json.dumps(output, indent=2)
    )


if __name__ == "__main__":
    main()
