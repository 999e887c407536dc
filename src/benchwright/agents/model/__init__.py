"""The built-in model agent, ``--agent model:PROVIDER/MODEL`` (docs/agents.md)."""
