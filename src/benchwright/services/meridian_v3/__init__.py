"""The Meridian API v3 mock (sb-7's vendor): 12,288 seeded payments, a walk that is not
snapshot-isolated, signed racing webhooks and a seeded fault schedule, graded by ledgers.

`MeridianV3Mock` serves the API on 127.0.0.1 and is steered by Python calls in the
grader's process (never over the network the app reaches). `build_fixture_v3` and
`derive_schedule` are the pure, seeded data and positions; `truth` derives what a
correct app shows. Facts: docs/facts/meridian-v3.md. Everything else is private.
"""

from benchwright.services.meridian.webhooks import Registration, sign, verify
from benchwright.services.meridian_v3.config import (
    API_KEY,
    DOCS_PATH,
    LIST_PATH,
    PAGE_SIZE,
    PAGES,
    REVERSALS_PATH,
    TOTAL,
    WEBHOOKS_PATH,
    V3Timing,
)
from benchwright.services.meridian_v3.control import MeridianV3Mock
from benchwright.services.meridian_v3.fixture import V3Fixture, build_fixture_v3
from benchwright.services.meridian_v3.records import (
    Commit,
    CommitLedger,
    CreateAttempt,
    Delivery,
    FaultFacts,
    ReversalCommit,
    StaleLedger,
    WalkLedger,
)
from benchwright.services.meridian_v3.schedule import (
    PAGE_FIRST,
    WEBHOOK_FIRST,
    Schedule,
    StaleArm,
    derive_schedule,
)
from benchwright.services.meridian_v3.truth import Truth, berlin_day, truth_of

__all__ = [
    "API_KEY",
    "DOCS_PATH",
    "LIST_PATH",
    "PAGES",
    "PAGE_FIRST",
    "PAGE_SIZE",
    "REVERSALS_PATH",
    "TOTAL",
    "WEBHOOKS_PATH",
    "WEBHOOK_FIRST",
    "Commit",
    "CommitLedger",
    "CreateAttempt",
    "Delivery",
    "FaultFacts",
    "MeridianV3Mock",
    "Registration",
    "ReversalCommit",
    "Schedule",
    "StaleArm",
    "StaleLedger",
    "Truth",
    "V3Fixture",
    "V3Timing",
    "WalkLedger",
    "berlin_day",
    "build_fixture_v3",
    "derive_schedule",
    "sign",
    "truth_of",
    "verify",
]
