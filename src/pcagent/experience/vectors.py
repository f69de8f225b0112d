"""A cosine-similarity vector index over FAISS, small enough to store in one SQLite blob.

Exact search (``IndexFlatIP``): the memories of recorded runs number in the thousands, where a
brute-force scan takes well under a millisecond and needs no training. Every vector is scaled to
unit length on the way in, so the inner product FAISS returns is the cosine similarity. Ids are
the caller's (row ids of a table, say), kept by ``IndexIDMap2``.
"""

from __future__ import annotations

from collections.abc import Sequence

import faiss
import numpy as np


class VectorIndex:
    """Nearest neighbours by cosine similarity among vectors of one dimension, each with an id."""

    def __init__(self, dim: int) -> None:
        if dim <= 0:
            raise ValueError(f"the dimension must be positive, not {dim}")
        self._index = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
        self._ids: set[int] = set()

    @property
    def dim(self) -> int:
        """Length of the vectors this index holds."""
        return int(self._index.d)

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._ids

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Add one row of ``vectors`` (shape ``(len(ids), dim)``) per id.

        Raises ``ValueError`` on a shape that does not fit, a zero or non-finite vector, or an id
        already in the index (or repeated in ``ids``).
        """
        rows = self._rows(vectors)
        if rows.shape[0] != len(ids):
            raise ValueError(f"{len(ids)} ids for {rows.shape[0]} vectors")
        new_ids = [int(item) for item in ids]
        repeated = sorted({item for item in new_ids if item in self._ids})
        if repeated or len(set(new_ids)) != len(new_ids):
            raise ValueError(f"ids must be new and distinct; already there: {repeated[:10]}")
        if not new_ids:
            return
        self._index.add_with_ids(rows, np.asarray(new_ids, dtype=np.int64))
        self._ids.update(new_ids)

    def search(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` nearest ids with their cosine similarity, most similar first.

        ``vector`` has shape ``(dim,)`` or ``(1, dim)``. Fewer than ``k`` come back when the index
        holds fewer; an empty index gives ``[]``. Raises ``ValueError`` on a wrong dimension.
        """
        query = self._rows(vector)
        if query.shape[0] != 1:
            raise ValueError(f"search takes one vector, got {query.shape[0]}")
        if k <= 0 or not len(self):
            return []
        scores, ids = self._index.search(query, min(k, len(self)))
        return [
            (int(item), float(score))
            for item, score in zip(ids[0], scores[0], strict=True)
            if item != -1
        ]

    def to_bytes(self) -> bytes:
        """The whole index (vectors and ids) as bytes, for a BLOB column or a file."""
        return faiss.serialize_index(self._index).tobytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> VectorIndex:
        """An index read back from :meth:`to_bytes`. Raises ``ValueError`` on other bytes."""
        try:
            index = faiss.deserialize_index(np.frombuffer(data, dtype=np.uint8).copy())
        except RuntimeError as error:
            raise ValueError(f"not a serialised vector index: {error}") from error
        if not isinstance(index, faiss.IndexIDMap2):
            raise ValueError(f"not a serialised vector index: a {type(index).__name__}")
        restored = cls.__new__(cls)
        restored._index = index
        restored._ids = {int(item) for item in faiss.vector_to_array(index.id_map)}
        return restored

    def _rows(self, vectors: np.ndarray) -> np.ndarray:
        rows = np.asarray(vectors, dtype=np.float32)
        if rows.ndim == 1:
            rows = rows[None, :]
        if rows.ndim != 2 or rows.shape[1] != self.dim:
            raise ValueError(
                f"vectors must have {self.dim} dimensions; got an array of shape {np.shape(vectors)}"
            )
        if not np.isfinite(rows).all():
            raise ValueError("vectors must be finite")
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        if (norms == 0).any():
            raise ValueError("a zero vector has no direction to compare")
        return np.ascontiguousarray(rows / norms, dtype=np.float32)
