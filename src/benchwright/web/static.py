"""The stylesheet, served by whichever app includes this router (no CDN, no build step)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import Response

STATIC = Path(__file__).with_name("static")
router = APIRouter()


@router.get("/static/web.css", include_in_schema=False)
def stylesheet() -> Response:
    """The one stylesheet, read per request so an edit shows on reload."""
    return Response(
        (STATIC / "web.css").read_bytes(),
        media_type="text/css",
        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "max-age=300"},
    )
