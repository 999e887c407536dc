"""The one web layer: templates, components and the stylesheet the board and the local
results viewer share (components take plain dicts, see ``templates/components.html``)."""

from benchwright.web._env import TEMPLATES, environment, fmt_score, fmt_secs, fmt_when
from benchwright.web.hosts import LOOPBACK_NAMES, HostGuard, allowed_names
from benchwright.web.static import router as static_router

__all__ = [
    "LOOPBACK_NAMES",
    "TEMPLATES",
    "HostGuard",
    "allowed_names",
    "environment",
    "fmt_score",
    "fmt_secs",
    "fmt_when",
    "static_router",
]
