"""A booted golden for the flow scenarios, without a grading: the two reference services
(`sb7_reference_app.Golden`) synced from the real Meridian v3 mock, behind the part of a
`GradeContext` the scenarios use (``base_url``, ``tokens``, ``call``, ``mock``, and
``app.kill`` / ``app.restart`` of one service). A defect is put into the page by the
browser itself: `Defective` serves the golden's ``app.js`` with one edit, so that the
same real backend runs under an honest page and under a broken one."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sb7_reference_app import REFERENCE, TOKENS, Golden, eventually

from benchwright.probes.http import JsonRead, read_json
from benchwright.services.meridian_v3 import MeridianV3Mock, V3Timing
from benchwright.suites.sb7.context import Tokens

SEED = 3
TIMING = V3Timing(retry_after_secs=1.0, create_hold_secs=1.0)
SYNC_WITHIN_S = 180.0
APP_JS = REFERENCE / "app" / "web" / "app.js"


@dataclass(frozen=True)
class Boot:
    """What `ServiceGroup.restart` answers, as far as the scenarios read it."""

    healthy_after_s: float | None


class Group:
    """The two golden services as the scenarios kill and restart them."""

    def __init__(self, golden: Golden) -> None:
        self.golden = golden

    def kill(self, name: str) -> None:
        getattr(self.golden, name).kill()

    def restart(self, name: str) -> Boot:
        service = getattr(self.golden, name)
        service.kill()
        started = time.monotonic()
        service.start()
        return Boot(round(time.monotonic() - started, 3))


class Host:
    """The scenarios' context over a booted golden."""

    def __init__(self, golden: Golden, mock: MeridianV3Mock) -> None:
        self.mock, self.app = mock, Group(golden)
        self.base_url = golden.ledgerd.base
        self.tokens = Tokens(**TOKENS)

    def call(
        self, path: str, *, method: str = "GET", json: Any = None, role: str | None = None
    ) -> JsonRead:
        headers = {"Authorization": f"Bearer {getattr(self.tokens, role)}"} if role else None
        return read_json(self.base_url, path, method=method, json_body=json, timeout_s=30,
                         headers=headers)  # fmt: skip


@contextmanager
def booted(root: Path) -> Iterator[Host]:
    """The mock and both services, synced, for the block."""
    with MeridianV3Mock(SEED, timing=TIMING) as mock:
        golden = Golden(root, mock.base_url)
        try:
            golden.notifierd.start()
            golden.ledgerd.start()
            eventually(lambda: golden.ledgerd.get("/api/health").body["last_sync"], SYNC_WITHIN_S)
            assert mock.wait_deliveries(60)
            yield Host(golden, mock)
        finally:
            golden.close()


class Defective:
    """A lane whose every scenario gets the golden page with ``app.js`` edited by ``edit``
    (the edit must change it: a no-op would test nothing)."""

    def __init__(self, lane: Any, edit: Callable[[str], str]) -> None:
        original = APP_JS.read_text()
        self.lane, self.source = lane, edit(original)
        assert self.source != original, "the defect changed nothing"

    def scenario(self, name: str, instrument: Any = None, **kwargs: Any) -> Any:
        sc = self.lane.scenario(name, instrument, **kwargs)
        sc.context.route("**/app.js", lambda route: route.fulfill(
            body=self.source, content_type="text/javascript"))  # fmt: skip
        return sc
