"""`Rejected`: why the board refused a request, as the HTTP status and a rule code.

Every refusal reaches the client as ``{"error": {"code": ..., "message": ...}}``; the
code names the rule (``tier_range``, ``screenshot_too_large``...) so a poster can tell
which limit it hit without parsing prose.
"""

from __future__ import annotations


class Rejected(Exception):
    """A request the board refuses: ``status`` (400/413/422/429...), ``code``, ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": self.message}}
