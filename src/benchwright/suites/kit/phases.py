"""Phases of an executed-app grading: what one is, what its run left, and which ones run.

A phase is ``(ctx, observations) -> observation``; the runner appends each result to
the record under the phase's name. A suite lists its phases in its canonical order;
a caller may ask for some of them by name (and for parts of a phase that has them:
``browser:load+viz``), and the suite's always-with-app phases
(its boot: nothing runs unbooted; its trace: what several checks read) join any
selection that touches the app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from benchwright.errors import SpecError


@dataclass(frozen=True)
class Phase:
    name: str
    run: Callable[..., Any]
    needs_app: bool = True
    gates: bool = False
    """When it fails in the harness (or, the boot, leaves the app unhealthy), the later
    app phases do not run: the boot and the restart."""
    after_down: bool = False
    """Runs even when a gate closed: it reads what the vendor saw, not the app (the trace)."""
    parts: Callable[[], tuple[str, ...]] | None = None
    """The parts a caller may select (``browser:load+viz``), when the phase has any: its
    ``run`` then takes ``only=``, the selected ones."""
    only: tuple[str, ...] = ()
    """The parts selected (empty: the whole phase)."""

    def __call__(self, ctx: Any, obs: Any) -> Any:
        """Run the phase (its selected parts only, when a caller chose some)."""
        return self.run(ctx, obs, only=self.only) if self.only else self.run(ctx, obs)

    @property
    def summary(self) -> str:
        return (self.run.__doc__ or "").strip().splitlines()[0]


@dataclass(frozen=True)
class PhaseRecord:
    name: str
    seconds: float
    outcome: str
    """``ok``; ``failed: <why>`` (it raised: harness); the boot's headline (``app exited 1
    at boot: …``: boot ran, the app never became healthy); ``harness fault`` (not run
    because boot/restart raised); ``app down`` (not run: the app never became healthy)."""
    parts: Mapping[str, float] = field(default_factory=dict)
    """Seconds of the phase's own parts, when its observation times them (the browser's
    scenarios, which run in concurrent lanes: they add up to more than the phase)."""


PhaseListener = Callable[[str, PhaseRecord | None], None]
"""Told ``(name, None)`` when a phase starts and ``(name, record)`` when it is over (a phase
skipped because the app is down is only ever over), so a caller can show progress."""


def nobody(name: str, record: PhaseRecord | None) -> None:
    """The listener of a caller that wants no progress."""
    return None


def select_phases(
    phases: Sequence[Phase], always_with_app: Iterable[str], names: Iterable[str] | None
) -> tuple[Phase, ...]:
    """The ``names`` of ``phases`` to run (None: all), in the suite's order; the
    ``always_with_app`` ones come with any app phase.

    Raises:
        SpecError: (naming ``--phases``) an unknown name, listing the known ones.
    """
    if names is None:
        return tuple(phases)
    known = tuple(p.name for p in phases)
    asked = _parts_asked(n.strip() for n in names if n.strip())
    wanted = set(asked)
    unknown = sorted(wanted - set(known))
    if unknown:
        raise SpecError.single("--phases", f"unknown phase(s) {', '.join(unknown)} "
                               f"(known: {', '.join(known)})")  # fmt: skip
    if any(p.needs_app for p in phases if p.name in wanted):
        wanted |= set(always_with_app)
    return tuple(_with_parts(p, asked.get(p.name, ())) for p in phases if p.name in wanted)


def _parts_asked(names: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Phase -> the parts asked of it (``browser:load+viz``: ``("load", "viz")``; a bare
    name: none, the whole phase)."""
    asked: dict[str, tuple[str, ...]] = {}
    for name in names:
        phase, _, parts = name.partition(":")
        if phase in asked:
            raise SpecError.single("--phases", f"phase {phase} named twice ({name})")
        asked[phase] = tuple(p for p in parts.split("+") if p)
    return asked


def _with_parts(phase: Phase, parts: tuple[str, ...]) -> Phase:
    """``phase`` running only ``parts`` (none: as it is).

    Raises:
        SpecError: the phase has no parts, or not those.
    """
    if not parts:
        return phase
    if phase.parts is None:
        raise SpecError.single("--phases", f"phase {phase.name} has no parts to select "
                               f"({phase.name}:{'+'.join(parts)})")  # fmt: skip
    known = phase.parts()
    unknown = sorted(set(parts) - set(known))
    if unknown:
        raise SpecError.single("--phases", f"phase {phase.name} has no part(s) "
                               f"{', '.join(unknown)} (known: {', '.join(known)})")  # fmt: skip
    return replace(phase, only=parts)


def plain(*runs: Callable[..., Any]) -> tuple[Phase, ...]:
    """App phases with no flags, each named after its function (``sync1`` runs as
    phase ``sync1``): the bulk of a suite's list, where a name that differs from the
    function would only be a second name to keep in step."""
    return tuple(Phase(run.__name__, run) for run in runs)


@dataclass(frozen=True)
class PhasePlan:
    """A suite's phases in their canonical order, and the ones that join any selection
    touching the app (its boot: nothing runs unbooted; its trace: what the vendor saw)."""

    phases: tuple[Phase, ...]
    always_with_app: tuple[str, ...] = ("boot", "trace")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.phases)

    def select(self, names: Iterable[str] | None) -> tuple[Phase, ...]:
        """The phases to run (`select_phases`); raises `SpecError` for an unknown name."""
        return select_phases(self.phases, self.always_with_app, names)
