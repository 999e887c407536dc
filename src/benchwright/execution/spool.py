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
        self._lengths = array("q")
        self._sorted = True
        self._passed = 0
        self._harness_failed = 0

    def tally(self) -> tuple[int, int]:
        """(passed, harness-failed) runs, counted on the way in (`GateResult` asks)."""
        return self._passed, self._harness_failed

    def append(self, position: int, run: RunResult) -> None:
        """Store ``run`` as the one at ``position`` of the final order."""
        self._file.seek(0, 2)
        if self._positions and position < self._positions[-1]:
            self._sorted = False
        record = pickle.dumps(run, protocol=pickle.HIGHEST_PROTOCOL)
        self._passed += run.passed
        self._harness_failed += run.harness_failed
        self._positions.append(position)
        self._offsets.append(self._file.tell())
        self._lengths.append(len(record))
        self._file.write(record)

    def __len__(self) -> int:
        return len(self._offsets)

    @overload
    def __getitem__(self, index: int) -> RunResult: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[RunResult]: ...
    def __getitem__(self, index: int | slice) -> RunResult | Sequence[RunResult]:
        self._order()
        if isinstance(index, slice):
            return [self._read(n) for n in range(len(self))[index]]
        return self._read(range(len(self))[index])

    def __iter__(self) -> Iterator[RunResult]:
        self._order()
        for n in range(len(self)):
            yield self._read(n)

    def _read(self, n: int) -> RunResult:
        """One record read whole, then unpickled (faster than unpickling from the file)."""
        self._file.seek(self._offsets[n])
        run: RunResult = pickle.loads(self._file.read(self._lengths[n]))
        return run

    def _order(self) -> None:
        if not self._sorted:
            order = sorted(range(len(self)), key=self._positions.__getitem__)
            for name in ("_positions", "_offsets", "_lengths"):
                column = getattr(self, name)
                setattr(self, name, array("q", (column[n] for n in order)))
            self._sorted = True
