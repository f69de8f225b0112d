"""The rewording set (``tasks_reworded/``): each of the 25 tasks twice, loaded the way ``bench run
--tasks-dir`` loads a folder, each a copy of its original but for the id, the source and an
instruction in other words that still names every fact the checkers need."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pcagent.bench.tasks import (
    Task,
    load_reworded_tasks,
    load_tasks,
    reworded_tasks_folder,
    select_tasks,
)

ORIGINALS = load_tasks()
REWORDED = {task.id: task for task in select_tasks(None, reworded_tasks_folder())}
#: What a rewording may change; everything else is its original's.
CHANGED = {"id", "source", "instruction", "rewords"}
#: How the originals name applications; a rewording says it otherwise (Mousepad, a plain-text
#: editor, Thunar...).
ORIGINAL_APP_WORDS = (
    "the text editor", "the code editor", "clocks app", "the browser", "the calculator",
    "word processor", "spreadsheet", "file manager", "mail client",
)  # fmt: skip
#: At most this share of a rewording's word trigrams may be in its original (or its sibling).
MAX_SHARED_TRIGRAMS = 1 / 3


def trigrams(text: str) -> set[tuple[str, ...]]:
    """The word trigrams of ``text``, a quoted title counting as one word: "The Shawshank
    Redemption" must stay as it is, and says nothing about the wording around it."""
    words = re.findall(r"[\w.'-]+", re.sub(r'"[^"]*"', " quoted ", text).casefold())
    return {tuple(words[i : i + 3]) for i in range(len(words) - 2)}


def shared(text: str, other: str) -> float:
    """The share of ``text``'s word trigrams that ``other`` has too."""
    mine = trigrams(text)
    return len(mine & trigrams(other)) / len(mine)


def facts(instruction: str) -> set[str]:
    """What an instruction names that a checker may need: quoted titles, words with digits, dots,
    underscores or @ (file names, numbers, addresses), and capitalised words inside sentences
    (people, cities, companies, folders) but the Clocks application's name."""
    found = set(re.findall(r'"[^"]+"', instruction))
    for sentence in re.split(r"(?<=[.?!])\s+", re.sub(r'"[^"]+"', " ", instruction)):
        words = [word.strip("().,:;") for word in re.findall(r"[\w./:@()-]+", sentence)]
        for position, word in enumerate(words):
            capitalised = position > 0 and word[:1].isupper() and word != "Clocks"
            if capitalised or re.search(r"[\d._@]", word):
                found.add(word)
    return found


def rewordings_of(original: str) -> list[Task]:
    return [task for task in REWORDED.values() if task.rewords == original]


def test_fifty_rewordings_two_of_each_of_the_25() -> None:
    assert len(REWORDED) == 50
    assert load_reworded_tasks() == REWORDED  # the package's loader reads the same folder
    assert Counter(task.rewords for task in REWORDED.values()) == dict.fromkeys(ORIGINALS, 2)
    for original in ORIGINALS:
        assert [task.id for task in rewordings_of(original)] == [f"{original}r1", f"{original}r2"]
    for task in REWORDED.values():
        assert task.source.startswith(f"{task.rewords} in other words")
    assert not any(task.rewords for task in ORIGINALS.values())


def test_file_names_start_with_the_id() -> None:
    names = sorted(path.name for path in reworded_tasks_folder().glob("*.yaml"))
    assert len(names) == 50
    assert all(
        name.startswith(f"{task_id}_") for name, task_id in zip(names, REWORDED, strict=True)
    )


@pytest.mark.parametrize("task_id", sorted(REWORDED))
def test_a_rewording_is_its_original_but_for_the_words(task_id: str) -> None:
    task = REWORDED[task_id]
    original = ORIGINALS[task.rewords]
    # The parts a checker or a reference run reads, one by one (the message names the part),
    # then everything else.
    assert task.fixtures == original.fixtures
    assert task.nodes == original.nodes
    assert task.reference == original.reference
    assert task.reference_api == original.reference_api
    assert task.apps == original.apps
    assert task.subtasks == original.subtasks
    assert task.model_dump(exclude=CHANGED) == original.model_dump(exclude=CHANGED)


@pytest.mark.parametrize("task_id", sorted(REWORDED))
def test_a_rewording_says_it_otherwise_and_keeps_the_facts(task_id: str) -> None:
    task = REWORDED[task_id]
    original = ORIGINALS[task.rewords]
    assert shared(task.instruction, original.instruction) <= MAX_SHARED_TRIGRAMS
    assert task.instruction.split()[:2] != original.instruction.split()[:2]
    missing = {fact for fact in facts(original.instruction) if fact not in task.instruction}
    assert not missing, f"{task.id} lost {missing}"
    named = [word for word in ORIGINAL_APP_WORDS if word in task.instruction.casefold()]
    assert not named, f"{task.id} names applications as the original does: {named}"


@pytest.mark.parametrize("original", sorted(ORIGINALS))
def test_the_two_rewordings_differ_in_kind(original: str) -> None:
    asked, told = rewordings_of(original)
    # The first asks or says what the person needs; the second is an instruction or a note.
    assert "?" in asked.instruction or asked.instruction.startswith("I ")
    assert "?" not in told.instruction
    assert shared(asked.instruction, told.instruction) <= MAX_SHARED_TRIGRAMS


def test_the_checks_would_catch_a_careless_rewording() -> None:
    """The measures above are not vacuous: a copy, a lost file name and the original's names for
    the applications are caught."""
    original = ORIGINALS["pc01"].instruction
    assert shared(original, original) == 1
    assert {"memo.txt", "Documents"} <= facts(original)
    assert "Clocks" not in facts(original)
    lazy = original.replace("memo.txt", "the memo")
    assert "memo.txt" not in lazy and "memo.txt" in facts(original) - facts(lazy)
    assert any(word in original.casefold() for word in ORIGINAL_APP_WORDS)
    assert facts(ORIGINALS["pc17"].instruction) >= {
        '"Leon: The Professional"', '"The Shawshank Redemption"', '"2001: A Space Odyssey"',
    }  # fmt: skip
