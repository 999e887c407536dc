"""The Meridian API mock: a hostile payments vendor that grades the client it serves.

`MeridianMock` serves the API (v2, or v1 with ``version="v1"``) on 127.0.0.1
(in-process for graders, or through ``benchwright vendor meridian [--api v1]`` for
agents building against it), steers its traps and phases, and reads its ledgers.
`build_fixture` (v2) and `build_fixture_v1` make the seeded data and every
expectation derived from it. Everything else in this package is private.
"""

from benchwright.services.meridian.config import AMOUNT_LIMIT_MINOR, API_KEY, LIST_PATH, Timing
from benchwright.services.meridian.contract_ledger import ContractLedger
from benchwright.services.meridian.control import MeridianMock
from benchwright.services.meridian.delivery import NoWebhookRegistered
from benchwright.services.meridian.expectations import Expectations
from benchwright.services.meridian.fixture import Fixture, build_fixture
from benchwright.services.meridian.fixture_v1 import V1Fixture, build_fixture_v1
from benchwright.services.meridian.ledgers import TrapResults
from benchwright.services.meridian.webhooks import Registration, sign, url_port, verify
from benchwright.services.meridian.write_ledgers import BatchTrace, ConflictTrace

__all__ = [
    "AMOUNT_LIMIT_MINOR",
    "API_KEY",
    "LIST_PATH",
    "BatchTrace",
    "ConflictTrace",
    "ContractLedger",
    "Expectations",
    "Fixture",
    "MeridianMock",
    "NoWebhookRegistered",
    "Registration",
    "Timing",
    "TrapResults",
    "V1Fixture",
    "build_fixture",
    "build_fixture_v1",
    "sign",
    "url_port",
    "verify",
]
