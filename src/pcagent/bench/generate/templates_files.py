"""Templates for the file manager: create a folder and move loose files into it; open a file
from it.

One module per application family, so a new template for the file manager lands here.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import JsonValue

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate.flow import FlowValue
from pcagent.bench.generate.programs import FragmentProgram, given
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.template_parts import (
    file_output,
    folder_words,
    node,
    one_call,
    opened_node,
)
from pcagent.bench.generate.vocabulary import ARTICLES, FOLDER_NAMES, LOOSE_FILES
from pcagent.bench.tasks import DocumentSpec, FileFixture, SubGoal

# --- file manager ------------------------------------------------------------------------------


class FolderTidying(TemplateAttributes):
    folder: str
    #: Files to move, paths relative to HOME, all in Documents.
    files: list[str]
    #: Text of the files the template writes itself (empty when they come from earlier).
    own_texts: tuple[str, ...] = ()


class FileManagerMoveIntoFolder(
    SubtaskTemplate[FolderTidying], spec="file_manager_move_into_folder"
):
    """Create a folder in Documents with the file manager and move files into it."""

    def draw(self, source: Draw) -> FolderTidying:
        folder = source.names.pick(FOLDER_NAMES, "folder name")
        if (given := source.given_as("file")) is not None:
            return FolderTidying(folder=folder, files=[given.text])
        chosen = [
            source.names.pick(tuple(name for name, _ in LOOSE_FILES), "loose file")
            for _ in range(2)
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
        return self.fragment(
            a,
            slot,
            f"Create {target} and move {listed} into it",
            words={"folder": a.folder, "files": listed},
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
            output=file_output(f"{target}/{names[0]}"),
            moves=tuple(a.files),
        )


class FileToOpen(TemplateAttributes):
    #: The file, a path relative to HOME.
    path: str
    #: The document the template writes itself (None when the file comes from earlier).
    article: int | None = None

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


class FileManagerOpenFile(SubtaskTemplate[FileToOpen], spec="file_manager_open_file"):
    """Open a file from the file manager: it comes up in the application for its kind. An
    instruction asks for this as the way to a file ("open it from Thunar"), and a planner that
    had seen the file manager only move files moved them for it."""

    #: It takes the file the sub-task before made by the name its instruction writes.
    takes_file_by_name: ClassVar[bool] = True

    def draw(self, source: Draw) -> FileToOpen:
        if (given := source.given_as("file")) is not None:
            return FileToOpen(path=given.text)
        return _article(source)

    def build(self, attributes: FileToOpen, slot: Slot) -> Fragment:
        a = attributes
        stem = a.name.rsplit(".", 1)[0]
        files: list[FileFixture] = []
        if a.article is not None:
            article = ARTICLES[a.article]
            spec = DocumentSpec(title=article.title, paragraphs=list(article.paragraphs))
            files.append(FileFixture(path=a.path, docx=spec))
        return self.fragment(
            a,
            slot,
            f"Open {a.path} from the file manager",
            words={"name": a.name, "folder": folder_words(a.path)},
            nodes=[opened_node(slot, stem, f"{a.name} is open", final=True)],
            reference=[
                gui.act("open_app", app="file_manager"),
                gui.act("hotkey", keys=["ctrl", "l"]),
                gui.act("type", text=gui.home_path(a.path.rsplit("/", 1)[0])),
                gui.act("press", key="enter"),
                gui.click(a.name, "table cell"),
                gui.act("press", key="enter"),
                gui.wait_for(a.name),
            ],
            reference_api=[gui.act("files_open", path=a.path)],
            # The path as the instruction names it, also for a file the sub-task before made
            # (shown a reference there, {"from": "s2"}, the 1.5B planner wrote one to a later
            # step for the file it was asked to open: a rewording of pc12, 2026-11-28); and
            # open_file gives the file's text, so the next sub-task takes the path as a literal.
            program=FragmentProgram(one_call("open_file", path=a.path).steps, output=a.path),
            files=files,
            output=self.handed_on(a.path),
        )

    def handed_on(self, path: str) -> FlowValue:
        """What the next sub-task takes: the file opened."""
        return file_output(path)


def _article(source: Draw) -> FileToOpen:
    """One of the vocabulary's articles, as a document in Documents the template writes."""
    stem = source.names.pick(tuple(a.file_stem for a in ARTICLES), "article")
    number = next(i for i, a in enumerate(ARTICLES) if a.file_stem == stem)
    return FileToOpen(path=f"Documents/{stem}.docx", article=number)


class FileManagerOpenDocument(FileManagerOpenFile, spec="file_manager_open_document"):
    """Open one of the articles from the file manager, for the word processor's sub-task after
    it to change (the way an instruction asks for a document to be edited: "open it from
    Thunar, then ... in Writer")."""

    def draw(self, source: Draw) -> FileToOpen:
        return _article(source)

    def handed_on(self, path: str) -> FlowValue:
        return FlowValue(kind="document", text=path, description=path.rsplit("/", 1)[-1])
