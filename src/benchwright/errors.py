"""Errors the CLI maps to exit codes.

Exit codes (`EXIT_CODES`, the README's table): 0 passed, 1 failed, 2 invalid input,
3 harness failure or refused, 130 interrupted.
"""

from __future__ import annotations

from collections.abc import Sequence

EXIT_PASSED = 0
EXIT_FAILED = 1
EXIT_INVALID = 2
EXIT_HARNESS = 3
EXIT_REFUSED = 3
"""Same code as a harness failure (the methodology's freeze-gate exit): no trustworthy
verdict was produced, and a CI job must not read it as a failed check."""
EXIT_INTERRUPTED = 130
"""128 + SIGINT, as a shell reports Ctrl-C; SIGTERM and SIGHUP are handled the same way."""

EXIT_CODES: tuple[tuple[int, str, str], ...] = (
    (EXIT_PASSED, "passed", "nothing failed (`grade`: the grading completed and printed its "
     "scorecard, whatever the score)"),
    (EXIT_FAILED, "failed", "some check or task failed, or an audit expectation (a control, "
     "the severity order)"),
    (EXIT_INVALID, "invalid input", "nothing ran; the message names the file and the field"),
    (EXIT_HARNESS, "harness failure", "the harness itself failed (a phase raised, no sandbox "
     "here, an internal error, an interrupted `gate`)"),
    (EXIT_REFUSED, "refused", "no number it can stand behind: the freeze gate (`--reference`, "
     "`scorer freeze`) refuses, a thresholds file breaks its pin"),
    (EXIT_INTERRUPTED, "interrupted", "`run` stopped by Ctrl-C, SIGTERM or SIGHUP: finished "
     "trials are kept, `run --resume` continues"),
)  # fmt: skip
"""(code, name, meaning) for every exit code, in the order README.md's table lists them;
``tests/test_cli_exit_codes.py`` holds the README to it."""


class BenchwrightError(Exception):
    """Base of every error benchwright reports to a user instead of a traceback."""

    exit_code = EXIT_HARNESS

    def lines(self) -> list[str]:
        """One line per problem, each naming where it is."""
        return [str(self)]


class SpecError(BenchwrightError):
    """Invalid input: a task, trajectory, manifest or config file that cannot be used.

    Carries every problem found in one file so the author fixes them in one pass.
    """

    exit_code = EXIT_INVALID

    def __init__(self, source: str, problems: Sequence[tuple[str, str]]) -> None:
        self.source = source
        self.problems = list(problems)
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        return [
            f"{self.source}: {field}: {message}" if field else f"{self.source}: {message}"
            for field, message in self.problems
        ]

    @classmethod
    def single(cls, source: str, message: str, field: str = "") -> SpecError:
        return cls(source, [(field, message)])


class SpecErrors(BenchwrightError):
    """Several files' problems, reported together (``validate`` over a directory)."""

    exit_code = EXIT_INVALID

    def __init__(self, errors: Sequence[SpecError]) -> None:
        self.errors = list(errors)
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        return [line for error in self.errors for line in error.lines()]


class HarnessError(BenchwrightError):
    """The harness could not do its job (disk full, a temp dir it cannot create)."""

    exit_code = EXIT_HARNESS


class RefusedError(BenchwrightError):
    """benchwright will not produce a number it cannot stand behind (a broken pin,
    a reference that fails the freeze gate, a scorer that fails its selftest)."""

    exit_code = EXIT_REFUSED

    def __init__(self, message: str, reasons: Sequence[str] = ()) -> None:
        self.reasons = list(reasons)
        super().__init__(message)

    def lines(self) -> list[str]:
        return [str(self), *(f"  {reason}" for reason in self.reasons)]
