"""Perception on real screens: prompt tokens, recall of interactive elements, and latency.

Starts one sandbox and shows six real screens in turn (text editor, calculator, writer with a
.docx, spreadsheet with values, file manager on a folder of files, browser on a local page served
from 127.0.0.1). On each screen it measures

- tokens: the compact mark listing against the common verbose listing of every filtered
  accessibility node, counted by a real tokenizer (the local smollm2-135m model behind a llama.cpp
  server, through its ``/tokenize`` endpoint);
- recall: the share of a hand-checked list of visible, labelled interactive controls
  (``perception_reference.json``) that some mark matches;
- latency: ``interactive_marks`` plus ``draw_set_of_mark`` (median of ``--repeat`` runs; the
  observation itself is not included), ``observe()`` once, and Tesseract OCR on the focused window.

    python benchmarks/perception.py --json [--repeat 7] [--ocr-repeat 2]
    python benchmarks/perception.py --json --quick     # the calculator alone, once
    python benchmarks/perception.py --save out/perception      # screenshots, SoM images, listings
    python benchmarks/perception.py --record tests/perception/data  # observations as fixtures

Recall matching rule: a reference entry (role, label) is matched by a mark with the same role and
the same label after normalisation: case-folded, whitespace runs collapsed, a trailing "..." or
"…" removed, and GTK mnemonic underscores removed. Roles must be equal, except that the roles
grouped in ``ROLE_EQUIVALENTS`` count as one (they look and act the same to a person). Entries
with a ``pattern`` instead of a ``label`` (a path holding the sandbox's random folder name) match
the normalised label as a regular expression. Each mark matches one entry at most, so three
"Close" buttons in the reference need three "Close" marks.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from docx import Document

from headline import add_quick_option, headline
from pcagent import actions as act
from pcagent.config import load_config
from pcagent.env import SandboxDesktop
from pcagent.env.ownership import give_to_owner
from pcagent.models.local_server import LocalModelServer
from pcagent.models.packs import find_local_model
from pcagent.perception import (
    Mark,
    TesseractOcr,
    baseline_listing,
    compact_listing,
    draw_set_of_mark,
    interactive_marks,
)
from pcagent.perception.recorded import save_recorded

HERE = Path(__file__).resolve().parent
DEFAULT_REFERENCE = HERE / "perception_reference.json"
TOKENIZER_PACK = "smollm2-135m"
TARGETS = {"token_ratio_max": 0.5, "recall_min": 0.95, "elements_som_ms_max": 60}
#: Roles a person cannot tell apart on screen; a reference entry of one matches a mark of another.
ROLE_EQUIVALENTS = ({"push button", "toggle button"},)

PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Trip planner</title></head>
<body>
<h1>Plan a weekend trip</h1>
<p>Pick a destination, check the budget and share the plan with your group.</p>
<ul>
  <li><a href="/itinerary.html">Itinerary</a></li>
  <li><a href="/budget.html">Budget</a></li>
  <li><a href="/contacts.html">Contacts</a></li>
</ul>
<form onsubmit="return false">
  <label for="destination">Destination</label>
  <input id="destination" name="destination" type="text">
  <button type="submit">Search</button>
</form>
</body>
</html>
"""

EDITOR_TEXT = "Shopping list for Saturday\nMilk, bread and eggs\nCall the plumber at 10:30\n"
SHEET_ROWS = (("Item", "Quantity"), ("Apples", "12"), ("Pears", "7"), ("Plums", "30"))
FOLDER_FILES = ("budget.txt", "notes.md", "photo-list.csv", "report.txt")


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


# --- the screens ---------------------------------------------------------------------------------


@dataclass
class Context:
    """What the screen set-ups share: a scratch folder outside HOME and the page's URL."""

    scratch: Path
    url: str


def _text_editor(desktop: SandboxDesktop, context: Context) -> None:
    desktop.open_app("text_editor")
    desktop.execute(act.TypeText(text=EDITOR_TEXT))


def _calculator(desktop: SandboxDesktop, context: Context) -> None:
    desktop.open_app("calculator")


def _writer(desktop: SandboxDesktop, context: Context) -> None:
    # In HOME, owned by its user: the applications run as that user, and LibreOffice leaves a
    # lock file next to the document it opens.
    folder = desktop.home / "Documents"
    folder.mkdir(exist_ok=True)
    path = folder / "trip-report.docx"
    document = Document()
    document.add_heading("Trip report", 0)
    for number in range(1, 6):
        document.add_paragraph(
            f"Paragraph {number}. The group reviewed the itinerary, the budget and the bookings."
        )
    document.save(str(path))
    give_to_owner(folder, desktop.home)
    desktop.open_app("writer", [path])
    # LibreOffice keeps redrawing for a while after loading a document.
    desktop.wait_settled(timeout=15, quiet=1.0)


def _spreadsheet(desktop: SandboxDesktop, context: Context) -> None:
    desktop.open_app("spreadsheet")
    desktop.wait_settled(timeout=15, quiet=1.0)
    for row in SHEET_ROWS:
        desktop.execute(act.TypeText(text="\t".join(row) + "\n"))


def _file_manager(desktop: SandboxDesktop, context: Context) -> None:
    folder = desktop.home / "Projects"
    folder.mkdir(exist_ok=True)
    for name in FOLDER_FILES:
        (folder / name).write_text(f"{name}\n", encoding="utf-8")
    give_to_owner(folder, desktop.home)
    desktop.open_app("file_manager", [folder])
    # The detailed list view: thunar's icon view exposes no file names.
    desktop.execute(act.Hotkey(keys=("ctrl", "2")))


def _browser(desktop: SandboxDesktop, context: Context) -> None:
    desktop.open_app("browser", [context.url])
    desktop.wait_settled(timeout=15, quiet=1.0)


SCREENS: dict[str, Callable[[SandboxDesktop, Context], None]] = {
    "text_editor": _text_editor,
    "calculator": _calculator,
    "writer": _writer,
    "spreadsheet": _spreadsheet,
    "file_manager": _file_manager,
    "browser": _browser,
}


# --- the local web page --------------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serve_page(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 on a free port in a thread; yields the page's URL."""
    (folder / "index.html").write_text(PAGE, encoding="utf-8")
    for name in ("itinerary", "budget", "contacts"):
        (folder / f"{name}.html").write_text(f"<h1>{name.title()}</h1>", encoding="utf-8")
    handler = partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# --- tokens --------------------------------------------------------------------------------------


class Tokenizer:
    """Counts tokens through a llama.cpp server's ``/tokenize`` endpoint."""

    def __init__(self, server: LocalModelServer) -> None:
        self.url = f"http://127.0.0.1:{server.port}/tokenize"

    def tokens(self, text: str) -> list[int]:
        request = urllib.request.Request(
            self.url,
            data=json.dumps({"content": text}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as reply:
            tokens = json.load(reply)["tokens"]
        if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
            raise RuntimeError(f"{self.url} answered no token list: {tokens!r:.200}")
        return tokens

    def count(self, text: str) -> int:
        return len(self.tokens(text))

    def verify(self) -> None:
        """Fail early, with a clear message, when the server has no working ``/tokenize``."""
        try:
            tokens = self.tokens("Hello world")
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"the model server has no usable {self.url}: {error}") from error
        if not 1 <= len(tokens) <= 5:
            raise RuntimeError(f"{self.url} gave {len(tokens)} tokens for 'Hello world'")


# --- recall --------------------------------------------------------------------------------------


def normalise(label: str) -> str:
    text = " ".join(label.replace("_", "").split()).casefold()
    for suffix in ("...", "…"):
        if text.endswith(suffix):
            text = text[: -len(suffix)].rstrip()
    return text


def same_role(a: str, b: str) -> bool:
    return a == b or any(a in group and b in group for group in ROLE_EQUIVALENTS)


def entry_name(entry: dict[str, str]) -> str:
    return f"{entry['role']}: {entry.get('label') or entry.get('pattern')}"


def matches(entry: dict[str, str], mark: Mark) -> bool:
    """Does ``mark`` show the reference ``entry``? ``pattern`` entries (for labels holding a
    per-run value, such as the sandbox's HOME path) match the normalised label as a regex."""
    if not same_role(entry["role"], mark.role):
        return False
    if "pattern" in entry:
        return re.fullmatch(entry["pattern"], normalise(mark.label)) is not None
    return normalise(entry["label"]) == normalise(mark.label)


def recall(reference: Sequence[dict[str, str]], marks: Sequence[Mark]) -> tuple[float, list[str]]:
    """Share of reference entries some mark matches, and the entries none does.

    Each mark matches one entry at most, so three "Close" buttons in the reference need three
    "Close" marks.
    """
    unused = list(marks)
    missing = []
    for entry in reference:
        found = next((mark for mark in unused if matches(entry, mark)), None)
        if found is None:
            missing.append(entry_name(entry))
        else:
            unused.remove(found)
    share = (len(reference) - len(missing)) / len(reference) if reference else 1.0
    return share, missing


# --- recording -----------------------------------------------------------------------------------


def park_pointer(desktop: SandboxDesktop) -> None:
    """Move the pointer to the screen's bottom-right corner, so that no tooltip covers controls
    (the pointer starts at the centre of the screen, over whatever the app shows there)."""
    width, height = desktop.screen_size
    subprocess.run(
        ["xdotool", "mousemove", str(width - 1), str(height - 1)],
        env=desktop.env,
        check=True,
        timeout=10,
    )
    desktop.wait_settled()


# --- measuring -----------------------------------------------------------------------------------


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


@dataclass
class Measured:
    """One screen's figures so far, and what the tokenizer and the recall check still need."""

    figures: dict[str, object]
    ours: str
    baseline: str
    marks: list[Mark]
    elements_som_ms: float


def measure_screen(
    name: str,
    desktop: SandboxDesktop,
    args: argparse.Namespace,
    ocr: TesseractOcr,
) -> Measured:
    """Timings and counts for the screen now shown, with its two listings and its marks."""
    # The first look at a new window cannot reuse an earlier answer.
    started = time.perf_counter()
    observation = desktop.observe()
    observe_ms = _ms(started)
    observe_reused = bool(observation.timings_ms.get("elements_reused"))

    totals, marks_times = [], []
    marks: list[Mark] = []
    image = None
    for _ in range(args.repeat):
        started = time.perf_counter()
        marks = interactive_marks(observation)
        numbered = time.perf_counter()
        image = draw_set_of_mark(observation.screenshot, marks)
        totals.append(_ms(started))
        marks_times.append((numbered - started) * 1000)

    region = observation.focused_window.box if observation.focused_window else None
    ocr_times, ocr_words = [], 0
    for _ in range(args.ocr_repeat):
        started = time.perf_counter()
        result = ocr.recognize(observation.screenshot, region)
        ocr_times.append(_ms(started))
        ocr_words = len(result.words)

    ours = compact_listing(marks)
    baseline = baseline_listing(observation.elements)
    if args.save is not None:
        folder = Path(args.save)
        folder.mkdir(parents=True, exist_ok=True)
        observation.screenshot.save(folder / f"{name}.png")
        assert image is not None
        image.save(folder / f"{name}.som.png")
        (folder / f"{name}.listing.txt").write_text(ours + "\n", encoding="utf-8")
        (folder / f"{name}.baseline.txt").write_text(baseline + "\n", encoding="utf-8")
    if args.record is not None:
        folder = Path(args.record)
        save_recorded(observation, folder, name)

    result = {
        "marks": len(marks),
        "baseline_nodes": len(observation.elements),
        "elements_som_ms_median": round(statistics.median(totals), 1),
        "marks_ms_median": round(statistics.median(marks_times), 1),
        "observe_ms": round(observe_ms, 1),
        "observe_reused": observe_reused,
        "ocr_ms": round(statistics.median(ocr_times), 1) if ocr_times else None,
        "ocr_words": ocr_words,
        "focused_window": observation.focused_window.title if observation.focused_window else None,
    }
    return Measured(result, ours, baseline, marks, statistics.median(totals))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print only the JSON result")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs of marks + Set-of-Mark")
    parser.add_argument("--ocr-repeat", type=int, default=2, help="timed OCR runs per screen")
    parser.add_argument("--save", metavar="DIR", help="write screenshots, SoM images, listings")
    parser.add_argument("--record", metavar="DIR", help="write each observation as JSON + PNG")
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument(
        "--screens", nargs="+", choices=list(SCREENS), default=list(SCREENS), help="a subset"
    )
    add_quick_option(parser)
    args = parser.parse_args()
    if args.quick:  # the calculator alone, once, with one OCR pass
        args.repeat, args.ocr_repeat, args.screens = 1, 1, ["calculator"]
    if args.repeat < 1 or args.ocr_repeat < 0:
        parser.error("--repeat must be at least 1 and --ocr-repeat at least 0")
    reference = json.loads(args.reference.read_text(encoding="utf-8"))["screens"]
    run_started = time.perf_counter()

    installed = find_local_model(load_config().models_dir, TOKENIZER_PACK)
    server = LocalModelServer(installed.path, threads=1)
    try:
        log(f"starting the tokenizer server ({installed.path.name})...")
        server.start()
        tokenizer = Tokenizer(server)
        tokenizer.verify()

        measured: dict[str, Measured] = {}
        ocr = TesseractOcr()
        with (
            tempfile.TemporaryDirectory(prefix="perception-") as scratch,
            serve_page(Path(scratch)) as url,
            SandboxDesktop() as desktop,
        ):
            context = Context(scratch=Path(scratch), url=url)
            for index, name in enumerate(args.screens):
                if index:
                    desktop.reset()
                log(f"[{name}] opening...")
                SCREENS[name](desktop, context)
                park_pointer(desktop)
                log(f"[{name}] measuring...")
                measured[name] = measure_screen(name, desktop, args, ocr)

        log("counting tokens...")
        ratios: list[float] = []
        recalls: list[float] = []
        for name, screen in measured.items():
            ours = tokenizer.count(screen.ours)
            baseline = tokenizer.count(screen.baseline)
            share, missing = recall(reference.get(name, []), screen.marks)
            if baseline:
                ratios.append(ours / baseline)
            recalls.append(share)
            screen.figures.update(
                tokens_ours=ours,
                tokens_baseline=baseline,
                token_ratio=round(ours / baseline, 3) if baseline else None,
                reference_entries=len(reference.get(name, [])),
                recall=round(share, 3),
                missing=missing,
            )
    finally:
        server.stop()

    latencies = [screen.elements_som_ms for screen in measured.values()]
    overall = {
        "token_ratio_median": round(statistics.median(ratios), 3),
        "recall_min": round(min(recalls), 3),
        "recall_mean": round(statistics.mean(recalls), 3),
        "elements_som_ms_median": round(statistics.median(latencies), 1),
        "elements_som_ms_max": round(max(latencies), 1),
    }
    meets = {
        "token_ratio": overall["token_ratio_median"] <= TARGETS["token_ratio_max"],
        "recall": overall["recall_min"] >= TARGETS["recall_min"],
        "elements_som_ms": overall["elements_som_ms_median"] <= TARGETS["elements_som_ms_max"],
    }
    meets["all"] = all(meets.values())
    output = {
        **headline(
            {
                "token_ratio_median": overall["token_ratio_median"],
                "recall_min": overall["recall_min"],
                "elements_som_ms_median": overall["elements_som_ms_median"],
            },
            {
                "token_ratio_median": f"at most {TARGETS['token_ratio_max']}: our listing "
                "takes at most half the tokens of the common one",
                "recall_min": f"at least {TARGETS['recall_min']} of the hand-checked controls "
                "on every screen",
                "elements_som_ms_median": f"at most {TARGETS['elements_som_ms_max']} ms for "
                "marks + Set-of-Mark",
            },
            meets["all"],
            quick=args.quick,
        ),
        "screens": {name: screen.figures for name, screen in measured.items()},
        "overall": overall,
        "targets": TARGETS,
        "meets_targets": meets,
        "tokenizer": {
            "model": TOKENIZER_PACK,
            "file": installed.path.name,
            "via": "llama.cpp server (xllamacpp) POST /tokenize on 127.0.0.1",
        },
        "recall_matching": (
            "same role (push and toggle buttons equivalent) and same label after case-folding, "
            "collapsing whitespace and removing '_' and a trailing ellipsis ('pattern' entries: "
            "regex on that label); each mark matches one reference entry at most"
        ),
        "repeat": args.repeat,
        "ocr_repeat": args.ocr_repeat,
        "run_s": round(time.perf_counter() - run_started, 1),
    }
    print(json.dumps(output, ensure_ascii=False) if args.json else json.dumps(output, indent=2))


if __name__ == "__main__":
    main()
