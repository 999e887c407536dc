"""The kit's browser phase plumbing, whatever the suite: scenarios in concurrent lanes on
one Chromium (`lanes`), the record they leave (`BrowserRecord`), opening the app's page
(`nav`), a second instance on a brand-new database (`instance`), the probe's own waits
(`waits`) and the rows' access to a scenario's view (`rows`). A suite brings its
scenarios and what they read from its page."""

from benchwright.suites.kit.browser.instance import InstanceHost, fresh_instance
from benchwright.suites.kit.browser.lanes import (
    Observe,
    ScenarioLog,
    Step,
    retime,
    run_browser,
    run_lanes,
    scenario,
)
from benchwright.suites.kit.browser.nav import NoPage, open_or_read, open_page
from benchwright.suites.kit.browser.record import BrowserRecord
from benchwright.suites.kit.browser.select import NamedStep, keep_lanes, named, scenarios_of

__all__ = [
    "BrowserRecord",
    "InstanceHost",
    "NamedStep",
    "NoPage",
    "Observe",
    "ScenarioLog",
    "Step",
    "fresh_instance",
    "keep_lanes",
    "named",
    "open_or_read",
    "open_page",
    "retime",
    "run_browser",
    "run_lanes",
    "scenario",
    "scenarios_of",
]
