"""Bounds on what a URL may ask of the board (path parts and query parameters).

Every number and name in a URL reaches a database query, where an unbounded one used to
be a 500: ``?page=`` past 64 bits overflows SQLite's offset, a screenshot number past 32
bits PostgreSQL's integer, a NUL byte in a run id is refused by PostgreSQL's driver.
Each is bounded here, and the app answers a value past its bound 422 ``invalid_request``
naming the parameter (``query.page: Input should be less than or equal to 1000000``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

from benchwright.board.payload import COUNT_MAX, VERSION_MAX

MAX_PAGE = 1_000_000
"""The last page anyone may ask for: 50 million entries at 50 a page."""
RUN_ID_MAX = 64

RunId = Annotated[str, Path(max_length=RUN_ID_MAX, pattern=r"^[A-Za-z0-9._-]+$")]
"""A run id as the board makes them (16 hex digits; ``baseline-claude-opus-5``)."""
ScreenshotNumber = Annotated[int, Path(ge=0, le=COUNT_MAX)]
PageNumber = Annotated[int, Query(ge=1, le=MAX_PAGE)]
Version = Annotated[str | None, Query(max_length=VERSION_MAX, pattern=r"^[^\x00]*$")]
"""A scorer version to show (never more than a stored one holds, never a NUL byte)."""
