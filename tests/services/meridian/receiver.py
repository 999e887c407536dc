"""A tiny webhook receiver that does everything the docs ask, for the delivery tests."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from benchwright.services.meridian import verify


@dataclass
class Receiver:
    secret: str = ""
    echo_challenge: bool = True
    counters: dict[str, int] = field(
        default_factory=lambda: {"received": 0, "applied": 0, "ignored": 0, "rejected": 0}
    )
    rows: dict[str, dict] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    raw: list[tuple[bytes, str]] = field(default_factory=list)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/hook", self.handle, methods=["POST"])])

    async def handle(self, request: Request) -> JSONResponse:
        body = await request.body()
        event = json.loads(body)
        if event.get("type") == "webhook.verify":
            answer = event["challenge"] if self.echo_challenge else "wrong"
            return JSONResponse({"challenge": answer})
        header = request.headers.get("meridian-signature", "")
        self.raw.append((body, header))
        self.counters["received"] += 1
        if not verify(self.secret, header, body):
            self.counters["rejected"] += 1
            return JSONResponse({"error": {"code": "bad_signature"}}, status_code=401)
        data = event["data"]
        held = self.rows.get(data["id"], {"version": 1})
        if event["id"] in self.seen or data["version"] <= held["version"]:
            self.counters["ignored"] += 1
        else:
            self.rows[data["id"]] = {"version": data["version"], "note": data["note"]}
            self.counters["applied"] += 1
        self.seen.add(event["id"])
        return JSONResponse({"received": True})
