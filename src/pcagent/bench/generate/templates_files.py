"""Templates for the file manager: create a folder and move loose files into it.

One module per application family, so a new template for the file manager lands here.
"""

from __future__ import annotations

from pydantic import JsonValue

from pcagent.bench.generate import gui_steps as gui
from pcagent.bench.generate import programs
from pcagent.bench.generate.programs import FragmentProgram, given
from pcagent.bench.generate.template_base import (
    Draw,
    Fragment,
    Slot,
    SubtaskTemplate,
    TemplateAttributes,
)
from pcagent.bench.generate.template_parts import file_output, node
from pcagent.bench.generate.vocabulary import FOLDER_NAMES, LOOSE_FILES
from pcagent.bench.tasks import FileFixture, SubGoal

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
        if source.given is not None and source.given.kind == "file":
            return FolderTidying(folder=folder, files=[source.given.text])
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
        return Fragment(
            instruction=self.instruction(a, folder=a.folder, files=listed),
            phrasing=a.phrasing,
            subtask=self.subtask_in(slot, f"Create {target} and move {listed} into it"),
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
