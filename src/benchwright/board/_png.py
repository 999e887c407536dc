"""Screenshot limits (§06): PNG by magic bytes, at most 5, 1.5 MB each, 3.5 MB in total.

Sizes are of the decoded bytes, and a megabyte here is 1,000,000 bytes (decimal, as
the methodology writes "1.5 MB"): 1,500,000 bytes per screenshot is accepted, 1,500,001
is not; 3,500,000 in total is accepted, 3,500,001 is not.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence

from benchwright.board.errors import Rejected
from benchwright.board.payload import Screenshot

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MB = 1_000_000
MAX_COUNT = 5
MAX_EACH = 1_500_000
MAX_TOTAL = 3_500_000


def decoded_screenshots(shots: Sequence[Screenshot]) -> list[bytes]:
    """The PNG bytes of each screenshot, or `Rejected` (422) naming the rule and the index."""
    if len(shots) > MAX_COUNT:
        raise _bad("screenshot_count", f"screenshots: {len(shots)} sent, at most {MAX_COUNT}")
    found: list[bytes] = []
    for i, shot in enumerate(shots):
        try:
            png = base64.b64decode(shot.png, validate=True)
        except (binascii.Error, ValueError):
            raise _bad("screenshot_base64", f"screenshots[{i}].png: not valid base64") from None
        if not png.startswith(PNG_MAGIC):
            raise _bad("screenshot_not_png", f"screenshots[{i}].png: not a PNG (magic bytes)")
        if len(png) > MAX_EACH:
            raise _bad(
                "screenshot_too_large",
                f"screenshots[{i}].png: {len(png)} bytes decoded, at most {MAX_EACH} (1.5 MB)",
            )
        found.append(png)
    total = sum(len(p) for p in found)
    if total > MAX_TOTAL:
        raise _bad(
            "screenshots_total",
            f"screenshots: {total} bytes decoded in total, at most {MAX_TOTAL} (3.5 MB)",
        )
    return found


def _bad(code: str, message: str) -> Rejected:
    return Rejected(422, code, message)
