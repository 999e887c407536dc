"""The ACE oracle's 30 checks (``../shared/seeds/ace-check-registry.txt``), by family."""
