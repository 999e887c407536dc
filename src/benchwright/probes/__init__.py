"""Instruments: they observe and report, they never decide a score."""

from benchwright.probes.process import CommandObservation, run_command

__all__ = ["CommandObservation", "run_command"]
