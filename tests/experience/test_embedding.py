"""The numpy sentence encoder on the real all-MiniLM-L6-v2 weights.

Reference values: the token ids of BERT's uncased vocabulary, and the cosine similarities that the
sentence-transformers documentation prints for this model in its paraphrase-mining example (to
four decimals). A wrong layer, pooling or attention mask moves those by far more than 1e-4.
"""

from __future__ import annotations

import numpy as np
import pytest

from pcagent.experience.embedding import SentenceEncoder


@pytest.fixture
def encoder(shared_encoder: SentenceEncoder) -> SentenceEncoder:
    """The real encoder, loaded once per session (conftest.py)."""
    return shared_encoder


SCREENS = [
    "app: mail; window: Write: Quarterly report; marks: To, Subject, Send",
    "app: mail; window: Write: (no subject); marks: To, Cc, Subject, Send",
    "app: calc; window: Budget.ods; marks: A1, Sum, Save",
    "Set an alarm for 7:30 in the clock app",
    "",
    "a much longer instruction that goes on " * 8,
]


def test_token_ids_are_bert_uncased(encoder: SentenceEncoder) -> None:
    assert encoder.token_ids("Hello world") == [101, 7592, 2088, 102]
    assert encoder.token_ids("HELLO World") == [101, 7592, 2088, 102]  # lower-cased
    assert encoder.token_ids("") == [101, 102]


def test_long_texts_are_cut_at_max_seq_length(encoder: SentenceEncoder) -> None:
    assert encoder.max_seq_length == 256
    ids = encoder.token_ids("word " * 1000)
    assert len(ids) == 256 and ids[0] == 101 and ids[-1] == 102
    assert encoder.encode(["word " * 1000]).shape == (1, 384)


def test_rows_are_unit_length_float32_and_deterministic(encoder: SentenceEncoder) -> None:
    vectors = encoder.encode(SCREENS)
    assert encoder.dim == 384
    assert vectors.shape == (len(SCREENS), 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(encoder.encode(SCREENS), vectors)
    assert encoder.encode([]).shape == (0, 384)
    with pytest.raises(TypeError, match="sequence of texts"):
        encoder.encode("a single text")


def test_a_batch_equals_one_by_one(encoder: SentenceEncoder) -> None:
    """Texts of very different lengths share a padded batch: the mask must hide the padding."""
    texts = SCREENS * 7  # more than one batch of 32
    together = encoder.encode(texts)
    alone = np.vstack([encoder.encode([text]) for text in texts])
    np.testing.assert_allclose(together, alone, atol=1e-5)


@pytest.mark.parametrize(
    ("first", "second", "published"),
    [
        ("The new movie is awesome", "The new movie is so great", 0.8939),
        ("The cat sits outside", "The cat plays in the garden", 0.6788),
        ("I love pasta", "Do you like pizza?", 0.5096),
        ("I love pasta", "The new movie is so great", 0.2560),
        ("A man is playing guitar", "The cat plays in the garden", 0.2105),
        ("The cat sits outside", "A woman watches TV", 0.1310),
        ("The cat plays in the garden", "Do you like pizza?", 0.0900),
    ],
)
def test_cosines_match_the_published_ones(
    encoder: SentenceEncoder, first: str, second: str, published: float
) -> None:
    a, b = encoder.encode([first, second])
    assert float(a @ b) == pytest.approx(published, abs=1e-4)


@pytest.mark.parametrize(
    ("anchor", "near", "far"),
    [
        (
            "Set an alarm for 7:30 in the clock app",
            "Add a new alarm at 07:30",
            "Send the spreadsheet to Howie by mail",
        ),
        (
            "Send the spreadsheet to Howie by mail",
            "Compose an email to Howie with the spreadsheet attached",
            "Set an alarm for 7:30 in the clock app",
        ),
        (
            "app: mail; window: Write: Quarterly report; marks: To, Subject, Send",
            "app: mail; window: Write: (no subject); marks: To, Cc, Subject, Send",
            "app: calc; window: Budget.ods; marks: A1, Sum, Save",
        ),
        (
            "Rename the file report.txt to summary.txt in the file manager",
            "Change the name of report.txt to summary.txt",
            "Make the first row of the table bold",
        ),
    ],
)
# Measured (anchor·near, anchor·far): (0.747, 0.114), (0.848, 0.114), (0.802, 0.424), (0.905, 0.056).
def test_similar_texts_are_nearer(
    encoder: SentenceEncoder, anchor: str, near: str, far: str
) -> None:
    a, n, f = encoder.encode([anchor, near, far])
    assert float(a @ n) > float(a @ f) + 0.2


def test_paraphrase_and_unrelated_bounds(encoder: SentenceEncoder) -> None:
    alarm, paraphrase, unrelated = encoder.encode(
        [
            "Set an alarm for 7:30 in the clock app",
            "Add a new alarm at 07:30",
            "The stock market fell sharply today",
        ]
    )
    assert float(alarm @ paraphrase) > 0.6  # measured 0.747
    assert float(alarm @ unrelated) < 0.3  # measured 0.005
