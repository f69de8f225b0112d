"""First moves the run makes by rule, where a subtask's words leave no choice.

A subtask that says to open a named file starts with that file open.

"In the text editor, open the file memo.txt in the Documents folder and find ..." names the file
and the application; the application's own open action (``editor_open``, ``writer_open``,
``sheet_open``, ``files_open``) opens it in one step. The 1.5B model, with the empty editor in
front, instead clicked the File menu, claimed the memo was already open, and gave up; the run
re-planned twice before it used ``editor_open``. So, once the subtask's application is in
front, the run opens the named file itself (recorded like any step, its thought marked
``[run]``) unless the window in front already shows it or the subtask already tried.

A subtask that says to search the web for something starts with that search: with a blank
browser page in front, the model clicked links of results it had not searched for yet.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePosixPath

from pcagent import actions as act
from pcagent.agents.clause_plan import asks_to_tell
from pcagent.agents.dates import days_between_asked
from pcagent.agents.decision import Decision
from pcagent.agents.format_plan import format_requests, read_paragraphs
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.roles import Role
from pcagent.agents.time_offsets import offset_times
from pcagent.runtime.checkpoint import output_text
from pcagent.runtime.done_check import expression_value, keyed_expression, written_expression
from pcagent.runtime.fix_moves import corrects, opened_path, selected_all

#: "open the file memo.txt", "Open test_doc1.docx", "opens notes.md": an opening verb, then
#: (within the same clause) a file name with an extension that starts with a letter.
_OPENS_FILE = re.compile(
    r"\bopen(?:s|ing)?\b[^.;,]*?(?<![\w./-])((?:[\w-]+/)*[\w-]*[A-Za-z][\w-]*\.[A-Za-z][A-Za-z0-9]{0,4})\b",
    re.I,
)


def named_file(description: str) -> str:
    """The file name a subtask says to open; "" when it names none."""
    match = _OPENS_FILE.search(description)
    return match.group(1) if match else ""


def file_unopened(description: str, history: Sequence[str]) -> bool:
    """Whether the subtask names a file to open and no step of it has yet opened or read it
    with success: what it is to find is in that file, so nothing reported before can be (a
    small model reported "Documents folder" as the place of a meeting, from the task's words)."""
    name = PurePosixPath(named_file(description)).name
    return bool(name) and not any(name in line and line.endswith("-> success") for line in history)


#: Words of a subtask that ask for more than opening its file.
_MORE_THAN_OPENING = re.compile(
    r"\b(?:find|finds|read|reads|look|check|note|search|write|type|fill|set|add|make|change|"
    r"format|save|send|move|copy|delete|rename|compute|calculate|insert|replace|fix|edit|"
    r"translate|center|centre|underline|bold|increase|decrease|create|attach|reply|sort)\b",
    re.I,
)


def opened_its_file(description: str, history: Sequence[str]) -> bool:
    """Whether a subtask that only opens a file ("Then open the workbook movie_rate.xlsx in the
    Documents folder from the file manager") has just opened it with its application's own
    open action: nothing is left to do (the model went on to rename the workbook)."""
    name = PurePosixPath(named_file(description)).name
    if not name or not history or _MORE_THAN_OPENING.search(description):
        return False
    last = history[-1]
    return (
        _step_action(last).split("(")[0].endswith("_open")
        and name in last
        and last.endswith("-> success")
    )


def open_action_kind(app: str, kinds: frozenset[str]) -> str:
    """The kind of ``app``'s own action that opens a file by its path, among ``kinds``; ""
    when the application has none (or the role may not use it)."""
    for kind in sorted(kinds):
        action_type = act.ACTION_TYPES.get(kind)
        belongs_to = getattr(action_type, "belongs_to", None)
        fields = getattr(action_type, "model_fields", {})
        if belongs_to == app and kind.endswith("_open") and set(fields) == {"kind", "path"}:
            return kind
    return ""


def document_move(
    subtask: SubtaskSpec,
    role: Role,
    front_app: str,
    front_title: str,
    history: Sequence[str],
    unnamed: Callable[[], str] | None = None,
) -> Decision | None:
    """The step that opens the file the subtask names, with the application's own action,
    once the application is in front; None when a model should decide (no file named, no
    open action, the file already in front, or the subtask already opened something).
    ``unnamed`` gives the file a subtask means that says "open it" without a name
    (:func:`~pcagent.runtime.fix_moves.earlier_file`); asked only when needed."""
    if subtask.app != front_app:
        return None
    kind = open_action_kind(subtask.app, role.kinds)
    if not kind or any(f"{kind}(" in line for line in history):
        return None
    name = named_file(subtask.description) or (unnamed() if unnamed is not None else "")
    if not name or PurePosixPath(name).name in front_title:
        return None
    action = act.ACTION_TYPES[kind].model_validate({"kind": kind, "path": name})
    return Decision(
        reasoning=f"[run] the subtask opens {name}: opening it with {kind}",
        action=action,
    )


#: "Search the web for X", "search for X", "look up X", "find out X", "compare X": the words
#: to search for (a person compares prices at three shops by searching for them).
_SEARCHES = re.compile(
    r"\b(?:search(?:es)?|look(?:s)?\s+up|find(?:s)?\s+out|compare(?:s)?)\b"
    r"(?:\s+(?:the\s+)?(?:web|internet|online))?"
    r"(?:\s+for)?\s+(.+)",
    re.I,
)
#: Where the words to search for end: the browser named, or the next clause.
_SEARCH_END = re.compile(
    r"\s+(?:in|with|using)\s+(?:the\s+)?(?:web\s+)?browser\b.*|[.;](?:\s.*|$)"
    r"|,\s+(?:and|then|tell)\b.*",
    re.I,
)
#: "in the browser" before the words ("look up in the browser the flight time").
_BROWSER_FIRST = re.compile(r"^(?:in|with|using)\s+(?:the\s+)?(?:web\s+)?browser\s+", re.I)
#: Words that point back at what an earlier subtask found ("a flight for it", "to that
#: place"): the search needs those values, which only the model can put in.
_POINTS_BACK = re.compile(r"\b(it|its|them|that|there|this|those|these|each)\b", re.I)
#: Longest value from the hub added to a search (a found place or name, not a page).
FINDING_LIMIT = 160
#: The web-search action of a browser role.
SEARCH_KIND = "browser_open"


def search_words(description: str, found: Sequence[str] = ()) -> str:
    """The words a subtask says to search the web for; "" when it says no such thing. Words
    that point back at something found before ("to that place") get the ``found`` values
    added (the search engine matches words, so "... to that place 14:00 Meeting at the Brooklyn
    Museum" finds the trip to the museum); with nothing found, "" (the model puts them in)."""
    match = _SEARCHES.search(description)
    if match is None:
        return ""
    words = _SEARCH_END.sub("", _BROWSER_FIRST.sub("", match.group(1))).strip(" ,")
    if _POINTS_BACK.search(words):
        if not found:
            return ""
        words = " ".join([words, *found])
    return words[:300]


def findings_for(subtask: SubtaskSpec, hub: Mapping[str, str]) -> list[str]:
    """The values found before that a subtask's words may point back at: its declared inputs,
    or else every short finding in the hub (not the ``<id>_read`` readings, whole pages)."""
    if subtask.inputs:
        return [hub[name] for name in subtask.inputs if name in hub]
    return [
        value
        for name, value in hub.items()
        if not name.endswith("_read") and len(value) <= FINDING_LIMIT
    ]


#: "Go to https://arxiv.org/", "open www.example.com": an address to open.
_ADDRESS = re.compile(
    r"\b(?:go\s+to|open|visit|navigate\s+to)\s+(?:the\s+(?:page|site|website)\s+)?"
    r"[\"'“]?((?:https?://|www\.)[^\s\"'”,;]+)",
    re.I,
)


def address_named(words: str) -> str:
    """The address ``words`` say to go to ("Go to https://arxiv.org/ ..."); "" when none."""
    match = _ADDRESS.search(words)
    return match.group(1).rstrip(".") if match else ""


def address_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]
) -> Decision | None:
    """The step that opens the address a browser subtask says to go to ("Go to
    https://arxiv.org/ ..."), before it has opened anything; None otherwise."""
    address = address_named(subtask.description)
    if not address:
        return None
    reasoning = f"[run] the subtask goes to {address}"
    return first_page(subtask, role, front_app, history, address, reasoning)


def first_page(
    subtask: SubtaskSpec,
    role: Role,
    front_app: str,
    history: Sequence[str],
    url: str,
    reasoning: str,
) -> Decision | None:
    """``browser_open`` of ``url`` (an address or words to search for) as the subtask's first
    page, once the browser is in front and before the subtask has opened anything; None when
    the role has no such action or the browser is not the subtask's and in front."""
    action_type = act.ACTION_TYPES.get(SEARCH_KIND)
    if SEARCH_KIND not in role.kinds or action_type is None:
        return None
    if subtask.app != front_app or getattr(action_type, "belongs_to", None) != subtask.app:
        return None
    if not url or any(f"{SEARCH_KIND}(" in line for line in history):
        return None
    return Decision(
        reasoning=reasoning,
        action=action_type.model_validate({"kind": SEARCH_KIND, "url": url}),
    )


#: A search page's count line ("About 10 results"), after which its results are listed.
_RESULTS_LINE = re.compile(r"^\s*(?:about\s+)?[\d,]+\s+results?\s*$", re.I)
#: The browser's own action that follows a link by its text.
CLICK_KIND = "browser_click"


def first_result(page: str) -> str:
    """The title of a search page's first result: the first line after its count of results
    that the result's address follows; "" when the page lists none."""
    lines = [line.strip() for line in page.splitlines()]
    start = next((i for i, line in enumerate(lines) if _RESULTS_LINE.match(line)), None)
    if start is None:
        return ""
    for index in range(start + 1, len(lines) - 1):
        if lines[index] and lines[index + 1].startswith(("http://", "https://")):
            return lines[index]
    return ""


def result_move(
    subtask: SubtaskSpec,
    role: Role,
    front_app: str,
    history: Sequence[str],
    answers: Mapping[str, str],
    last_output: str,
) -> Decision | None:
    """When the run's own search left a value the subtask must find unreported (the results'
    snippets did not hold it), the step that opens the first result, as a person would; once
    per subtask. None otherwise."""
    if CLICK_KIND not in role.kinds or subtask.app != front_app or not history:
        return None
    if not subtask.outputs or all(name in answers for name in subtask.outputs):
        return None
    if not last_succeeded(SEARCH_KIND, history):
        return None
    if used(CLICK_KIND, history):
        return None
    title = first_result(output_text(last_output))
    if not title:
        return None
    return Decision(
        reasoning="[run] the search's snippets did not give the value: opening its first result",
        action=act.ACTION_TYPES[CLICK_KIND].model_validate({"kind": CLICK_KIND, "text": title}),
    )


def search_move(
    subtask: SubtaskSpec,
    role: Role,
    front_app: str,
    history: Sequence[str],
    hub: Mapping[str, str] | None = None,
) -> Decision | None:
    """The step that searches the web for what the subtask names, once the browser is in
    front and before the subtask has opened anything; None when a model should decide."""
    words = search_words(subtask.description, findings_for(subtask, hub or {}))
    reasoning = f"[run] the subtask searches the web for: {words}"
    return first_page(subtask, role, front_app, history, words, reasoning)


# --- writing a document's text, then saving it ---------------------------------------------------

#: The applications whose text the run writes with the Composer, and the action that inserts it
#: (the word processor's own; the text editor's text area takes typed text).
INSERTS = {"writer": "writer_insert", "text_editor": "type"}
#: The applications' own save-under-a-name actions.
SAVES = {"writer": "writer_save", "text_editor": "editor_save_as", "spreadsheet": "sheet_save"}
#: Steps that write a document's content: after one succeeds, the save rule may follow.
_WRITING = ("writer_insert(", "type(", "sheet_set(")
#: How a writing step ends when it wrote: "unexpected_change" too, since a model's Reflection
#: did not recognise typed multi-line code on the screen as what was typed.
_WROTE = ("-> success", "-> unexpected_change")
#: The spreadsheet's action that fills cells with the Composer's rows.
SHEET_WRITE = "sheet_set"
#: Words with which a subtask asks for a sheet's cells to be filled.
_CELLS = re.compile(r"\b(?:columns?|rows?|cells?)\b", re.I)
_FILLS = re.compile(r"\b(?:fill|fills|put|puts|enter|enters)\b", re.I)
#: "column B", "in column C".
_COLUMN = re.compile(r"\bcolumn\s+([A-Za-z])\b")
#: Words with which a subtask asks for text to be written.
_WRITES = re.compile(r"\b(?:write|writes|compose|draft|translate|translates)\b", re.I)
#: "save it as NAME[.ext] [in the FOLDER folder]".
_SAVE_AS = re.compile(
    r"\bsave\b[^.;]*?\bas\s+[\"'“]?(?P<name>[\w\-]+(?:\.[A-Za-z][A-Za-z0-9]{0,4})?)[\"'”]?"
    r"(?=[\s,;]|\.(?:\s|$)|$)(?:[^.;]*?\bin\s+(?:the\s+|my\s+)?(?P<folder>[\w\-]+)\s+folder)?",
    re.I,
)


def working_in(app: str, kind: str, subtask: SubtaskSpec, role: Role, front_app: str) -> bool:
    """Whether ``subtask`` works in ``app``, ``app`` is in front, and ``role`` may take ``kind``."""
    return subtask.app == app and front_app == app and kind in role.kinds


def used(kind: str, history: Sequence[str]) -> bool:
    """Whether a step of the subtask (its ``history``) took an action of ``kind``."""
    return any(_step_action(line).startswith(f"{kind}(") for line in history)


def last_succeeded(kind: str, history: Sequence[str]) -> bool:
    """Whether the subtask's latest step (the last line of its ``history``) took an action of
    ``kind`` with success."""
    if not history:
        return False
    return _step_action(history[-1]).startswith(f"{kind}(") and history[-1].endswith("-> success")


def _step_action(line: str) -> str:
    """The action of a history line ("3: type(text='a') -> success" -> "type(text='a')")."""
    return line.partition(": ")[2].rpartition(" -> ")[0]


def compose_kind(subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]) -> str:
    """The kind of action that inserts composed text for this subtask now; "" when the run
    does not write it (the subtask writes nothing, its application is not in front, or text
    was already inserted or typed in it)."""
    kind = INSERTS.get(subtask.app, "")
    if subtask.app == "spreadsheet" and _CELLS.search(subtask.description):
        kind = SHEET_WRITE  # "write the names in column A and the prices in column B"
    if not kind or kind not in role.kinds or subtask.app != front_app:
        return ""
    if corrects(subtask):
        # the corrected text replaces the file's: only once all of it is selected
        return kind if selected_all(history) else ""
    if not (_WRITES.search(subtask.description) or _FILLS.search(subtask.description)):
        return ""
    inserted = tuple(f"{k}(" for k in (*INSERTS.values(), SHEET_WRITE))
    if any(_step_action(line).startswith(inserted) for line in history):
        return ""
    return kind


#: The applications' own actions that read the document in front.
READS = {"writer": "writer_read"}
#: Words with which a writing subtask works from the document's own text ("write an English
#: translation of its text below the main text", "summarise the document").
_ITS_TEXT = re.compile(
    r"\b(?:translat\w*|summar\w*|its\s+(?:text|content|contents|paragraphs?)"
    r"|the\s+(?:main\s+|document'?s?\s+)?(?:text|content|contents)|proofread\w*)\b",
    re.I,
)


def read_first_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]
) -> Decision | None:
    """Before the Composer writes for a subtask that works from the open document's own text,
    the step that reads that text with the application's own read action, once: given only the
    subtask's words, the Composer wrote "The text is already provided in the main text." in
    place of a translation. None otherwise."""
    kind = READS.get(subtask.app, "")
    if not kind or not working_in(subtask.app, kind, subtask, role, front_app):
        return None
    if not compose_kind(subtask, role, front_app, history) or used(kind, history):
        return None
    if not _ITS_TEXT.search(subtask.description):
        return None
    return Decision(
        reasoning="[run] the subtask writes from the document's own text: reading it first",
        action=act.ACTION_TYPES[kind].model_validate({"kind": kind}),
    )


def first_cell(description: str) -> str:
    """Where the rows a subtask asks for start: row 1 of the first column it names ("in column
    B": B1), else A1."""
    match = _COLUMN.search(description)
    return f"{match.group(1).upper()}1" if match else "A1"


#: Where a description's clauses part (", and", ", then", ";", a sentence's end).
_CLAUSES = re.compile(
    r",\s+(?:and\s+)?then\s+|,\s+and\s+|;\s+|(?<=[.!?])\s+|\s+and\s+then\s+"
    r"|,?\s+and\s+(?=save\b)|,\s+(?=(?:save|create|open|write)\b)",
    re.I,
)
#: Clauses that create, open or save rather than say what to write.
_NOT_WRITING = re.compile(r"^\s*(?:then\s+)?(?:create|open|save|start|launch)\b", re.I)


def writing_part(description: str) -> str:
    """What a writing subtask asks to be written, without its clauses that create, open or
    save ("Create a new document ... Write two paragraphs, one on X and one on Y, and save it
    as Z": "Write two paragraphs, one on X and one on Y"): given the whole description, the
    Composer wrote instructions for using the word processor."""
    clauses = [c.strip() for c in _CLAUSES.split(description) if c and c.strip()]
    kept = [c for c in clauses if _WRITES.search(c) and not _NOT_WRITING.match(c)]
    return " ".join(kept).strip() or description


#: Words with which what a subtask writes points back at something found or named elsewhere
#: ("write what you find into a new document", "write them into a text file").
_WRITES_FOUND = re.compile(
    r"\b(?:what\s+(?:you|we|was|it)\s+(?:find|found|finds|read)|them|those|these|the\s+results"
    r"|the\s+findings|the\s+information|that\s+text|this\s+text)\b",
    re.I,
)


def with_task(wanted: str, instruction: str) -> str:
    """What the Composer is asked to write: ``wanted``, and the whole instruction when
    ``wanted`` points back at something it does not name ("write what you find into a new
    document"); asked with that alone, the Composer wrote "I will write the text into a new
    document in the word processor." with the attractions found right there in its values."""
    if not _WRITES_FOUND.search(wanted) or instruction.strip() in wanted:
        return wanted
    return f"{wanted} (from the task: {instruction.strip()})"


def composed(kind: str, text: str, reasoning: str) -> Decision:
    """The step that inserts the Composer's ``text`` with ``kind``."""
    action = act.ACTION_TYPES[kind].model_validate({"kind": kind, "text": text})
    return Decision(reasoning=reasoning, action=action)


#: "create a new Python file NAME.ext [in the FOLDER folder]": the file to write is named.
_CREATE_FILE = re.compile(
    r"\bcreate\b[^.;]*?\bfile\s+[\"'“]?(?P<name>[\w\-]+\.[A-Za-z][A-Za-z0-9]{0,4})\b[\"'”]?"
    r"(?:[^.;]*?\bin\s+(?:the\s+|my\s+)?(?P<folder>[\w\-]+)\s+folder)?",
    re.I,
)


def save_path(description: str) -> str:
    """The path a subtask says to save under ("save it as stocks in the Documents folder":
    Documents/stocks; "create a new file notes.md in the Documents folder": Documents/notes.md);
    "" when it names none."""
    match = _SAVE_AS.search(description) or _CREATE_FILE.search(description)
    if match is None:
        return ""
    folder = match.group("folder")
    return f"{folder}/{match.group('name')}" if folder else match.group("name")


def saved_its_writing(subtask: SubtaskSpec, history: Sequence[str]) -> bool:
    """Whether the subtask's latest step saved, with its application's own save action, what
    an earlier step of it wrote or formatted, and the subtask asks to save or to create a named
    file ("create a new file kth.py in the Documents folder and write a function ..."): saving
    is then the last thing such a subtask asks for (a small model went on re-inserting the
    text, or clicking the saved text, instead)."""
    kind = SAVES.get(subtask.app, "")
    words = subtask.description
    if not kind or not history or not (_SAVE_WORD.search(words) or _CREATE_FILE.search(words)):
        return False
    if not last_succeeded(kind, history):
        return False
    return any(
        _step_action(line).startswith((*_WRITING, f"{FORMAT_KIND}(")) and line.endswith(_WROTE)
        for line in history[:-1]
    )


def save_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]
) -> Decision | None:
    """Right after a step wrote a subtask's content (the Composer's text, typed text, cells)
    and changed the screen, the step that saves it under the name the subtask gives, with the
    application's own action, once per subtask; None otherwise."""
    kind = SAVES.get(subtask.app, "")
    if not kind or kind not in role.kinds or subtask.app != front_app or not history:
        return None
    last = history[-1]
    wrote = last.endswith(_WROTE)
    if not (_step_action(last).startswith(_WRITING) and wrote):
        return None
    path = save_path(subtask.description)
    in_place = False
    if not path and _SAVE_WORD.search(subtask.description):
        # "... and save it": where it was opened, or (the office applications' own save with
        # no path) where the document in front already is
        path = opened_path(history)
        in_place = not path and subtask.app in _SAVES_IN_PLACE
    if not (path or in_place) or used(kind, history):
        return None
    return Decision(
        reasoning=f"[run] the subtask saves what it wrote as {path}"
        if path
        else "[run] the subtask saves what it wrote where the document is",
        action=act.ACTION_TYPES[kind].model_validate({"kind": kind, "path": path}),
    )


#: Applications whose own save action saves the document in front where it is (no path).
_SAVES_IN_PLACE = frozenset({"writer", "spreadsheet"})


# --- telling what was found ----------------------------------------------------------------------


def tell_move(
    subtask: SubtaskSpec,
    answers: Mapping[str, str],
    history: Sequence[str],
    picked: Mapping[str, str] | None = None,
) -> Decision | None:
    """The step that tells the user what a subtask found, when its words ask for it ("...,
    and tell me"): the thing the run ``picked`` for a question of which has the most or least
    (:func:`~pcagent.agents.superlatives.extremes`), or the things in the order asked
    (:func:`~pcagent.agents.superlatives.ordering`), as soon as known, else all its values
    once they are in (they were reported to the run, not yet said to anyone). None when it
    asks for no telling, a value is missing, or it has answered."""
    if not subtask.outputs or not asks_to_tell(subtask.description) or told(history):
        return None
    if picked:
        text = "; ".join(picked.values())
    elif all(name in answers for name in subtask.outputs):
        text = "; ".join(answers[name] for name in subtask.outputs)
    else:
        return None
    return Decision(
        reasoning="[run] the subtask asks to be told what it found: telling it",
        action=act.Answer(text=text),
    )


def told(history: Sequence[str]) -> bool:
    """Whether a step of the subtask answered."""
    return any(_step_action(line).startswith("answer(") for line in history)


# --- an alarm at a time worked out from a found one ------------------------------------------

#: Clocks' own action that sets an alarm.
ALARM_KIND = "clock_add_alarm"
_ALARM = re.compile(r"\balarms?\b", re.I)


def alarm_move(
    subtask: SubtaskSpec,
    role: Role,
    front_app: str,
    history: Sequence[str],
    text: str,
    hub: Mapping[str, str],
) -> Decision | None:
    """The step that sets the alarm a subtask asks for at a time relative to a found one ("one
    hour before that event"), at the time the run worked out (:func:`offset_times`), once
    Clocks is in front: handed that time as a known value, the 1.5B model still set the alarm at
    the event's own time. None when the subtask asks for no such alarm, or set one already."""
    if not working_in("clock", ALARM_KIND, subtask, role, front_app):
        return None
    if not _ALARM.search(text) or used(ALARM_KIND, history):
        return None
    derived = offset_times(text, hub)
    if len(derived) != 1:
        return None
    (value,) = derived.values()
    return Decision(
        reasoning=f"[run] the subtask sets an alarm {value.partition(' ')[2].strip('()')}",
        action=act.ACTION_TYPES[ALARM_KIND].model_validate(
            {"kind": ALARM_KIND, "time": value.split()[0]}
        ),
    )


# --- formatting a document as its words say ------------------------------------------------

#: The word processor's own actions that format, read and save the document in front.
FORMAT_KIND = "writer_format"
READ_KIND = "writer_read"
_SAVE_WORD = re.compile(r"\bsave\b", re.I)


def format_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str], last_output: str
) -> Decision | None:
    """The next step of the formatting a word-processor subtask's words ask for
    (:func:`~pcagent.agents.format_plan.format_requests`): each clause's ``writer_format`` in
    turn, a ``writer_read`` first where a clause needs the paragraphs' numbers ("the last
    paragraph"), then, when it says to save, ``writer_save``. None when its words ask for no
    formatting, the word processor is not in front, or a format step failed (the model takes
    over, with the GUI too)."""
    if not working_in("writer", FORMAT_KIND, subtask, role, front_app):
        return None
    requests = format_requests(subtask.description)
    formats = [line for line in history if _step_action(line).startswith(f"{FORMAT_KIND}(")]
    if not requests or any(not line.endswith("-> success") for line in formats):
        return None
    if len(formats) >= len(requests):
        save = SAVES["writer"]
        if not _SAVE_WORD.search(subtask.description) or save not in role.kinds:
            return None
        if used(save, history):
            return None
        return Decision(
            reasoning="[run] the subtask's formatting is done: saving it",
            action=act.ACTION_TYPES[save].model_validate(
                {"kind": save, "path": save_path(subtask.description)}
            ),
        )
    request = requests[len(formats)]
    numbers = request.paragraphs(read_paragraphs(last_output))
    if numbers is None:
        reads = sum(_step_action(line).startswith(f"{READ_KIND}(") for line in history)
        if READ_KIND not in role.kinds or reads > len(formats):
            return None
        return Decision(
            reasoning="[run] reading the document's paragraphs to format them by number",
            action=act.ACTION_TYPES[READ_KIND].model_validate({"kind": READ_KIND}),
        )
    changes = ", ".join(f"{name}={value}" for name, value in request.changes.items())
    return Decision(
        reasoning=f"[run] the subtask formats paragraphs {list(numbers)}: {changes}",
        action=act.ACTION_TYPES[FORMAT_KIND].model_validate(
            {"kind": FORMAT_KIND, "paragraphs": numbers, **request.changes}
        ),
    )


# --- the days between two dates ------------------------------------------------------------

#: The calculator's own action that evaluates an expression (dates count as day numbers).
EVALUATE_KIND = "calculator_evaluate"


def days_move(
    subtask: SubtaskSpec,
    role: Role,
    front_app: str,
    history: Sequence[str],
    text: str,
    hub: Mapping[str, str],
) -> Decision | None:
    """The step that counts the days between the two dates a calculator subtask asks about
    (:func:`~pcagent.agents.dates.days_between_asked`: one it writes, one found before), with
    ``calculator_evaluate`` on the two as ``YYYY-MM-DD``; once. None otherwise."""
    if not working_in("calculator", EVALUATE_KIND, subtask, role, front_app):
        return None
    if used(EVALUATE_KIND, history):
        return None
    pair = days_between_asked(text, hub)
    if pair is None:
        return None
    later, earlier = max(pair), min(pair)
    expression = f"{later.isoformat()} - {earlier.isoformat()}"
    return Decision(
        reasoning=f"[run] the subtask counts the days from {earlier} to {later}",
        action=act.ACTION_TYPES[EVALUATE_KIND].model_validate(
            {"kind": EVALUATE_KIND, "expression": expression}
        ),
    )


def expression_move(
    subtask: SubtaskSpec, role: Role, front_app: str, history: Sequence[str]
) -> Decision | None:
    """The step that evaluates the one arithmetic expression a calculator subtask writes out
    ("compute 12 * 7 + 5") with ``calculator_evaluate``, once the calculator is in front; once.
    The 1.5B model, with the calculator open, said ``done`` thirteen times over while the
    display showed 0, each refused with the reason and the action to take. None otherwise,
    and for an expression the run cannot compute (the model is left to it)."""
    if not working_in("calculator", EVALUATE_KIND, subtask, role, front_app):
        return None
    if used(EVALUATE_KIND, history) or expression_value(subtask.description) is None:
        return None
    written = written_expression(subtask.description)
    assert written is not None  # expression_value found it
    return Decision(
        reasoning=f"[run] the subtask computes {written}",
        action=act.ACTION_TYPES[EVALUATE_KIND].model_validate(
            {"kind": EVALUATE_KIND, "expression": keyed_expression(written)}
        ),
    )
