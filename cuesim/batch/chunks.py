"""Which chunks of a run are done and which are left, held in memory that does not grow with
the number of chunks: a run of 10^12 shots has 5 * 10^8 chunks, which a list of their indices
(or a set of those done) could not hold."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from numbers import Integral
from typing import Any


class ChunkRanges:
    """A set of chunk indices kept as sorted, disjoint, non-adjacent ranges [a, b): chunks end
    nearly in order, so a long run is a few ranges whatever its length."""

    def __init__(self, ranges: Iterable[tuple[int, int]] = ()) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._count = 0
        for a, b in sorted((int(a), int(b)) for a, b in ranges):
            if b > a:
                self._insert_range(a, b)

    def _insert_range(self, a: int, b: int) -> None:
        """Add [a, b), starting at or after every range held so far (ranges given sorted)."""
        if self._ends and a <= self._ends[-1]:
            if b > self._ends[-1]:
                self._count += b - self._ends[-1]
                self._ends[-1] = b
            return
        self._starts.append(a)
        self._ends.append(b)
        self._count += b - a

    def add(self, c: int) -> None:
        if c in self:
            return
        k = bisect_right(self._starts, c)  # ranges before k start at or below c
        joins_left = k > 0 and self._ends[k - 1] == c
        joins_right = k < len(self._starts) and self._starts[k] == c + 1
        if joins_left and joins_right:
            self._ends[k - 1] = self._ends.pop(k)
            del self._starts[k]
        elif joins_left:
            self._ends[k - 1] = c + 1
        elif joins_right:
            self._starts[k] = c
        else:
            self._starts.insert(k, c)
            self._ends.insert(k, c + 1)
        self._count += 1

    def __contains__(self, c: object) -> bool:
        if not isinstance(c, Integral):
            return False
        k = bisect_right(self._starts, c)
        return k > 0 and c < self._ends[k - 1]

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[int]:
        for a, b in zip(self._starts, self._ends, strict=True):
            yield from range(a, b)

    def count_below(self, n: int) -> int:
        """How many of the chunks are in 0..n-1."""
        return sum(max(0, min(b, n) - max(a, 0)) for a, b in zip(self._starts, self._ends,
                                                                   strict=True))

    def gaps(self, n: int) -> Iterator[int]:
        """The chunks of 0..n-1 not held, in order."""
        at = 0
        for a, b in zip(self._starts, self._ends, strict=True):
            yield from range(at, min(a, n))
            at = max(at, b)
        yield from range(at, n)

    def ranges(self) -> list[list[int]]:
        return [[a, b] for a, b in zip(self._starts, self._ends, strict=True)]


class Todo:
    """The chunks 0..n_chunks-1 not in `done` (a set or ChunkRanges), in order, each made as
    it is read; its length is known at once."""

    def __init__(self, n_chunks: int, done: Any) -> None:
        self.n_chunks, self.done = n_chunks, done
        if isinstance(done, ChunkRanges):
            self.n_done = done.count_below(n_chunks)
        else:
            self.n_done = sum(1 for c in done if 0 <= c < n_chunks)

    def __len__(self) -> int:
        return self.n_chunks - self.n_done

    def __iter__(self) -> Iterator[int]:
        if isinstance(self.done, ChunkRanges):
            return self.done.gaps(self.n_chunks)
        return (c for c in range(self.n_chunks) if c not in self.done)

    def __contains__(self, c: object) -> bool:
        return isinstance(c, Integral) and 0 <= c < self.n_chunks and c not in self.done
