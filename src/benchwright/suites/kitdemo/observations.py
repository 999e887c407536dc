"""What kitdemo's phases saw, one frozen type per phase (the boot's is the kit's
`kinds.BootObs`); the record is the kit's `PhaseLog`.

The app's misbehaviour is *in* these (a 500, a missing field, a refused request); the
checks judge them and never do I/O, so a check's test is a canned observation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchwright.services.app import BootObservation


@dataclass(frozen=True)
class Answer:
    """One request's answer: its status (None: no answer) and JSON body (None: not JSON)."""

    status: int | None
    body: Any

    def get(self, key: str) -> Any:
        """``body[key]`` when the body is an object, else None."""
        return self.body.get(key) if isinstance(self.body, dict) else None


@dataclass(frozen=True)
class StaticObs:
    main_source: str | None
    """``kitdemo/__main__.py`` as text; None when it is not there."""


@dataclass(frozen=True)
class NotesObs:
    created: tuple[Answer, ...]
    """One answer per note in `phases.NOTES`, in that order."""
    listed: Answer


@dataclass(frozen=True)
class ErrorsObs:
    bad_posts: tuple[Answer, ...]
    """One answer per body in `phases.BAD_BODIES`."""
    missing: Answer


@dataclass(frozen=True)
class RestartObs:
    before: Answer
    boot: BootObservation
    after: Answer
