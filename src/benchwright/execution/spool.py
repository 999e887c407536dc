"""Finished runs kept on disk and read back when a report asks: a gate's memory stays
flat however many tasks it grades.

A graded static task's `RunResult` takes about 3 KiB of Python objects, so a gate over
5,000 tasks held 15 MiB of results until its report was written. Spooled, it holds
one offset per task; reports read the runs back in order, one at a time.
"""

from __future__ import annotations

import pickle
import tempfile
from array import array
from collections.abc import Iterator, Sequence
from typing import overload

from benchwright.model import RunResult


class SpooledRuns(Sequence[RunResult]):
    """Runs appended in any order with their position; read back in position order.

    The file is an anonymous temporary file (gone when the process ends); it holds
    results this process produced, so unpickling it trusts nothing from outside.
    """

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="benchwright-runs-")  # noqa: SIM115 - as long as self
        self._positions = array("q")
        self._offsets = array("q")
        self._sorted = True

    def append(self, position: int, run: RunResult) -> None:
        """Store ``run`` as the one at ``position`` of the final order."""
        self._file.seek(0, 2)
        if self._positions and position < self._positions[-1]:
            self._sorted = False
        self._positions.append(position)
        self._offsets.append(self._file.tell())
        pickle.dump(run, self._file, protocol=pickle.HIGHEST_PROTOCOL)

    def __len__(self) -> int:
        return len(self._offsets)

    @overload
    def __getitem__(self, index: int) -> RunResult: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[RunResult]: ...
    def __getitem__(self, index: int | slice) -> RunResult | Sequence[RunResult]:
        self._order()
        if isinstance(index, slice):
            return [self._read(offset) for offset in self._offsets[index]]
        return self._read(self._offsets[index])

    def __iter__(self) -> Iterator[RunResult]:
        self._order()
        for offset in self._offsets:
            yield self._read(offset)

    def _read(self, offset: int) -> RunResult:
        self._file.seek(offset)
        run: RunResult = pickle.load(self._file)
        return run

    def _order(self) -> None:
        if not self._sorted:
            pairs = sorted(zip(self._positions, self._offsets, strict=True))
            self._positions = array("q", (p for p, _ in pairs))
            self._offsets = array("q", (o for _, o in pairs))
            self._sorted = True
