"""Agents and their recordings: converters from real agent transcripts to trajectories."""
