"""What a boot looked like, and the boot ladder it earned — pure, no processes.

The ladder is the seed's ``server_runs`` rungs (sb-6): healthy within the rung
(5 s) is 1.0, healthy later but inside the budget (25 s) 0.75, the port answered
but health never said 200 0.4, the process alive after the rung without ever
binding 0.15, and a crash at boot 0.0 with the last line of its output quoted (the
whole tail stays on the observation, to be shown once: a traceback repeated in every
row that depends on the boot buries the one line that says why). More progress ranks
higher: a process that answered 500 and then died earns 0.4.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class BootPolicy:
    """How long and how often readiness is polled. Defaults are the seed's (sb-6)."""

    poll_s: float = 0.4
    """Interval between the starts of two health polls."""
    budget_s: float = 25.0
    """Give up polling after this long; the process is left running for the caller."""
    rung_s: float = 5.0
    """Healthy within this many seconds earns the top rung; alive this long earns 0.15."""
    request_timeout_s: float = 2.0
    """One health request's timeout (never beyond the budget's end)."""
    require_json: bool = True
    """A 200 counts as healthy only with a JSON body (sb-6 ``/api/health``); False for a
    health path that serves HTML (sb-7 ``GET /``)."""
    tail_bytes: int = 800
    """How much of the end of the app's output an observation keeps."""


@dataclass(frozen=True, slots=True)
class BootObservation:
    """One boot (or restart) of the app: what was seen, and the ladder value it earns."""

    ladder: float
    detail: str
    """Names the rung, e.g. ``"1.0: healthy in 1.3 s (rung <= 5 s)"``."""
    healthy_after_s: float | None
    bound: bool
    """A TCP connection to the port was accepted at least once."""
    statuses: tuple[int, ...]
    """Distinct HTTP statuses the health path answered, in the order first seen."""
    exit_code: int | None
    """None while running; negative for a signal, as in ``subprocess``."""
    exited_after_s: float | None
    output_tail: bytes
    health_body: bytes | None
    """Body of the last health answer (the healthy one when the app became healthy)."""
    port: int
    log_path: Path


def boot_ladder(
    *,
    healthy_after_s: float | None,
    bound: bool,
    statuses: tuple[int, ...] = (),
    exit_code: int | None = None,
    exited_after_s: float | None = None,
    output_tail: bytes = b"",
    policy: BootPolicy | None = None,
) -> tuple[float, str]:
    """The ladder value and a detail naming the rung, what was expected and what was seen."""
    p = policy or BootPolicy()
    if healthy_after_s is not None:
        if healthy_after_s <= p.rung_s:
            return 1.0, f"1.0: healthy in {healthy_after_s:.1f} s (rung <= {p.rung_s:g} s)"
        return 0.75, (
            f"0.75: healthy in {healthy_after_s:.1f} s "
            f"(rung <= {p.budget_s:g} s; top rung <= {p.rung_s:g} s)"
        )
    ended = _ending(exit_code, exited_after_s)
    if bound:
        seen = ", ".join(map(str, statuses)) or "no HTTP response"
        if 200 in statuses and p.require_json:
            seen += " (a 200 came without a JSON body)"
        return 0.4, (
            f"0.4: port answered but health never returned 200 within {p.budget_s:g} s "
            f"(statuses seen: {seen}; {ended})"
        )
    if exited_after_s is None or exited_after_s > p.rung_s:
        return 0.15, f"0.15: alive after {p.rung_s:g} s but never bound the port ({ended})"
    return 0.0, f"0.0: crashed at boot ({ended}); last output: {last_line(output_tail)}"


def boot_headline(boot: BootObservation) -> str | None:
    """One line saying why the app never became healthy (None when it did), e.g.
    ``app exited 1 at boot: ModuleNotFoundError: No module named 'nope'``."""
    if boot.healthy_after_s is not None:
        return None
    if boot.exit_code is None:
        return f"app never became healthy at boot: {boot.detail.split(': ', 1)[-1]}"
    code = boot.exit_code
    how = f"killed by signal {-code}" if code < 0 else f"exited {code}"
    return f"app {how} at boot: {last_line(boot.output_tail)}"


def _ending(exit_code: int | None, exited_after_s: float | None) -> str:
    if exit_code is None or exited_after_s is None:
        return "still running"
    how = f"killed by signal {-exit_code}" if exit_code < 0 else f"exited with code {exit_code}"
    return f"{how} after {exited_after_s:.1f} s"


def last_line(tail: bytes) -> str:
    """The last non-blank line of the app's output (a traceback's exception), or
    ``(no output)``."""
    lines = [ln.strip() for ln in tail.decode("utf-8", errors="replace").splitlines()]
    return next((ln for ln in reversed(lines) if ln), "(no output)")
