"""Which application a piece of text is about, from the environment's own application list.

A small model's plan often leaves a subtask's application empty, and then the scheduler and the
Decision agent start from nothing. The subtask's words usually say it ("compute ... in the
calculator", "save the document"), so the application can be read off them: by the phrases of
the applications' names and descriptions ("word processor", "file manager"), and by words that
belong to one application alone ("calculator", "xlsx"). Only what the environment says about
its applications is used, never a list of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset({"the", "and", "for", "with", "of", "a", "an", "in", "to"})


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def plain_words(text: str) -> list[str]:
    """The words of ``text``, lower-case, stemmed, without the commonest little words."""
    return [_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP]


def _phrases(name: str, description: str) -> set[str]:
    """Multi-word phrases of a name and of each comma- or bracket-separated part of its
    description ("text_editor" -> "text editor"; "clocks, alarms" -> "clock", "alarm")."""
    parts = [name.replace("_", " "), *re.split(r"[,()/]", description)]
    phrases = {" ".join(plain_words(part)) for part in parts}
    return {phrase for phrase in phrases if " " in phrase}


def infer_app(text: str, apps: Mapping[str, str]) -> str:
    """The one application of ``apps`` (logical name -> description) that ``text`` is about;
    "" when none or several fit equally well."""
    scores = app_scores(text, apps)
    ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return ""
    return ranked[0][0]


def app_scores(text: str, apps: Mapping[str, str]) -> dict[str, int]:
    """How strongly ``text`` names each application it names at all (phrases count 3, words
    of one application alone 1)."""
    vocabulary = {
        name: set(plain_words(f"{name.replace('_', ' ')} {d}")) for name, d in apps.items()
    }
    owners: dict[str, set[str]] = {}
    for name, words in vocabulary.items():
        for word in words:
            owners.setdefault(word, set()).add(name)
    said = " ".join(plain_words(text))
    said_words = set(said.split())
    scores: dict[str, int] = {}
    for name, description in apps.items():
        score = 3 * sum(1 for phrase in _phrases(name, description) if f" {phrase} " in f" {said} ")
        score += sum(1 for word in vocabulary[name] & said_words if owners[word] == {name})
        if score:
            scores[name] = score
    return scores


def named_apps(text: str, apps: Mapping[str, str]) -> set[str]:
    """The applications ``text`` names outright: by a phrase of the name or description ("text
    editor", "word processor") or by a word of the logical name ("calculator", "browser").
    A word only the description has ("words" for the word processor, "documents" for a folder)
    is too weak to plan by."""
    said = f" {' '.join(plain_words(text))} "
    named = set()
    for name, description in apps.items():
        phrases = _phrases(name, description)
        name_words = set(plain_words(name.replace("_", " ")))
        if any(f" {phrase} " in said for phrase in phrases) or any(
            f" {word} " in said for word in name_words if len(name_words) == 1
        ):
            named.add(name)
    return named
