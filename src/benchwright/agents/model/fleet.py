"""Spreading a run's model calls over several endpoints, least busy first.

A hobbyist's fleet is a few machines each serving the same model (LM Studio, Ollama,
vLLM); parallel trials (``--workers N``) should keep every machine busy and none
queued. "Busy" must therefore count calls in flight in *every* worker process of the
run, and a worker that crashes or is killed mid-call must not leave its endpoint
counted busy forever. Both come from one mechanism the kernel keeps honest:

- the run shares one state directory (``state_dir``, run-scoped, on a local disk); each
  call in flight holds an exclusive ``flock`` on a file of its own under its endpoint's
  directory, for exactly as long as the call lasts;
- an endpoint's load is the number of those files whose lock is held; a file whose lock
  can be taken belongs to a process that died, and is removed by whoever finds it (the
  kernel drops a dead process's locks, so nothing has to time out);
- choosing an endpoint and taking its file happen under one lock on the directory, so
  two workers never both pick the idle endpoint; ties go to the endpoint that has
  started the fewest calls of the run (a counter file beside it), then to list order.

With the Ray executor each node has its own disk, so the count is per node (documented
in docs/agents.md). One `Fleet` serves one trial: an endpoint that refuses
(`ModelRefused`: bad key, unknown model, unreachable) is left out for the rest of the
trial and the call goes to the next; when all have refused, the trial ends with each
one's reason. A `ModelFault` that survived the member's own retries is raised as is.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import itertools
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from benchwright.agents.model.wire import (
    Message,
    ModelRefused,
    Provider,
    Reply,
    ToolSpec,
)

SELECT_LOCK = ".select.lock"
BUSY_SUFFIX = ".busy"
STARTED_SUFFIX = ".started"


class Fleet:
    """A `Provider` over several, each call to the least busy one that has not refused.

    Args:
        members: one provider per endpoint (typically ``Retrying(SomeProvider(url))``);
            their ``endpoint`` values must differ.
        state_dir: a directory every worker process of the run shares (created if
            missing); calls in flight are counted there.
    """

    def __init__(self, members: Sequence[Provider], state_dir: Path) -> None:
        if not members:
            raise ValueError("a fleet needs at least one endpoint")
        endpoints = [member.endpoint for member in members]
        if len(set(endpoints)) != len(endpoints):
            raise ValueError(f"a fleet's endpoints must differ: {endpoints}")
        self.members = list(members)
        self.endpoint = ", ".join(endpoints)
        self._dir = Path(state_dir)
        self._dir.mkdir(parents=True, exist_ok=True)
        self._refused: dict[str, ModelRefused] = {}
        self._served: list[str] = []
        self._lock = threading.Lock()
        self._names = itertools.count()

    @property
    def served(self) -> list[str]:
        """The endpoints that answered at least one call, in the order they first did."""
        with self._lock:
            return list(self._served)

    def busy(self) -> dict[str, int]:
        """Calls in flight per endpoint, over every process sharing ``state_dir``."""
        with self._selecting():
            return {m.endpoint: _held(self._slot(m.endpoint)) for m in self.members}

    def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] | None,
        params: Mapping[str, Any],
        timeout_s: float,
    ) -> Reply:
        tried = 0  # calls refused on the way, counted in the reply's attempts
        while True:
            taken = self._take()
            if taken is None:
                raise self._all_refused(tried)
            member, busy_file = taken
            try:
                reply = member.complete(messages, tools, params, timeout_s)
            except ModelRefused as refused:
                tried += refused.attempts
                with self._lock:
                    self._refused[member.endpoint] = refused
                continue
            finally:
                _release(busy_file)
            with self._lock:
                if reply.endpoint not in self._served:
                    self._served.append(reply.endpoint)
            return dataclasses.replace(reply, attempts=reply.attempts + tried)

    def _take(self) -> tuple[Provider, tuple[Path, int]] | None:
        """The least busy member not refused, with its busy file held (path, locked fd);
        None when every member has refused."""
        with self._lock:
            live = [m for m in self.members if m.endpoint not in self._refused]
        if not live:
            return None
        with self._selecting():
            loads = [
                (_held(self._slot(m.endpoint)), _started(self._slot(m.endpoint)), index)
                for index, m in enumerate(live)
            ]
            member = live[min(loads)[2]]
            slot = self._slot(member.endpoint)
            _count_start(slot)
            return member, self._hold(slot)

    def _all_refused(self, attempts: int) -> ModelRefused:
        with self._lock:
            refused = dict(self._refused)
        reasons = "; ".join(str(error) for error in refused.values())
        return ModelRefused(
            self.endpoint,
            f"every endpoint of the fleet refused: {reasons}",
            details={"refused": {endpoint: str(error) for endpoint, error in refused.items()}},
            attempts=attempts,
        )

    def _slot(self, endpoint: str) -> Path:
        slot = self._dir / hashlib.sha256(endpoint.encode()).hexdigest()[:16]
        slot.mkdir(exist_ok=True)
        return slot

    def _hold(self, slot: Path) -> tuple[Path, int]:
        path = slot / f"{os.getpid()}-{threading.get_ident()}-{next(self._names)}{BUSY_SUFFIX}"
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: never contended
        return path, fd

    @contextlib.contextmanager
    def _selecting(self) -> Iterator[None]:
        fd = os.open(self._dir / SELECT_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing drops the lock


def _held(slot: Path) -> int:
    """Busy files whose lock is held; stale ones (their process died) are removed."""
    held = 0
    for path in slot.glob(f"*{BUSY_SUFFIX}"):
        try:
            fd = os.open(path, os.O_RDWR)
        except FileNotFoundError:  # its call just ended
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            held += 1
        else:
            path.unlink(missing_ok=True)
        finally:
            os.close(fd)
    return held


def _started(slot: Path) -> int:
    try:
        return int((slot / f"count{STARTED_SUFFIX}").read_text() or 0)
    except (FileNotFoundError, ValueError):
        return 0


def _count_start(slot: Path) -> None:
    """One more call started (under the selection lock, so increments never race)."""
    counter = slot / f"count{STARTED_SUFFIX}"
    scratch = slot / f"count{STARTED_SUFFIX}.new"
    scratch.write_text(str(_started(slot) + 1))
    scratch.replace(counter)


def _release(busy: tuple[Path, int]) -> None:
    """The call ended: remove its busy file, then drop the lock (in that order, so a
    counter never takes the lock of a file that is about to be reused)."""
    path, fd = busy
    path.unlink(missing_ok=True)
    os.close(fd)
