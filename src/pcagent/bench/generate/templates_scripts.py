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


# --- text editor: a new Python file with one function --------------------------------------------


@dataclass(frozen=True)
class FunctionToWrite:
    """A function asked for: its signature, what it does (words after the signature), the file
    it goes in, a right body, and calls it must answer (each: the arguments, then the result)."""

    signature: str
    does: str
    file: str
    body: str
    cases: tuple[tuple[object, ...], ...]

    @property
    def name(self) -> str:
        return self.signature.split("(", 1)[0]


#: The functions drawn: each small, its result checked on calls (none is a built-in task's, and
#: no value of the calls is a value a built-in task's checks expect). Each body is one line, so
#: the reference types it the same whether the editor indents new lines or not.
FUNCTIONS: tuple[FunctionToWrite, ...] = (
    FunctionToWrite(
        "is_palindrome(text)",
        "that returns True when text reads the same backwards, else False",
        "palindromes.py",
        "    return text == text[::-1]\n",
        (("level", True), ("plums", False)),
    ),
    FunctionToWrite(
        "count_vowels(text)",
        "that returns how many of the letters of text are the vowels a, e, i, o or u",
        "vowels.py",
        '    return sum(1 for letter in text if letter in "aeiou")\n',
        (("education and evaluation", 12), ("rhythm", 0)),
    ),
    FunctionToWrite(
        "celsius_to_fahrenheit(celsius)",
        "that converts a temperature in degrees Celsius to degrees Fahrenheit",
        "temperatures.py",
        "    return celsius * 9 / 5 + 32\n",
        ((100, 212), (0, 32)),
    ),
    FunctionToWrite(
        "factorial(n)",
        "that returns the product of the whole numbers from 1 to n",
        "factorials.py",
        "    return 1 if n < 2 else n * factorial(n - 1)\n",
        ((6, 720), (12, 479001600)),
    ),
    FunctionToWrite(
        "even_numbers(numbers)",
        "that returns the even numbers of the list numbers, in their order",
        "evens.py",
        "    return [number for number in numbers if number % 2 == 0]\n",
        (([11, 12, 15, 16], [12, 16]), ([21, 23], [])),
    ),
    FunctionToWrite(
        "word_count(text)",
        "that returns how many words, separated by spaces, text has",
        "words.py",
        "    return len(text.split())\n",
        (
            ("red green blue grey white orange", 6),
            ("just one sentence of eleven words written here for the test", 11),
        ),
    ),
)


class NewFunction(TemplateAttributes):
    name: str

    @property
    def function(self) -> FunctionToWrite:
        (function,) = [f for f in FUNCTIONS if f.name == self.name]
        return function

    @property
    def path(self) -> str:
        return f"Documents/{self.function.file}"


class EditorNewFunction(SubtaskTemplate[NewFunction], spec="editor_new_function"):
    """Write one small Python function into a new file in Documents with the text editor."""

    def draw(self, source: Draw) -> NewFunction:
        return NewFunction(name=source.names.pick(tuple(f.name for f in FUNCTIONS), "function"))

    def build(self, attributes: NewFunction, slot: Slot) -> Fragment:
        a, function = attributes, attributes.function
        code = f"def {function.signature}:\n{function.body}"
        saved = parts.saved_node(slot, a.path)
        works = parts.node(
            slot,
            "works",
            "python_function_returns",
            {"path": a.path, "function": function.name, "cases": [list(c) for c in function.cases]},
            after=[saved.id],
            description=f"{function.name}() in {a.path} is right on {len(function.cases)} calls",
        )
        request = f"a Python function {function.signature} {function.does}"
        return self.fragment(
            a,
            slot,
            f"Write {function.signature} into {a.path}",
            words={"signature": function.signature, "does": function.does, "file": function.file},
            nodes=[saved, works],
            reference=parts.new_document("text_editor", code, gui.editor_save_new_file(a.path)),
            reference_api=[
                gui.act("open_app", app="text_editor"),
                gui.act("type", text=code),
                gui.act("editor_save_as", path=a.path),
            ],
            program=FragmentProgram(
                (
                    programs.call("s1", "write_code", request=request),
                    programs.call(
                        "s2", "write_text_file", path=a.path, text=programs.reference("s1")
                    ),
                ),
                output=programs.reference("s2"),
            ),
            output=parts.file_output(a.path),
        )
