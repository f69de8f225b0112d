"""The comparable form of labels: spellings a person reads alike fold to one text, and words that
differ stay different."""

from __future__ import annotations

import pytest

from pcagent.runtime.safety.label_folding import fold_label, fold_pattern, fold_text


@pytest.mark.parametrize(
    ("shown", "folded"),
    [
        ("Send", "send"),
        ("S\u0435nd", "send"),  # Cyrillic small ie
        ("\u0405\u0435nd", "send"),  # Cyrillic capital dze and small ie
        ("\u0421lose", "close"),  # Cyrillic capital es
        ("D\u0435l\u0435t\u0435", "delete"),
        ("\u039fverwrite", "overwrite"),  # Greek capital omicron
        ("\u03a1ause", "pause"),  # Greek capital rho looks like a P, not an R
        ("Rep\u0142ace", "rep\u0142ace"),  # a Polish l with stroke is a letter of its own
        ("De\u200blete", "delete"),  # zero-width space
        ("Se\u200dn\u2060d", "send"),  # zero-width joiner, word joiner
        ("\ufeffSend", "send"),  # byte-order mark
        ("Dis\u00adcard", "discard"),  # soft hyphen
        ("\u202eSend", "send"),  # right-to-left override
        ("S\u0065\u0301nd", "send"),  # e with a combining acute accent
        ("S\u00e9nd", "send"),  # precomposed e with acute
        ("\uff24\uff45\uff4c\uff45\uff54\uff45", "delete"),  # full-width letters
        ("\U0001d412\U0001d41e\U0001d427\U0001d41d", "send"),  # mathematical bold letters
        ("Don't Save", "dont save"),
        ("Dont Save", "dont save"),
        ("Don\u2019t Save", "dont save"),
        ("Don\u02bct Save", "dont save"),  # modifier letter apostrophe
        ("Don\u00b4t Save", "dont save"),  # acute accent typed as an apostrophe
        ("Don\uff07t Save", "dont save"),  # full-width apostrophe
        ("_Don't Save", "dont save"),  # GTK mnemonic marker
        ("&Replace", "replace"),  # Qt mnemonic marker
        ("\uff3fReplace", "replace"),  # full-width low line
        ("  Throw\u00a0Away \t Changes ", "throw away changes"),  # no-break space, tab
        ("Close\u3000without Saving", "close without saving"),  # ideographic space
        ("STRASSE", "strasse"),
        ("Stra\u00dfe", "strasse"),  # case folding, not just lower case
    ],
)
def test_labels_a_person_reads_alike_fold_to_one_form(shown: str, folded: str) -> None:
    assert fold_label(shown) == folded


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Send", "Sand"),
        ("Save", "Don't Save"),
        ("Replace", "Rep1ace"),  # a digit one is not an l
        ("Delete", "Deleted"),
        ("Sender", "Send"),
    ],
)
def test_different_words_stay_different(first: str, second: str) -> None:
    assert fold_label(first) != fold_label(second)


def test_a_label_of_invisible_characters_folds_to_nothing() -> None:
    assert fold_label("\u200b\u200c\ufeff _ ") == ""


def test_titles_keep_their_ampersands_and_underscores() -> None:
    """Mnemonic markers exist in labels only: a title "Find & Replace" keeps its "&"."""
    assert fold_text("Find & R\u0435place") == "find & replace"
    assert fold_text("my_notes.txt - Mousepad") == "my_notes.txt - mousepad"


def test_folding_twice_changes_nothing() -> None:
    for label in ("S\u0435nd \u200bNow", "_Don\u2019t Save", "\uff24elete"):
        assert fold_label(fold_label(label)) == fold_label(label)


def test_patterns_lose_their_apostrophes_only() -> None:
    assert fold_pattern(r"don't save") == "dont save"
    assert fold_pattern("Don\u2019t \\S+") == "Dont \\S+"  # escapes and case untouched
