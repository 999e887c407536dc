"""Built-in settings. A file may override any of them, and nothing else."""

DEFAULTS = {
    "host": "localhost",
    "port": 8080,
    "retries": 3,
    "timeout": 2.5,
    "verbose": False,
    "log_level": "info",
}

LOG_LEVELS = ("debug", "info", "warning", "error")
