"""Templates for the desktop's own applications: text editor, calculator, clocks, file manager."""

from __future__ import annotations

import random
from typing import ClassVar, Literal

from pydantic import JsonValue

from pcagent.agents.program import ProgramStep
from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate.flow import FlowValue, ValueKind
from pcagent.bench.generate.programs import GIVEN, FragmentProgram, given
from pcagent.bench.generate.template_base import (
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
    node,
    subtask,
)
from pcagent.bench.generate.vocabulary import (
    CITIES,
    FOLDER_NAMES,
    LOOSE_FILES,
    NOTE_TOPICS,
    NUMBERS,
    RESERVED_NUMBERS,
    SHEET_LABELS,
    TEXT_FILE_STEMS,
    TIMES,
    NamePool,
)
from pcagent.bench.generate.wording import TELL, Phrasing, clock_text, refer_to
from pcagent.bench.tasks import FileFixture, SubGoal

# --- text editor: read a value from a note ---------------------------------------------------------


class NoteReading(TemplateAttributes):
    path: str
    title: str
    number_label: str
    number: int
    time_label: str
    hour: int
    minute: int
    city_label: str
    city: str
    asked: Literal["number", "time", "city"]
    description: str

    @property
    def value_text(self) -> str:
        if self.asked == "number":
            return str(self.number)
        if self.asked == "time":
            return clock_text(self.hour, self.minute)
        return self.city

    @property
    def file_name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


class EditorReadValue(SubtaskTemplate[NoteReading]):
    """Open a note in the text editor and find one of its values (a number, a time, a city)."""

    name = "editor_read_value"
    app = "text_editor"
    summary = "open a note in the text editor and find a value in it"
    attributes = NoteReading
    produces: ClassVar[frozenset[ValueKind]] = frozenset({"number", "time", "city"})
    reportable = True
    #: {file}: the note's name; {what}: how the value is named ("the time the van departs");
    #: {tell}: TELL when the task ends by telling it.
    phrasings = (
        Phrasing(
            "request",
            "Open {file} in the Documents folder with the text editor and find {what}{tell}.",
        ),
        Phrasing(
            "question",
            "Could you look through {file} in the Documents folder with the text editor and "
            "find {what}{tell}?",
        ),
        Phrasing(
            "need",
            "I need {what} from {file} in my Documents folder: please look it up in the text "
            "editor{tell}.",
        ),
        Phrasing("note", "Text editor, Documents/{file}: find {what}{tell}."),
        Phrasing(
            "request",
            "From the Documents folder, open {file} in the text editor and read off {what}{tell}.",
        ),
    )

    def draw(
        self, rng: random.Random, names: NamePool, given: FlowValue | None, wanted: ValueKind | None
    ) -> NoteReading:
        topic_stem = names.pick(tuple(t.file_stem for t in NOTE_TOPICS), "note")
        topic = next(t for t in NOTE_TOPICS if t.file_stem == topic_stem)
        asked = (
            wanted
            if wanted in ("number", "time", "city")
            else rng.choice(("number", "time", "city"))
        )
        hour, minute = rng.choice(TIMES)
        field = {"number": topic.number, "time": topic.time, "city": topic.city}[asked]
        return NoteReading(
            path=f"Documents/{topic.file_stem}.txt",
            title=topic.title,
            number_label=topic.number.label,
            number=rng.choice(NUMBERS),
            time_label=topic.time.label,
            hour=hour,
            minute=minute,
            city_label=topic.city.label,
            city=rng.choice(CITIES),
            asked=asked,
            description=field.description,
        )

    def build(self, attributes: NoteReading, slot: Slot) -> Fragment:
        a = attributes
        text = (
            f"{a.title}\n\n{a.number_label}: {a.number}\n"
            f"{a.time_label}: {clock_text(a.hour, a.minute)}\n{a.city_label}: {a.city}\n"
        )
        nodes = [
            node(
                slot,
                "opened",
                "window_title_contains",
                {"text": a.file_name},
                final=False,
                description=f"{a.file_name} is open in the editor",
            ),
        ]
        reference = gui.editor_open_file(a.path)
        reference_api = [gui.act("editor_open", path=a.path)]
        # The value is named by its kind ("time"), as the Manager's own example names it.
        steps = [
            programs.call("s1", "read_text_file", path=a.path),
            programs.call(
                "s2",
                "extract_values",
                text=programs.reference("s1"),
                names=[a.asked],
                what=a.description,
            ),
        ]
        if slot.report:
            nodes.append(
                node(
                    slot,
                    "reported",
                    "answer_is",
                    {"value": a.value_text},
                    after=[slot.node_id("opened")],
                    description=f"the agent reported {a.value_text}",
                )
            )
            reference.append(gui.act("answer", text=a.value_text))
            reference_api.append(gui.act("answer", text=a.value_text))
            steps.append(programs.report("s3", self.app, "s2", a.asked, a.description))
        return Fragment(
            instruction=self.instruction(
                a, file=a.file_name, what=a.description, tell=TELL if slot.report else ""
            ),
            phrasing=a.phrasing,
            subtask=subtask(
                slot, self.app, f"Open {a.path} and find {a.description} ({a.value_text})"
            ),
            nodes=nodes,
            reference=reference,
            reference_api=reference_api,
            program=FragmentProgram(tuple(steps), output=programs.reference("s2", a.asked)),
            files=[FileFixture(path=a.path, text=text)],
            output=FlowValue(kind=a.asked, text=a.value_text, description=a.description),
        )


# --- text editor: write a value into a new file --------------------------------------------------


class NoteWriting(TemplateAttributes):
    path: str
    line: str
    kind: Literal["number", "time", "city"]
    value_text: str
    #: How the instruction names the value when it comes from the sub-task before ("" when the
    #: instruction gives the line itself).
    reference_to_previous: str = ""


class EditorWriteValue(SubtaskTemplate[NoteWriting]):
    """Write a value into a new text file in the text editor and save it under a name."""

    name = "editor_write_value"
    app = "text_editor"
    summary = "write a value into a new text file and save it"
    attributes = NoteWriting
    consumes: ClassVar[frozenset[ValueKind]] = frozenset({"number", "time", "city"})
    produces: ClassVar[frozenset[ValueKind]] = frozenset({"file"})
    #: {what}: the line to write (`the line "Crates packed: 45"`) or the carried value ("that
    #: number"); {name}: the file's name.
    phrasings = (
        Phrasing(
            "request",
            "Write {what} into a new text file with the text editor and save it as {name} in "
            "the Documents folder.",
        ),
        Phrasing(
            "question",
            "Could you put {what} in a new file in the text editor and save it to the "
            "Documents folder as {name}?",
        ),
        Phrasing(
            "need",
            "I need {what} kept in a text file called {name} in my Documents folder: please "
            "write it with the text editor.",
        ),
        Phrasing("note", "Text editor: new file with {what}, saved as Documents/{name}."),
        Phrasing(
            "request",
            "Using the text editor, start a new file with {what} and save it as {name} in the "
            "Documents folder.",
        ),
    )

    def draw(
        self, rng: random.Random, names: NamePool, given: FlowValue | None, wanted: ValueKind | None
    ) -> NoteWriting:
        path = f"Documents/{names.pick(TEXT_FILE_STEMS, 'text file name')}.txt"
        if given is not None and given.kind in self.consumes:
            label = given.description[:1].upper() + given.description[1:]
            return NoteWriting(
                path=path,
                line=f"{label}: {given.text}",
                kind=given.kind,  # type: ignore[arg-type]
                value_text=given.text,
                reference_to_previous=refer_to(given),
            )
        number = rng.choice(NUMBERS)
        return NoteWriting(
            path=path,
            line=f"{rng.choice(SHEET_LABELS)}: {number}",
            kind="number",
            value_text=str(number),
        )

    def build(self, attributes: NoteWriting, slot: Slot) -> Fragment:
        a = attributes
        name = a.path.rsplit("/", 1)[-1]
        what = a.reference_to_previous or f'the line "{a.line}"'
        if a.kind == "number":
            value_node = node(
                slot,
                "value",
                "text_file_has_number",
                {"path": a.path, "value": a.value_text},
                after=[slot.node_id("saved")],
            )
        else:
            value_node = node(
                slot,
                "value",
                "text_file_contains",
                {"path": a.path, "texts": [a.value_text]},
                after=[slot.node_id("saved")],
            )
        return Fragment(
            instruction=self.instruction(a, what=what, name=name),
            phrasing=a.phrasing,
            subtask=subtask(slot, self.app, f"Write {a.value_text} into {a.path}"),
            nodes=[
                node(
                    slot, "saved", "file_exists", {"path": a.path}, description=f"{a.path} is saved"
                ),
                value_node,
            ],
            reference=[
                gui.act("open_app", app="text_editor"),
                gui.act("type", text=a.line + "\n"),
                *gui.editor_save_new_file(a.path),
            ],
            reference_api=[
                gui.act("open_app", app="text_editor"),
                gui.act("type", text=a.line + "\n"),
                gui.act("editor_save_as", path=a.path),
            ],
            program=FragmentProgram(
                (
                    programs.call(
                        "s1",
                        "write_text_file",
                        path=a.path,
                        text=given() if a.reference_to_previous else a.line,
                    ),
                ),
                output=programs.reference("s1"),
            ),
            output=FlowValue(kind="file", text=a.path, description=name),
        )


# --- calculator --------------------------------------------------------------------------------


_SYMBOLS = {"plus": "+", "minus": "-", "times": "*"}


class Calculation(TemplateAttributes):
    left: int
    operation: Literal["plus", "minus", "times"]
    right: int
    reference_to_previous: str = ""

    @property
    def result(self) -> int:
        if self.operation == "plus":
            return self.left + self.right
        if self.operation == "minus":
            return self.left - self.right
        return self.left * self.right

    @property
    def keys(self) -> str:
        return f"{self.left}{_SYMBOLS[self.operation]}{self.right}"


class CalculatorCompute(SubtaskTemplate[Calculation]):
    """Compute an expression in the calculator, on a number of its own or the one before."""

    name = "calculator_compute"
    app = "calculator"
    summary = "compute an expression in the calculator"
    attributes = Calculation
    consumes: ClassVar[frozenset[ValueKind]] = frozenset({"number"})
    produces: ClassVar[frozenset[ValueKind]] = frozenset({"number"})
    #: {calculation}: what to do ("multiply 45 by 3", "add 2300 to that number"); {expression}:
    #: the same as a phrase ("45 times 3", "that number plus 2300").
    phrasings = (
        Phrasing("request", "Use the calculator to {calculation}."),
        Phrasing("question", "Can you work out {expression} with the calculator?"),
        Phrasing("need", "I need to know what {expression} comes to: please use the calculator."),
        Phrasing("note", "Calculator: {expression}."),
        Phrasing("request", "With the calculator, {calculation}."),
    )

    def draw(
        self, rng: random.Random, names: NamePool, given: FlowValue | None, wanted: ValueKind | None
    ) -> Calculation:
        from_previous = given is not None and given.kind == "number"
        left = int(given.text) if from_previous and given is not None else rng.choice(NUMBERS)
        while True:
            if left >= 1000:  # a population: keep the result a plain whole number
                operation = rng.choice(("plus", "minus"))
                right = rng.randrange(1000, 9000, 100)
            else:
                operation = rng.choice(("plus", "times", "times"))
                right = rng.randint(3, 9) if operation == "times" else rng.randint(12, 39)
            calculation = Calculation(
                left=left,
                operation=operation,
                right=right,
                reference_to_previous=refer_to(given) if from_previous and given else "",
            )
            if calculation.result not in RESERVED_NUMBERS:
                return calculation

    def build(self, attributes: Calculation, slot: Slot) -> Fragment:
        a = attributes
        left = a.reference_to_previous or str(a.left)
        calculation = {
            # "add 45 and 12", but "add 12 to that number"
            "plus": f"add {a.right} to {left}"
            if a.reference_to_previous
            else f"add {left} and {a.right}",
            "minus": f"subtract {a.right} from {left}",
            "times": f"multiply {left} by {a.right}",
        }[a.operation]
        return Fragment(
            instruction=self.instruction(
                a, calculation=calculation, expression=f"{left} {a.operation} {a.right}"
            ),
            phrasing=a.phrasing,
            subtask=subtask(
                slot, self.app, f"Compute {a.left} {_SYMBOLS[a.operation]} {a.right} = {a.result}"
            ),
            nodes=[
                node(
                    slot,
                    "computed",
                    "calculator_shows",
                    {"value": str(a.result)},
                    final=False,
                    description=f"the calculator shows {a.result}",
                ),
            ],
            reference=[
                gui.act("open_app", app="calculator"),
                gui.act("type", text=a.keys + "="),
                gui.act("wait", seconds=1),
            ],
            reference_api=[
                gui.act(
                    "calculator_evaluate", expression=f"{a.left} {_SYMBOLS[a.operation]} {a.right}"
                ),
            ],
            program=FragmentProgram((self._step(a),), output=programs.reference("s1")),
            output=FlowValue(kind="number", text=str(a.result), description="the result"),
        )

    @staticmethod
    def _step(a: Calculation) -> ProgramStep:
        """``calculate`` on the numbers; on a carried number a GUI step: ``calculate`` takes an
        expression of literal numbers only, and a reference replaces a whole argument."""
        if not a.reference_to_previous:
            return programs.call(
                "s1", "calculate", expression=f"{a.left} {_SYMBOLS[a.operation]} {a.right}"
            )
        task = {
            "plus": f"Add {a.right} to the number",
            "minus": f"Subtract {a.right} from the number",
            "times": f"Multiply the number by {a.right}",
        }[a.operation]
        return programs.gui(
            "s1", "calculator", f"{task} and read the result", uses=[GIVEN], outputs=["result"]
        )


# --- clocks ------------------------------------------------------------------------------------


class AlarmTime(TemplateAttributes):
    hour: int
    minute: int
    name: str
    reference_to_previous: str = ""


class ClockSetAlarm(SubtaskTemplate[AlarmTime]):
    """Set an alarm in gnome-clocks at a time of its own or the one before."""

    name = "clock_set_alarm"
    app = "clock"
    summary = "set an alarm at a time in the Clocks app"
    attributes = AlarmTime
    consumes: ClassVar[frozenset[ValueKind]] = frozenset({"time"})
    needs_company = True
    #: {time}: "06:35" or the carried "that time".
    phrasings = (
        Phrasing("request", "Set an alarm at {time} in the Clocks app."),
        Phrasing("question", "Could you add an alarm for {time} in the Clocks app?"),
        Phrasing("need", "I need the Clocks app to ring at {time}, so please set an alarm."),
        Phrasing("note", "Clocks app: alarm at {time}."),
        Phrasing("request", "In the Clocks app, create an alarm for {time}."),
    )

    def draw(
        self, rng: random.Random, names: NamePool, given: FlowValue | None, wanted: ValueKind | None
    ) -> AlarmTime:
        if given is not None and given.kind == "time":
            hour, minute = (int(part) for part in given.text.split(":"))
            return AlarmTime(
                hour=hour,
                minute=minute,
                name=given.description[:1].upper() + given.description[1:],
                reference_to_previous=refer_to(given),
            )
        hour, minute = rng.choice(TIMES)
        return AlarmTime(hour=hour, minute=minute, name="Reminder")

    def build(self, attributes: AlarmTime, slot: Slot) -> Fragment:
        a = attributes
        at = a.reference_to_previous or clock_text(a.hour, a.minute)
        return Fragment(
            instruction=self.instruction(a, time=at),
            phrasing=a.phrasing,
            subtask=subtask(slot, self.app, f"Set an alarm at {clock_text(a.hour, a.minute)}"),
            nodes=[
                node(
                    slot,
                    "alarm",
                    "clock_alarm",
                    {"hour": a.hour, "minute": a.minute},
                    description=f"an alarm at {clock_text(a.hour, a.minute)}",
                ),
            ],
            reference=gui.clock_add_alarm(a.hour, a.minute),
            reference_api=[
                gui.act("clock_add_alarm", time=clock_text(a.hour, a.minute), name=a.name)
            ],
            # No name: the instruction gives none, and a program copied from memory should not
            # invent one.
            program=FragmentProgram(
                (
                    programs.call(
                        "s1",
                        "set_alarm",
                        time=given() if a.reference_to_previous else clock_text(a.hour, a.minute),
                    ),
                )
            ),
        )


class WorldClockCity(TemplateAttributes):
    city: str
    reference_to_previous: str = ""


class ClockAddWorldClock(SubtaskTemplate[WorldClockCity]):
    """Add a city to gnome-clocks' world clocks."""

    name = "clock_add_world_clock"
    app = "clock"
    summary = "add a world clock for a city"
    attributes = WorldClockCity
    consumes: ClassVar[frozenset[ValueKind]] = frozenset({"city"})
    needs_company = True
    #: {city}: "Oslo" or the carried "that city".
    phrasings = (
        Phrasing("request", "Add {city} to the world clocks in the Clocks app."),
        Phrasing("question", "Could you add a world clock for {city} in the Clocks app?"),
        Phrasing(
            "need",
            "I want to keep an eye on the time in {city}: please add it to the world clocks in "
            "the Clocks app.",
        ),
        Phrasing("note", "Clocks app: world clock for {city}."),
        Phrasing("request", "In the Clocks app, put {city} among the world clocks."),
    )

    def draw(
        self, rng: random.Random, names: NamePool, given: FlowValue | None, wanted: ValueKind | None
    ) -> WorldClockCity:
        if given is not None and given.kind == "city":
            return WorldClockCity(city=given.text, reference_to_previous=refer_to(given))
        return WorldClockCity(city=rng.choice(CITIES))

    def build(self, attributes: WorldClockCity, slot: Slot) -> Fragment:
        a = attributes
        return Fragment(
            instruction=self.instruction(a, city=a.reference_to_previous or a.city),
            phrasing=a.phrasing,
            subtask=subtask(slot, self.app, f"Add {a.city} to the world clocks"),
            nodes=[node(slot, "world_clock", "world_clock", {"city": a.city})],
            reference=gui.clock_add_world_clock(a.city),
            reference_api=[gui.act("clock_add_world_clock", city=a.city)],
            program=FragmentProgram(
                (
                    programs.call(
                        "s1",
                        "add_world_clock",
                        city=given() if a.reference_to_previous else a.city,
                    ),
                )
            ),
        )


# --- file manager ------------------------------------------------------------------------------


class FolderTidying(TemplateAttributes):
    folder: str
    #: Files to move, paths relative to HOME, all in Documents.
    files: list[str]
    #: Text of the files the template writes itself (empty when they come from earlier).
    own_texts: tuple[str, ...] = ()


class FileManagerMoveIntoFolder(SubtaskTemplate[FolderTidying]):
    """Create a folder in Documents with the file manager and move files into it."""

    name = "file_manager_move_into_folder"
    app = "file_manager"
    summary = "create a folder in the file manager and move files into it"
    attributes = FolderTidying
    consumes: ClassVar[frozenset[ValueKind]] = frozenset({"file"})
    produces: ClassVar[frozenset[ValueKind]] = frozenset({"file"})
    #: {folder}: the new folder's name; {files}: the files' names ("a.txt and b.txt").
    phrasings = (
        Phrasing(
            "request",
            "In the file manager, create a folder {folder} in the Documents folder and move "
            "{files} into it.",
        ),
        Phrasing(
            "question",
            "Could you make a new folder {folder} in the Documents folder with the file manager "
            "and move {files} into it?",
        ),
        Phrasing(
            "need",
            "I need {files} tidied away into a new folder {folder} in my Documents folder: "
            "please do it in the file manager.",
        ),
        Phrasing(
            "note", "File manager: new folder {folder} in Documents, then move {files} into it."
        ),
        Phrasing(
            "request",
            "Using the file manager, move {files} into a new folder called {folder} inside the "
            "Documents folder.",
        ),
    )

    def draw(
        self, rng: random.Random, names: NamePool, given: FlowValue | None, wanted: ValueKind | None
    ) -> FolderTidying:
        folder = names.pick(FOLDER_NAMES, "folder name")
        if given is not None and given.kind == "file":
            return FolderTidying(folder=folder, files=[given.text])
        chosen = [
            names.pick(tuple(name for name, _ in LOOSE_FILES), "loose file") for _ in range(2)
        ]
        texts = dict(LOOSE_FILES)
        return FolderTidying(
            folder=folder,
            files=[f"Documents/{name}" for name in chosen],
            own_texts=tuple(texts[name] for name in chosen),
        )

    def build(self, attributes: FolderTidying, slot: Slot) -> Fragment:
        a = attributes
        names = [path.rsplit("/", 1)[-1] for path in a.files]
        target = f"Documents/{a.folder}"
        nodes: list[SubGoal] = []
        reference = [
            gui.act("open_app", app="file_manager"),
            gui.act("hotkey", keys=["ctrl", "l"]),
            gui.act("type", text="~/Documents"),
            gui.act("press", key="enter"),
            gui.act("hotkey", keys=["ctrl", "shift", "n"]),
            gui.wait_for("New Folder"),
            gui.act("hotkey", keys=["ctrl", "a"]),
            gui.act("type", text=a.folder),
            gui.act("press", key="enter"),
            gui.act("wait", seconds=1),
        ]
        reference_api = [gui.act("files_make_folder", path=target)]
        for number, (path, name) in enumerate(zip(a.files, names, strict=True), start=1):
            moved = slot.node_id(f"moved{number}")
            nodes.append(
                node(
                    slot,
                    f"moved{number}",
                    "file_exists",
                    {"path": f"{target}/{name}"},
                    description=f"{name} is in {target}",
                )
            )
            nodes.append(
                node(
                    slot,
                    f"gone{number}",
                    "file_missing",
                    {"path": path},
                    after=[moved],
                    description=f"{name} is no longer loose in Documents",
                )
            )
            reference += [
                gui.click(name, "table cell"),
                gui.act("hotkey", keys=["ctrl", "x"]),
                gui.act("hotkey", keys=["ctrl", "l"]),
                gui.act("type", text=f"~/{target}"),
                gui.act("press", key="enter"),
                gui.click("Edit", "menu"),
                gui.click("Paste", "menu item"),
                gui.act("wait", seconds=1),
                gui.act("hotkey", keys=["ctrl", "l"]),
                gui.act("type", text="~/Documents"),
                gui.act("press", key="enter"),
            ]
            reference_api.append(gui.act("files_move", source=path, target=target))
        listed = " and ".join(names)
        files: list[JsonValue] = [given()] if not a.own_texts else list(a.files)
        return Fragment(
            instruction=self.instruction(a, folder=a.folder, files=listed),
            phrasing=a.phrasing,
            subtask=subtask(slot, self.app, f"Create {target} and move {listed} into it"),
            nodes=nodes,
            reference=reference,
            reference_api=reference_api,
            # move_files gives every path now in the folder; the next sub-task takes the first
            # file, which the instruction names, so it goes on as a literal.
            program=FragmentProgram(
                (programs.call("s1", "move_files", files=files, into=target),),
                output=f"{target}/{names[0]}",
            ),
            files=[
                FileFixture(path=path, text=text)
                for path, text in zip(a.files, a.own_texts, strict=False)
            ],
            output=FlowValue(kind="file", text=f"{target}/{names[0]}", description=names[0]),
            moves=tuple(a.files),
        )
