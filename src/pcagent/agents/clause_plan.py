"""Plans read off the instruction's own clauses, when each names its application.

People write multi-application instructions one application at a time: "In the text editor,
open memo.txt and find the second event. Set an alarm in the Clocks app one hour before it."
Each sentence (or each clause after ", and" / ", then" / ";") that names an application is one
visit to it, in the order written; a clause that names none continues the visit before it. When
that reading covers the whole instruction and names at least two applications, it is the plan,
by the Manager's own rule and without a model: the 1.5B local model's plans for such
instructions put a spreadsheet in the text editor, made a subtask depend on itself, and then fell
back to one subtask with no application at all.

A visit that finds something (its words say find, search, look up, read, note...) and is followed
by another visit reports what it found, named after the words that say what ("find the second
event of the morning": ``second_event_morning``), which the later visits take as input: its
``done`` then waits for the value, and the next visit is shown it.

Only the environment's own application list is used to recognise applications, scored like
:func:`~pcagent.agents.app_inference.app_scores` (a phrase of the name or description 3, the
word of a one-word name 2, any other word of the name or description that no other application
has 1). Names of a home's folders
("the Documents folder") say where a file is, not which application opens it, and do not count.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from pcagent.agents.app_inference import plain_words as _words
from pcagent.agents.plan import Plan, SubtaskSpec

#: Where an instruction's sentences end: a full stop, question or exclamation mark before a
#: capital letter (not "memo.txt" or "1.5").
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])")
#: Where clauses of one sentence part: ", and", ", then", "; ", " and then ".
_CLAUSE_END = re.compile(r",\s+(?:and\s+)?then\s+|,\s+and\s+|;\s+|\s+and\s+then\s+")
_WORD = re.compile(r"[a-z0-9]+")
#: A file name's extension ("memo.txt" -> "txt").
_EXTENSION = re.compile(r"\w\.([a-z][a-z0-9]{1,4})\b")
#: The application that opens files in other applications: a document opened from it is worked
#: on in the application of its type.
FILE_MANAGER = "file_manager"
_OPENS = re.compile(r"\bopen", re.I)
#: The usual folders of a home: they name places, not applications.
_FOLDERS = frozenset({"document", "documents", "desktop", "download", "downloads", "picture"})
#: Words with which a visit asks to find something out.
_FINDING = re.compile(
    r"\b(find|finds|search|look|looks|read|reads|note|check|compare|get|see|learn)\b", re.I
)
#: Least score with which a comma-separated piece of a clause after its first starts a visit of
#: its own (a phrase, or a one-word name): "write the translation of that text" is no visit to
#: the text editor.
PIECE_SCORE = 2
#: Fewest applications a clause reading must name to be the plan (one is the one-visit rule's).
MIN_VISITS = 2


@dataclass(frozen=True)
class _Vocabulary:
    """How strongly each application's name and description words identify it."""

    phrases: dict[str, set[str]]
    name_words: dict[str, set[str]]
    own_words: dict[str, set[str]]

    @classmethod
    def of(cls, apps: Mapping[str, str]) -> _Vocabulary:
        phrases: dict[str, set[str]] = {}
        names: dict[str, set[str]] = {}
        described: dict[str, set[str]] = {}
        for app, description in apps.items():
            parts = [app.replace("_", " "), *re.split(r"[,()/]", description)]
            joined = (" ".join(_words(part)) for part in parts)
            phrases[app] = {phrase for phrase in joined if " " in phrase}
            names[app] = set(_words(app.replace("_", " "))) - _FOLDERS
            described[app] = set(_words(description)) - _FOLDERS
        owners: dict[str, set[str]] = {}
        for app in apps:
            for word in names[app] | described[app]:
                owners.setdefault(word, set()).add(app)
        own = {app: {w for w in names[app] | described[app] if owners[w] == {app}} for app in apps}
        return cls(phrases, names, own)

    def scores(self, text: str) -> dict[str, int]:
        """How strongly ``text`` names each application it names at all."""
        said_words = _words(text)
        said, present = f" {' '.join(said_words)} ", set(said_words)
        scores = {}
        for app in self.phrases:
            score = 3 * sum(1 for phrase in self.phrases[app] if f" {phrase} " in said)
            own = self.own_words[app] & present
            # the word of a one-word name ("calculator") names it; a word of a longer one
            # ("text" of text editor) is an ordinary word too
            weight = 2 if len(self.name_words[app]) == 1 else 1
            score += weight * len(self.name_words[app] & own) + len(own - self.name_words[app])
            if score:
                scores[app] = score
        return scores

    def app_of(self, text: str, least: int = 1) -> str:
        """The one application ``text`` names most strongly, at least ``least``; "" when none
        or a tie."""
        scores = self.scores(text)
        ranked = sorted(scores.values(), reverse=True)
        if not ranked or ranked[0] < least or (len(ranked) > 1 and ranked[0] == ranked[1]):
            return ""
        return max(scores, key=lambda app: scores[app])

    def file_app(self, text: str, besides: str) -> str:
        """The application (not ``besides``) whose file type a file named in ``text`` has
        ("test_doc1.docx": the one whose description says .docx); "" when none or several."""
        found = {
            app
            for extension in _EXTENSION.findall(text.lower())
            for app, words in self.own_words.items()
            if app != besides and extension in words
        }
        return found.pop() if len(found) == 1 else ""

    def mention_end(self, text: str, app: str) -> int:
        """Where the last mention of ``app`` (a phrase or word of its name) in ``text`` ends;
        -1 when there is none."""
        lowered, end = text.lower(), -1
        names = {*self.phrases[app], *self.name_words[app]}
        for name in names:
            pattern = r"\b" + r"\W+".join(map(re.escape, name.split())) + r"s?\b"
            for match in re.finditer(pattern, lowered):
                end = max(end, match.end())
        return end


def _clauses(instruction: str) -> list[str]:
    clauses = []
    for sentence in _SENTENCE_END.split(instruction.strip()):
        clauses.extend(part.strip() for part in _CLAUSE_END.split(sentence) if part.strip())
    return clauses


def _joined(first: str, second: str) -> str:
    return (
        f"{first.rstrip()} {second}"
        if first.rstrip().endswith((".", ";", ","))
        else (f"{first.rstrip()}, {second}")
    )


def _parts(clause: str, vocabulary: _Vocabulary) -> list[tuple[str, str]]:
    """A clause as (application, words) parts: a document opened from the file manager is
    worked on in its own application after that ("Open report.docx from the file manager, make
    the title bold"), and a clause that names several applications is read comma by comma."""
    app = vocabulary.app_of(clause)
    if app == FILE_MANAGER and _OPENS.search(clause):
        handed_to = vocabulary.file_app(clause, FILE_MANAGER)
        end = vocabulary.mention_end(clause, FILE_MANAGER)
        rest = clause[end:].lstrip(" ,;") if end >= 0 else ""
        if handed_to and len(_WORD.findall(rest.lower())) >= 2:
            rest = re.sub(r"^(?:and|then)\s+", "", rest)
            return [(app, clause[:end]), (handed_to, rest)]
    if len(vocabulary.scores(clause)) > 1 and ", " in clause:
        first, *others = [piece for piece in clause.split(", ") if piece]
        return [(vocabulary.app_of(first), first)] + [
            (vocabulary.app_of(piece, least=PIECE_SCORE), piece) for piece in others
        ]
    return [(app, clause)]


def clause_visits(instruction: str, apps: Mapping[str, str]) -> list[tuple[str, str]]:
    """The instruction as (application, words) visits in order; [] when its first clause names
    no application (nothing to attach it to)."""
    vocabulary = _Vocabulary.of(apps)
    visits: list[tuple[str, str]] = []
    for clause in _clauses(instruction):
        for app, words in _parts(clause, vocabulary):
            if visits and (not app or app == visits[-1][0]):
                visits[-1] = (visits[-1][0], _joined(visits[-1][1], words))
            elif app:
                visits.append((app, words))
            else:
                return []
    return visits


#: Words left out of a finding's name ("find the date of the trip" -> date_trip).
_NAME_STOP = frozenset(
    {
        "the",
        "and",
        "with",
        "of",
        "a",
        "an",
        "in",
        "to",
        "app",
        "on",
        "web",
        "browser",
        "out",
        "up",
        "for",
        "about",
        "what",
        "s",
    }
)
#: Most words of a finding's name.
NAME_WORDS = 4


#: Words with which an instruction asks to be told what was found.
_TELLS = re.compile(r"\b(?:tell|tells|let\s+me\s+know|report|reports)\b", re.I)


def sought_words(words: str) -> str:
    """What a finding clause looks for: its words after the finding verb ("open memo.txt and
    find where the meeting with John takes place" -> "where the meeting with John takes
    place"); "" when it has no finding verb."""
    match = _FINDING.search(words)
    return words[match.end() :].strip() if match else ""


def asks_to_tell(words: str) -> bool:
    """Whether ``words`` ask for what was found to be told ("..., and tell me")."""
    return bool(_TELLS.search(words))


def _finding_name(words: str, subtask_id: str) -> str:
    """A value name that says what the visit finds, from the words after its finding verb
    ("find the second event of the morning" -> second_event_morning): a small model answered
    an opaque name such as ``s1_found`` with the name itself. ``<id>_found`` when the words give
    none."""
    match = _FINDING.search(words)
    after = words[match.end() :] if match else ""
    kept = [w for w in _WORD.findall(after.lower()) if w not in _NAME_STOP]
    while kept and kept[0].isdigit():
        kept.pop(0)
    name = "_".join(kept[:NAME_WORDS])
    return name or f"{subtask_id}_found"


def clause_plan(instruction: str, apps: Mapping[str, str]) -> Plan | None:
    """The plan of an instruction whose clauses name at least :data:`MIN_VISITS` applications,
    one visit each; None otherwise (the Manager's model plans it)."""
    visits = clause_visits(instruction, apps)
    if len({app for app, _ in visits}) < MIN_VISITS or len(visits) > 6:
        return None
    subtasks: list[SubtaskSpec] = []
    found: list[str] = []
    for number, (app, words) in enumerate(visits, start=1):
        subtask_id = f"s{number}"
        last = number == len(visits)
        # the last visit finds nothing for a later one, unless it is to tell what it found
        finds = bool(_FINDING.search(words)) and (not last or asks_to_tell(words))
        outputs = [_finding_name(words, subtask_id)] if finds else []
        subtasks.append(
            SubtaskSpec(
                id=subtask_id,
                description=words[:400],
                app=app,
                inputs=list(found),
                outputs=outputs,
                depends_on=[subtasks[-1].id] if subtasks else [],
            )
        )
        found.extend(outputs)
    return Plan(subtasks=subtasks)
