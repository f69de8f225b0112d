"""Skills in the plain-text editor: read a file, type text, write and save a file."""

from __future__ import annotations

from pydantic import Field

from pcagent import actions as act
from pcagent.app_actions import EditorNew, EditorOpen, EditorSaveAs
from pcagent.applications import TEXT_EDITOR
from pcagent.skills.base import SkillContext, SkillParameters, SkillResult, skill
from pcagent.skills.common import GivenText, TextFilePath, do, file_text
from pcagent.text import contains

APP = TEXT_EDITOR.name


class FilePath(SkillParameters):
    path: TextFilePath = Field(
        min_length=1, max_length=400, description='In HOME, e.g. "Documents/a.txt".'
    )


@skill(
    "Open a text file in the text editor and read all of its text.",
    apps=(APP,),
    returns="the file's text",
    reads=("path",),
    only_reads=True,
)
def read_text_file(context: SkillContext, parameters: FilePath) -> SkillResult:
    shown = do(context, EditorOpen(path=parameters.path))
    text = file_text(context, parameters.path)
    if text is None:
        text = shown.output or ""
    if not text:
        return SkillResult.failed(f"{parameters.path} shows no text")
    return SkillResult(True, text, evidence=f"{parameters.path}: {len(text)} characters")


class TypeInEditor(SkillParameters):
    text: GivenText = Field(min_length=1, max_length=10_000, description="What to type.")


@skill(
    "Type text into a new, unsaved document of the text editor (a file open in it is left as "
    "it is: write_text_file changes a file).",
    apps=(APP,),
    texts=("text",),
)
def type_in_editor(context: SkillContext, parameters: TypeInEditor) -> SkillResult:
    do(context, EditorNew())
    do(context, act.TypeText(text=parameters.text))
    seen = context.screen_text()
    if not contains(seen, parameters.text.splitlines()[0]):
        return SkillResult.failed("the typed text does not show in the editor", seen[:300])
    return SkillResult(True, parameters.text, evidence="the editor shows the text")


class WriteTextFile(FilePath):
    text: GivenText = Field(min_length=1, max_length=10_000, description="The text to write.")
    append: bool = Field(False, description="true: add at the end; false: replace the text.")


@skill(
    "Write text into a text file with the text editor and save it (the file is created when "
    "missing).",
    apps=(APP,),
    returns="the path",
    writes=("path",),
    texts=("text",),
)
def write_text_file(context: SkillContext, parameters: WriteTextFile) -> SkillResult:
    existed = file_text(context, parameters.path) is not None
    do(context, EditorOpen(path=parameters.path))
    keys = ["ctrl", "end"] if parameters.append else ["ctrl", "a"]
    text = parameters.text
    if (
        parameters.append
        and existed
        and not (file_text(context, parameters.path) or "\n")[-1:].isspace()
    ):
        text = "\n" + text
    do(context, act.Hotkey(keys=keys), act.TypeText(text=text))
    if existed:
        do(context, act.Hotkey(keys=["ctrl", "s"]))
    else:
        do(context, EditorSaveAs(path=parameters.path))
    saved = file_text(context, parameters.path)
    if saved is None or not contains(saved, parameters.text):
        return SkillResult.failed(
            f"{parameters.path} does not hold the text after saving", (saved or "")[:300]
        )
    return SkillResult(True, parameters.path, evidence=f"{parameters.path} holds the text")
