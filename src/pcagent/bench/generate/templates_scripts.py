"""A template for the text editor as a code editor: a short Python script in Documents that stops
with an error, fixed and saved.

Why: mending a text (code, a name written wrong) is a language step of its own
(``revise_text``), and no training program changed a file's text: asked to fix the error in a
mailed script, the 1.5B planner went to screen steps (pc18, 2026-12-02). The check runs the
saved script: any fix that makes it print what it should passes.
"""

from __future__ import annotations

from dataclasses import dataclass

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate import template_parts as parts
from pcagent.bench.generate.programs import FragmentProgram
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.wording import refer_to
from pcagent.bench.tasks import FileFixture, ReferenceStep


@dataclass(frozen=True)
class BrokenScript:
    """A script with one error, and how a person mends it in the editor: on line ``line``
    (from 0), ``left`` keys left from the line's end, ``erase`` backspaces, then ``typed``."""

    name: str
    text: str
    prints: str
    line: int
    left: int = 0
    erase: int = 0
    typed: str = ""


#: The scripts drawn: each stops with an error (a name misspelled, a bracket or colon left out).
SCRIPTS: tuple[BrokenScript, ...] = (
    BrokenScript(
        "readings.py",
        "def average(readings):\n    return sum(readings) / len(reading)\n\n\n"
        "print(average([12, 18, 30]))\n",
        "20.0",
        line=1,
        left=1,
        typed="s",
    ),
    BrokenScript(
        "receipt_total.py",
        "prices = [4, 11, 7]\ntotal = 0\nfor price in prices:\n    total += prices\nprint(total)\n",
        "22",
        line=3,
        erase=1,
    ),
    BrokenScript(
        "largest.py",
        "def largest(values):\n    best = values[0]\n    for value in values:\n"
        "        if value > best:\n            best = value\n    return bets\n\n\n"
        "print(largest([3, 19, 7]))\n",
        "19",
        line=5,
        erase=2,
        typed="st",
    ),
    BrokenScript(
        "word_count.py",
        # Six words: "4" is what a built-in task expects (no generated task may).
        'text = "plums pears apples figs and limes"\nwords = text.split()\nprint(len(word))\n',
        "6",
        line=2,
        left=2,
        typed="s",
    ),
    BrokenScript(
        "greeting.py",
        'def greet(name):\n    return "Hello, " + name\n\n\nprint(greet("Mira")\n',
        "Hello, Mira",
        line=4,
        typed=")",
    ),
    BrokenScript(
        "product.py",
        "numbers = [2, 3, 7]\nproduct = 1\nfor n in numbers\n    product *= n\nprint(product)\n",
        "42",
        line=2,
        typed=":",
    ),
)
#: What the program asks the language step for (the instruction's words are the person's). No
#: name in it: a capitalised "Python" shown in an example is a value copied where another
#: instruction never says it (``agents.example_values``).
REQUEST = "fix the error in the code"


class ScriptToFix(TemplateAttributes):
    name: str

    @property
    def path(self) -> str:
        return f"Documents/{self.name}"

    @property
    def script(self) -> BrokenScript:
        (script,) = [s for s in SCRIPTS if s.name == self.name]
        return script


def mended_keys(script: BrokenScript) -> list[ReferenceStep]:
    """The keys that mend the script in the editor where the cursor is at its start, then save."""
    keys = [gui.act("hotkey", keys=["ctrl", "home"])]
    if script.line:
        keys.append(gui.act("press", key="down", times=script.line))
    keys.append(gui.act("press", key="end"))
    if script.left:
        keys.append(gui.act("press", key="left", times=script.left))
    if script.erase:
        keys.append(gui.act("press", key="backspace", times=script.erase))
    if script.typed:
        keys.append(gui.act("type", text=script.typed))
    return [*keys, gui.act("hotkey", keys=["ctrl", "s"]), gui.act("wait", seconds=1)]


class EditorFixScript(SubtaskTemplate[ScriptToFix], spec="editor_fix_script"):
    """Fix the one error of a Python script in Documents in the text editor and save it."""

    def draw(self, source: Draw) -> ScriptToFix:
        if (given := source.given_as("script")) is not None:  # saved from a mail before
            return ScriptToFix(name=given.file_name, reference_to_previous=refer_to(given))
        return ScriptToFix(name=source.names.pick(tuple(s.name for s in SCRIPTS), "script"))

    def build(self, attributes: ScriptToFix, slot: Slot) -> Fragment:
        a, script = attributes, attributes.script
        opened = parts.opened_node(slot, a.name, f"{a.name} is open in the editor")
        fixed = parts.node(
            slot,
            "fixed",
            "python_prints",
            {"path": a.path, "expected": script.prints},
            after=[opened.id],
            description=f"{a.name} runs and prints {script.prints}",
        )
        return self.fragment(
            a,
            slot,
            f"Fix the error in {a.path} (it should print {script.prints}) and save it",
            words={"file": a.name},
            nodes=[opened, fixed],
            reference=[*gui.editor_open_file(a.path), *mended_keys(script)],
            reference_api=[gui.act("editor_open", path=a.path), *mended_keys(script)],
            program=FragmentProgram(
                (
                    programs.call(
                        "s1",
                        "read_text_file",
                        path=programs.given() if a.reference_to_previous else a.path,
                    ),
                    programs.call(
                        "s2", "revise_text", text=programs.reference("s1"), request=REQUEST
                    ),
                    programs.call(
                        "s3", "write_text_file", path=a.path, text=programs.reference("s2")
                    ),
                ),
                output=programs.reference("s3"),
            ),
            files=[] if a.reference_to_previous else [FileFixture(path=a.path, text=script.text)],
            output=parts.file_output(a.path),
        )
