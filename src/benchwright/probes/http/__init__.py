"""HTTP instruments: they send requests and record what came back, never a verdict.

Every probe takes the app's base URL, ignores proxy settings (the app is on
loopback), records transport failures as observations, and returns frozen data:
``HttpObservation`` per exchange, plus what the probe measured over many.
"""

from benchwright.probes.http._json import (
    JsonRead,
    WireFloat,
    WireJson,
    parse_wire_json,
    read_json,
    sample_json,
)
from benchwright.probes.http._latency import (
    MIN_SUCCESSES,
    LatencyObservation,
    p95,
    sample_latency,
)
from benchwright.probes.http._load import Interval, LoadObservation, LoadSample, concurrent_reads
from benchwright.probes.http._matrix import MatrixCell, MatrixObservation, run_matrix
from benchwright.probes.http._observe import HttpObservation, client, fetch

__all__ = [
    "MIN_SUCCESSES",
    "HttpObservation",
    "Interval",
    "JsonRead",
    "LatencyObservation",
    "LoadObservation",
    "LoadSample",
    "MatrixCell",
    "MatrixObservation",
    "WireFloat",
    "WireJson",
    "client",
    "concurrent_reads",
    "fetch",
    "p95",
    "parse_wire_json",
    "read_json",
    "run_matrix",
    "sample_json",
    "sample_latency",
]
