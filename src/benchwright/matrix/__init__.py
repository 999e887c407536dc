"""``benchwright matrix``: pass rates over model x prompt cells, with intervals and drift.

The config keys and rates are AgentBench v0.1.0's (`config`); what it lacks is added:
a Wilson interval on every rate (`stats`) and a drift test that asks whether a change
is larger than its noise, not only larger than a threshold (`drift`).
"""

from benchwright.matrix.config import Baseline, MatrixConfig, read_baseline, read_config
from benchwright.matrix.drift import Comparison, DriftReport, compare
from benchwright.matrix.report import document, markdown, summary
from benchwright.matrix.run import CellResult, MatrixResult, run_matrix
from benchwright.matrix.stats import Rate, difference_interval, significant

__all__ = [
    "Baseline",
    "CellResult",
    "Comparison",
    "DriftReport",
    "MatrixConfig",
    "MatrixResult",
    "Rate",
    "compare",
    "difference_interval",
    "document",
    "markdown",
    "read_baseline",
    "read_config",
    "run_matrix",
    "significant",
    "summary",
]
