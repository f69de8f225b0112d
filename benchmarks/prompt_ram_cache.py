"""The local model's memory over many calls: llama.cpp's in-memory cache of earlier prompts.

llama.cpp keeps the states of earlier prompts in memory to reuse their prefixes beyond the
slots, up to ``cache_ram_mib`` (its own default 8,192 MiB; pcagent's: a quarter of the
machine's memory, at most that). This runs the same calls twice, each in a fresh process: with
llama.cpp's default cap and with a smaller one (``--cap``), a role after another as the agents
take turns (more roles than slots), and prints how much memory each process gained and how long
the calls took, the capped run against the uncapped (a ratio).

    python benchmarks/prompt_ram_cache.py --json                 # qwen2.5-coder-1.5b, cap 1024
    python benchmarks/prompt_ram_cache.py --json --cap 0         # no such cache at all
    python benchmarks/prompt_ram_cache.py --json --quick         # smollm2-135m, a few calls

Goal: the capped run gains no more memory than its cap (and what the model itself needs, 64 MiB
of slack), and takes at most 1.1 times as long.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from headline import add_quick_option, headline
from pcagent.config import load_config
from pcagent.models.backend import BackendInfo, ChatRequest
from pcagent.models.backends.local_llama import MOST_RAM_CACHE_MIB, LocalLlamaBackend
from pcagent.models.messages import Message
from pcagent.models.packs import find_local_model

#: Memory a capped run may gain besides its cap (buffers of the calls themselves).
SLACK_MIB = 64


def anonymous_mib() -> float:
    """This process's anonymous memory (what the cache takes), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    return 0.0


def one_setting(pack: str, cap: int, calls: int, roles: int, words: int) -> dict[str, float]:
    """The calls with the cache capped at ``cap`` MiB: memory gained and seconds taken."""
    installed = find_local_model(load_config().models_dir, pack)
    backend = LocalLlamaBackend(
        installed.path, info=BackendInfo(name=pack), threads=2, cache_ram_mib=cap
    )
    backend.load()
    instructions = " ".join(f"rule{i} says to keep item{i} in order" for i in range(words // 6))
    request = ChatRequest(
        messages=(Message.user("warm up"),),
        schema={"type": "object"},
        schema_name="Reply",
        max_output_tokens=1,
        cache_key="warm-up",
        constrained=False,
    )
    backend.complete(request)
    before, started = anonymous_mib(), time.perf_counter()
    for number in range(calls):
        role = f"role{number % roles}"
        messages = (
            Message.system(f"You are {role}. {instructions}"),  # the role's stable prefix
            Message.user(f"Step {number}: answer with one word."),
        )
        backend.complete(
            ChatRequest(
                messages=messages,
                schema={"type": "object"},
                schema_name="Reply",
                max_output_tokens=1,
                cache_key=role,
                constrained=False,
            )
        )
    seconds = time.perf_counter() - started
    gained = anonymous_mib() - before
    backend.close()
    return {"cap_mib": cap, "gained_mib": round(gained, 1), "seconds": round(seconds, 2)}


def in_own_process(arguments: argparse.Namespace, cap: int) -> dict[str, float]:
    """:func:`one_setting` in a fresh process: memory a process freed stays its own."""
    command = [
        sys.executable,
        __file__,
        "--one",
        str(cap),
        "--pack",
        arguments.pack,
        "--calls",
        str(arguments.calls),
        "--roles",
        str(arguments.roles),
        "--words",
        str(arguments.words),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the run with cap {cap} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default=None, help="local model pack")
    parser.add_argument("--cap", type=int, default=1024, help="the smaller cap, MiB")
    parser.add_argument("--calls", type=int, default=None, help="calls in each run")
    parser.add_argument("--roles", type=int, default=12, help="roles taking turns (slots: 4)")
    parser.add_argument("--words", type=int, default=None, help="words of each role's prefix")
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_quick_option(parser)
    arguments = parser.parse_args()
    arguments.pack = arguments.pack or ("smollm2-135m" if arguments.quick else "qwen2.5-coder-1.5b")
    arguments.calls = arguments.calls or (8 if arguments.quick else 36)
    arguments.words = arguments.words or (300 if arguments.quick else 1200)
    if arguments.quick:
        arguments.roles = min(arguments.roles, 6)
    if arguments.one is not None:
        sizes = (arguments.pack, arguments.one, arguments.calls, arguments.roles, arguments.words)
        print(json.dumps(one_setting(*sizes)))
        return
    uncapped = in_own_process(arguments, MOST_RAM_CACHE_MIB)
    capped = in_own_process(arguments, arguments.cap)
    ratio = capped["seconds"] / uncapped["seconds"] if uncapped["seconds"] else None
    within = capped["gained_mib"] <= arguments.cap + SLACK_MIB
    report = {
        "pack": arguments.pack,
        "calls": arguments.calls,
        "roles": arguments.roles,
        "uncapped": uncapped,
        "capped": capped,
        **headline(
            {"capped_gained_mib": capped["gained_mib"], "seconds_ratio": ratio},
            {
                "capped_gained_mib": f"at most the cap ({arguments.cap}) + {SLACK_MIB} MiB",
                "seconds_ratio": "capped seconds / uncapped seconds <= 1.1",
            },
            None if arguments.quick or ratio is None else within and ratio <= 1.1,
            quick=arguments.quick,
        ),
    }
    print(json.dumps(report, indent=None if arguments.json else 1))


if __name__ == "__main__":
    main()
