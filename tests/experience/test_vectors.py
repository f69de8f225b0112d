"""The FAISS-backed cosine index: nearest neighbours, limits, round trip through bytes."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from pcagent.experience.vectors import VectorIndex


def _unit_rows(count: int, dim: int, seed: int = 0) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(count, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_nearest_neighbour_and_cosine_scores() -> None:
    rows = _unit_rows(200, 16)
    index = VectorIndex(16)
    index.add(range(1000, 1200), rows)
    assert len(index) == 200 and 1042 in index and 42 not in index
    query = rows[42] + 0.05 * _unit_rows(1, 16, seed=1)[0]
    hits = index.search(query, 5)
    assert hits[0][0] == 1042
    expected = rows @ (query / np.linalg.norm(query))
    best = np.argsort(-expected)[:5]
    assert [item for item, _ in hits] == [1000 + int(i) for i in best]
    np.testing.assert_allclose([score for _, score in hits], expected[best], atol=1e-5)


def test_vectors_are_compared_by_direction_only() -> None:
    index = VectorIndex(3)
    index.add([1, 2], np.array([[10.0, 0.0, 0.0], [0.0, 0.5, 0.0]]))
    [(item, score)] = index.search(np.array([0.0, 3.0, 0.0]), 1)
    assert item == 2 and score == pytest.approx(1.0)


def test_k_larger_than_the_index_and_empty_index() -> None:
    index = VectorIndex(4)
    assert index.search(np.ones(4), 3) == []
    index.add([7, 8], np.eye(4)[:2])
    hits = index.search(np.array([1.0, 0.2, 0.0, 0.0]), 10)
    assert [item for item, _ in hits] == [7, 8]
    assert index.search(np.ones(4), 0) == []


def test_round_trip_through_bytes_and_sqlite() -> None:
    rows = _unit_rows(50, 32)
    index = VectorIndex(32)
    index.add(list(range(50)), rows)
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE TABLE indexes (blob BLOB)")
        db.execute("INSERT INTO indexes VALUES (?)", (index.to_bytes(),))
        (blob,) = db.execute("SELECT blob FROM indexes").fetchone()
    restored = VectorIndex.from_bytes(blob)
    assert len(restored) == 50 and restored.dim == 32 and 49 in restored
    for query in _unit_rows(10, 32, seed=3):
        assert restored.search(query, 7) == index.search(query, 7)
    restored.add([50], _unit_rows(1, 32, seed=4))
    assert len(restored) == 51 and len(index) == 50
    with pytest.raises(ValueError, match="not a serialised vector index"):
        VectorIndex.from_bytes(b"not an index")


def test_wrong_dimensions_and_ids_are_value_errors() -> None:
    index = VectorIndex(8)
    with pytest.raises(ValueError, match="8 dimensions"):
        index.add([1], np.ones((1, 7)))
    with pytest.raises(ValueError, match="8 dimensions"):
        index.search(np.ones(9), 1)
    with pytest.raises(ValueError, match="2 ids for 1 vectors"):
        index.add([1, 2], np.ones((1, 8)))
    with pytest.raises(ValueError, match="zero vector"):
        index.add([1], np.zeros((1, 8)))
    index.add([1], np.ones((1, 8)))
    with pytest.raises(ValueError, match="already there: \\[1\\]"):
        index.add([1], np.ones((1, 8)))
    with pytest.raises(ValueError, match="distinct"):
        index.add([2, 2], np.ones((2, 8)))
    with pytest.raises(ValueError, match="positive"):
        VectorIndex(0)
    assert len(index) == 1
