"""Refusals a post gets from its headers alone, before its body is read.

A hostile web page can make every visitor's browser post to a board (a form, or ``fetch``
with ``mode: "no-cors"``), from each visitor's own address: without a preflight only
``text/plain``, form and multipart bodies can be sent cross-site, so accepting nothing
but ``application/json`` (415 ``unsupported_media_type``) stops those. And a post a
browser sent is refused outright (403 ``browser_post``): browsers mark every post they
send with ``Origin`` (and ``Sec-Fetch-*``), ``benchwright publish`` never does, and the
board's pages never post. Even the board's own origin is refused, since a page behind a
DNS name rebound to the board's address is same-origin to the browser.
"""

from __future__ import annotations

from collections.abc import Mapping

from benchwright.board.errors import Rejected

JSON = "application/json"
BROWSER_HEADERS = ("origin", "sec-fetch-site", "sec-fetch-mode")


def require_json(headers: Mapping[str, str]) -> None:
    """Refuse (415) a body whose ``Content-Type`` is not ``application/json``."""
    declared = headers.get("content-type")
    media = (declared or "").split(";", 1)[0].strip().lower()
    if media != JSON:
        shown = f"'{declared[:100]}'" if declared else "none"
        raise Rejected(
            415, "unsupported_media_type", f"Content-Type {shown}: the board accepts {JSON} only"
        )


def refuse_browsers(headers: Mapping[str, str]) -> None:
    """Refuse (403) a post carrying the headers only a browser sends."""
    sent = [f"{name}: {headers[name][:100]}" for name in BROWSER_HEADERS if name in headers]
    if sent:
        raise Rejected(
            403, "browser_post", f"a post sent by a browser ({'; '.join(sent)}) is refused: "
            "runs are posted with `benchwright publish`",
        )  # fmt: skip
