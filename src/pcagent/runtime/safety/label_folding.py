"""One comparable form for the labels and titles the safety guard matches.

A label on the screen is whatever text an application, a document or a web page chose to show, so
the same word can arrive in many spellings that a person reads alike: "Don't Save" with a curly
apostrophe or none, "Sеnd" with a Cyrillic "е", "De\u200blete" with a zero-width space inside,
"Ｄｅｌｅｔｅ" in full-width letters, "_Replace" with a GTK mnemonic marker. A rule written once
must match all of them, so every comparison the guard makes goes through :func:`fold_label`
(labels) or :func:`fold_text` (window titles), and rule patterns through :func:`fold_pattern`.

Folding, in order:

1. NFKC (compatibility forms: full-width and styled letters, ligatures, non-breaking spaces);
2. format characters removed (Unicode category Cf: zero-width spaces and joiners, the byte-order
   mark, soft hyphens, direction marks), and combining marks removed ("Sénd" reads as "Send");
3. letters of other scripts that look like Latin letters replaced by those letters
   (:data:`LOOK_ALIKES`: Cyrillic and Greek);
4. case folded, apostrophes of every kind removed ("Dont Save", "Don't Save" and
   "Don’t Save" are one label), any run of whitespace made one space.

The folded form is for comparison only; what people read (reasons, questions) keeps the label as
the screen showed it.
"""

from __future__ import annotations

import unicodedata

#: Cyrillic and Greek letters drawn like a Latin letter in common fonts, and that letter. Upper
#: and lower case are listed apart: Greek capital Nu looks like "N" but its small form like "v".
#: Letters with diacritics need no entry ("ё" is "е" once combining marks are gone).
LOOK_ALIKES: dict[str, str] = {
    # Cyrillic, small
    "а": "a", "в": "b", "г": "r", "д": "d", "е": "e", "к": "k", "м": "m", "н": "h",
    "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ь": "b",
    "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w",
    "ү": "y",
    # Cyrillic, capital
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H",
    "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I",
    "Ј": "J", "Ԁ": "D", "Һ": "H", "Ӏ": "I", "Ԛ": "Q", "Ԝ": "W", "Ү": "Y",
    # Greek, small
    "α": "a", "β": "b", "γ": "y", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w",
    # Greek, capital
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
}  # fmt: skip
_LOOK_ALIKE_TABLE = str.maketrans(LOOK_ALIKES)

#: Characters people and applications write for an apostrophe: straight, curly,
#: the modifier letter, grave and acute accents, the prime.
APOSTROPHES = "'\u2018\u2019\u201b\u02bc\u02b9\u0060\u00b4\u2032"
_NO_APOSTROPHES = str.maketrans("", "", APOSTROPHES)

#: Mnemonic markers toolkits put before the access letter: ``_Save`` (GTK), ``&Save`` (Qt, VCL).
MNEMONIC_MARKERS = "_&~"
_NO_MNEMONICS = str.maketrans("", "", MNEMONIC_MARKERS)


def fold_text(text: str) -> str:
    """``text`` in the comparable form described in the module docstring (window titles)."""
    decomposed = unicodedata.normalize("NFD", _compatibility_form(text))
    kept = "".join(
        char for char in decomposed if unicodedata.category(char) not in ("Cf", "Mn", "Me")
    )
    latin = unicodedata.normalize("NFC", kept).translate(_LOOK_ALIKE_TABLE)
    return " ".join(latin.casefold().translate(_NO_APOSTROPHES).split())


def fold_label(label: str) -> str:
    """A command's label in comparable form: :func:`fold_text` with mnemonic markers removed."""
    # After NFKC, so that a full-width "＿" or "＆" is a marker too.
    return fold_text(_compatibility_form(label).translate(_NO_MNEMONICS))


def _compatibility_form(text: str) -> str:
    # Apostrophes go before NFKC too: it turns the acute accent into a space and a combining mark.
    return unicodedata.normalize("NFKC", text.translate(_NO_APOSTROPHES))


def fold_pattern(pattern: str) -> str:
    """A rule's regular expression as it must be written to meet folded labels: apostrophes
    removed (they have no meaning in a regular expression), so ``don't save`` and ``dont save``
    are one pattern. Case needs no folding: patterns are matched ignoring case."""
    return pattern.translate(_NO_APOSTROPHES)
