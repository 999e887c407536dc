"""Run a table of requests (a validation or auth matrix) and keep every answer.

The cells carry no expectations: which status a cell should get is the check's
business, so one run can feed several checks (status codes to one, the error
envelope's shape to another) without being graded twice by the instrument.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from benchwright.errors import HarnessError
from benchwright.probes.http._observe import DEFAULT_TIMEOUT_S, HttpObservation, client, fetch


@dataclass(frozen=True, slots=True)
class MatrixCell:
    """One request of a matrix, named so checks can find its answer."""

    name: str
    path: str
    method: str = "GET"
    json: Any = None
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class MatrixObservation:
    """Every cell with the answer it got, in the order the cells were given."""

    results: tuple[tuple[MatrixCell, HttpObservation], ...]

    def get(self, name: str) -> HttpObservation:
        for cell, observation in self.results:
            if cell.name == name:
                return observation
        known = ", ".join(cell.name for cell, _ in self.results)
        raise KeyError(f"no matrix cell {name!r}; cells: {known}")


def run_matrix(
    base_url: str, cells: Iterable[MatrixCell], *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> MatrixObservation:
    """Send each cell's request once, in order."""
    cells = tuple(cells)
    names = [cell.name for cell in cells]
    if len(set(names)) != len(names):
        raise HarnessError(f"matrix cell names must be unique: {names}")
    with client(base_url, timeout_s) as http:
        return MatrixObservation(
            tuple(
                (
                    cell,
                    fetch(
                        http,
                        cell.path,
                        method=cell.method,
                        json=cell.json,
                        headers=dict(cell.headers),
                    ),
                )
                for cell in cells
            )
        )
