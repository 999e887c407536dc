"""A canned `ScenarioObservation` for the unit tests of any suite's browser checks: one
screenshot named after the scenario, and as many console and page errors as asked."""

from __future__ import annotations

from pathlib import Path

from benchwright.probes.browser import (
    ConsoleMessage,
    PageError,
    ScenarioObservation,
    ScenarioTimings,
    Screenshot,
)


def scenario(name: str, *, first_row_ms: float | None = 180.0, errors: int = 0,
             page_errors: int = 0) -> ScenarioObservation:  # fmt: skip
    console = tuple(ConsoleMessage("error", f"boom {i}") for i in range(errors))
    thrown = tuple(PageError("TypeError", f"x is undefined {i}") for i in range(page_errors))
    shot = Screenshot(Path(f"/work/browser/{name}/{name}.png"), 1280, 800)
    return ScenarioObservation(
        name,
        "http://127.0.0.1:1/",
        200,
        None,
        first_row_ms,
        console,
        (),
        thrown,
        (),
        0,
        (),
        (shot,),
        ScenarioTimings(0.1, 0.2, 1.0),
    )
