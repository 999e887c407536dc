"""`BoardStore`: every read and write the board makes, on SQLite or PostgreSQL.

The API routes and the HTML pages both call this, so a page and the JSON card can
never disagree. Nothing here returns the poster's install id (only its digest is
stored, and never leaves the store); screenshots come back as numbers to fetch one
at a time. Validation and the signature check happen before `add` is called
(`benchwright.board.app`); `add` enforces only what needs the database: the handle's
claim and the nonce (`benchwright.board.claims`), then the rate limit, inside the same
transaction as the insert, so several workers cannot admit a sixth post between them.
"""

from __future__ import annotations

import base64
import re
import secrets
from datetime import datetime
from math import ceil
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel
from sqlalchemy import Subquery, case, delete, func, select
from sqlalchemy.orm import Session, sessionmaker

from benchwright.board import claims, ratelimit
from benchwright.board.db import (
    DIGEST_KEY,
    CheckRowRow,
    RunRow,
    ScreenshotRow,
    SettingRow,
    keyed_digest,
    make_engine,
    naive_utc,
    utc,
)
from benchwright.board.payload import Payload
from benchwright.board.signing import Proof
from benchwright.errors import RefusedError
from benchwright.model import Status

SortKey = Literal["score", "wallSecs", "postedAt", "nodes", "model", "handle"]
SORT_KEYS: tuple[str, ...] = ("score", "wallSecs", "postedAt", "nodes", "model", "handle")
_COLUMNS = {
    "score": RunRow.score,
    "wallSecs": RunRow.wall_secs,
    "postedAt": RunRow.posted_at,
    "nodes": RunRow.nodes,
    "model": RunRow.model,
    "handle": RunRow.handle,
}
MAX_PER_PAGE = 200
MAX_CHART_ENTRIES = 2000
"""Entries one board chart draws at most (the best ranked): the page stays small."""
UNMEASURED = tuple(s.value for s in Status if s.is_harness_fault)
"""Statuses of a row that was not measured (UNAVAILABLE, INFRA, SKIPPED): such a row leaves
its mean, so the score covers less than was asked and the card is partial."""


class _View(BaseModel):
    """Read-only output; ``json()`` gives the camelCase API form."""

    model_config = ConfigDict(frozen=True, alias_generator=to_camel, populate_by_name=True)

    def json_dict(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, mode="json")


class BoardRow(_View):
    """One leaderboard line."""

    rank: int
    """Position within the scorer version, whatever the sort: complete cards by score, then
    partial ones by score (ties share a rank)."""
    run_id: str
    handle: str
    model: str
    nodes: int
    score: float
    excellent: bool
    baseline: bool
    partial: bool
    """Some row was not measured (`UNMEASURED`): ranked after every complete card."""
    unavailable_share: float
    """The weight share of the tiered rows that were not measured (0 to 1)."""
    tiers: dict[str, float]
    wall_secs: float | None
    posted_at: datetime | None


class Page(_View):
    """One page of one scorer version's board."""

    version: str
    sort: str
    descending: bool
    page: int
    per_page: int
    total: int
    pages: int
    rows: list[BoardRow]


class CheckView(_View):
    id: str
    tier: str | None
    status: str
    score: float
    detail: str
    weight: float
    severity_leg: float | None = None


class ScreenshotRef(_View):
    n: int
    """Fetch with `BoardStore.screenshot` (``GET /api/benchmark-runs/{id}/screenshots/{n}``)."""
    name: str


class RunCard(_View):
    """Everything posted for a run except the install id; screenshots as references."""

    id: str
    scorer_version: str
    score: float
    excellent: bool
    baseline: bool
    partial: bool
    """Some row was not measured (`UNMEASURED`)."""
    unavailable_share: float
    """The weight share of the tiered rows that were not measured (0 to 1)."""
    tiers: dict[str, float]
    composition: dict[str, Any] | None
    checks: list[CheckView]
    model: str
    nodes: int
    handle: str
    posted_at: datetime | None
    run: dict[str, Any]
    screenshots: list[ScreenshotRef]


class ScorePoint(_View):
    """One entry as the board's chart draws it."""

    run_id: str
    handle: str
    model: str
    score: float
    baseline: bool
    partial: bool


class UnknownSort(ValueError):
    """A sort key the board does not offer."""


class BoardStore:
    """The board's database, from an SQLAlchemy URL (None: the default SQLite file)."""

    def __init__(self, url: str | None = None) -> None:
        self.engine = make_engine(url)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self._secret: bytes | None = None

    def versions(self) -> list[str]:
        """Scorer versions with at least one entry, newest first."""
        with self._session() as session:
            found = session.scalars(select(RunRow.scorer_version).distinct()).all()
        return sorted(found, key=version_key, reverse=True)

    def leaderboard(
        self,
        version: str,
        sort: str = "score",
        descending: bool = True,
        page: int = 1,
        per_page: int = 50,
    ) -> Page:
        """One page of ``version``'s entries (baselines included, flagged).

        Raises:
            UnknownSort: ``sort`` is not one of `SORT_KEYS`.
        """
        if sort not in _COLUMNS:
            raise UnknownSort(f"unknown sort '{sort}' (known: {', '.join(SORT_KEYS)})")
        page, per_page = max(1, page), min(max(1, per_page), MAX_PER_PAGE)
        ranked = _ranked(version)
        shown = (
            select(ranked)
            .order_by(*_order(ranked.c, sort, descending))
            .limit(per_page)
            .offset((page - 1) * per_page)
            .subquery()
        )
        query = (
            select(*_COLUMNS_SHOWN, shown.c.partial, shown.c.rank)
            .join(shown, shown.c.id == RunRow.id)
            .order_by(*_order(shown.c, sort, descending))
        )
        with self._session() as session:
            total = session.scalar(
                select(func.count()).select_from(RunRow).where(RunRow.scorer_version == version)
            )
            rows = session.execute(query).mappings().all()
            shares = _unavailable_shares(session, [r["id"] for r in rows])
        total = total or 0
        return Page(
            version=version,
            sort=sort,
            descending=descending,
            page=page,
            per_page=per_page,
            total=total,
            pages=max(1, ceil(total / per_page)),
            rows=[_board_row(r, shares.get(r["id"], 0.0)) for r in rows],
        )

    def scores(self, version: str, limit: int = MAX_CHART_ENTRIES) -> list[ScorePoint]:
        """``version``'s entries in rank order (baselines included, flagged), at most
        ``limit``: the score of every entry for the board's chart, in one query over the
        runs alone (no check rows)."""
        partial = _partial()
        query = (
            select(RunRow.id, RunRow.handle, RunRow.model, RunRow.score, RunRow.baseline,
                   partial.label("partial"))
            .where(RunRow.scorer_version == version)
            .order_by(partial, RunRow.score.desc(), RunRow.id)
            .limit(limit)
        )  # fmt: skip
        with self._session() as session:
            found = session.execute(query).mappings().all()
        return [
            ScorePoint(run_id=r["id"], handle=r["handle"], model=r["model"], score=r["score"],
                       baseline=r["baseline"], partial=bool(r["partial"]))
            for r in found
        ]  # fmt: skip

    def run(self, run_id: str) -> RunCard | None:
        """The run's card, or None when there is no such run."""
        with self._session() as session:
            row = session.get(RunRow, run_id)
            if row is None:
                return None
            shots = session.execute(
                select(ScreenshotRow.position, ScreenshotRow.name)
                .where(ScreenshotRow.run_id == run_id)
                .order_by(ScreenshotRow.position)
            ).all()
            return _card(row, [ScreenshotRef(n=n, name=name) for n, name in shots])

    def screenshot(self, run_id: str, n: int) -> bytes | None:
        """The PNG bytes of screenshot ``n`` (from 0), or None."""
        with self._session() as session:
            shot = session.get(ScreenshotRow, (run_id, n))
            return shot.png if shot else None

    def add(
        self, payload: Payload, client_ip: str, now: datetime, proof: Proof | None = None
    ) -> str:
        """Store a validated post; returns the new run id.

        Args:
            proof: the post's verified signature (`signing.verify`). None only for an
                insert the caller vouches for (seeding, tests): no handle is claimed.

        Raises:
            Rejected: a replayed nonce (409), a handle claimed by another key or reserved
                (403); nothing is stored.
            ratelimit.RateLimited: the address or the install id already has its
                posts for the rolling window (nothing is stored).
        """
        run_id = secrets.token_hex(8)
        install = self.digest(payload.poster.install_id)
        with self._session.begin() as session:
            if proof is not None:
                claims.record(session, payload.poster.handle, proof, now)
            ratelimit.admit(session, self.digest(client_ip), install, naive_utc(now))
            session.add(_run_row(run_id, payload, install, naive_utc(now)))
        return run_id

    def digest(self, value: str) -> str:
        """The keyed digest this board stores for an address or an install id.

        Raises:
            RefusedError: the database has no digest secret (it is not migrated).
        """
        if self._secret is None:
            with self._session() as session:
                row = session.get(SettingRow, DIGEST_KEY)
            if row is None:
                url = self.engine.url.render_as_string(hide_password=True)
                raise RefusedError(f"{url}: no digest secret; run 'benchwright board migrate'")
            self._secret = bytes.fromhex(row.value)
        return keyed_digest(self._secret, value)

    def remove(self, run_id: str) -> bool:
        """Delete a run with its rows and screenshots; False when there was none."""
        with self._session.begin() as session:
            # check rows and screenshots go with it: ON DELETE CASCADE (SQLite: the
            # foreign_keys pragma `make_engine` sets)
            gone = session.execute(delete(RunRow).where(RunRow.id == run_id))
        return bool(gone.rowcount)


def version_key(version: str) -> tuple[tuple[int, ...], int, str]:
    """Orders ``sb-5.2 < sb-6.0-rc < sb-6.0 < sb-7.0``: numbers, then release after rc."""
    numbers = tuple(int(n) for n in re.findall(r"\d+", version.split("-rc")[0]))
    return numbers, 0 if "-rc" in version else 1, version


def _ranked(version: str) -> Subquery:
    """The version's entries with ``partial`` and ``rank``: one window over its runs,
    carrying only the columns a page sorts by (the rest is joined for the page shown).

    Complete cards rank first by score, then partial ones by score (ties share a rank):
    a poster who turns FAIL rows into UNAVAILABLE re-composes a higher score from the
    rows left, and that score must not outrank one that measured everything.
    """
    partial = _partial()
    return (
        select(
            *_COLUMNS.values(),
            RunRow.id,
            partial.label("partial"),
            func.rank().over(order_by=(partial, RunRow.score.desc())).label("rank"),
        )
        .where(RunRow.scorer_version == version)
        .subquery()
    )


def _order(columns: Any, sort: str, descending: bool) -> tuple[Any, ...]:
    """ORDER BY of a page over ``columns`` (`_ranked`'s): ``score`` is the ranking itself
    (best first when descending), any other sort its column, then the ranking, then id."""
    if sort == "score":
        first = columns.rank.asc() if descending else columns.rank.desc()
    else:
        column = columns[_COLUMNS[sort].key]
        first = (column.desc() if descending else column.asc()).nulls_last()
    return first, columns.rank, columns.id


_COLUMNS_SHOWN = (
    RunRow.id,
    RunRow.handle,
    RunRow.model,
    RunRow.nodes,
    RunRow.score,
    RunRow.excellent,
    RunRow.baseline,
    RunRow.tiers,
    RunRow.wall_secs,
    RunRow.posted_at,
)


def _partial() -> Any:
    """1 for a partial card, else 0: the ``partial`` flag of its stored composition, which
    re-composition checked against its rows (any row `UNMEASURED`); a baseline without a
    composition is complete. Read from the run's own row, so ranking a version costs one
    pass over its runs, not over their check rows."""
    return case((RunRow.composition["partial"].as_boolean(), 1), else_=0)


def _unavailable_shares(session: Session, run_ids: list[str]) -> dict[str, float]:
    """The weight share of each run's tiered rows that were not measured (runs without
    rows are left out), for the entries of one page only."""
    lost = func.sum(case((CheckRowRow.status.in_(UNMEASURED), CheckRowRow.weight), else_=0.0))
    share = func.coalesce(lost / func.nullif(func.sum(CheckRowRow.weight), 0.0), 0.0)
    found = session.execute(
        select(CheckRowRow.run_id, share)
        .where(CheckRowRow.run_id.in_(run_ids), CheckRowRow.tier.is_not(None))
        .group_by(CheckRowRow.run_id)
    )
    return {run_id: float(value) for run_id, value in found}


def _board_row(r: Any, unavailable_share: float) -> BoardRow:
    return BoardRow(
        rank=r["rank"],
        run_id=r["id"],
        handle=r["handle"],
        model=r["model"],
        nodes=r["nodes"],
        score=r["score"],
        excellent=r["excellent"],
        baseline=r["baseline"],
        partial=bool(r["partial"]),
        unavailable_share=unavailable_share,
        tiers=r["tiers"] or {},
        wall_secs=r["wall_secs"],
        posted_at=utc(r["posted_at"]),
    )


def _run_row(run_id: str, p: Payload, install: str, now: datetime) -> RunRow:
    return RunRow(
        id=run_id,
        scorer_version=p.scorer_version,
        score=p.score,
        excellent=p.composition.excellent,
        baseline=False,
        handle=p.poster.handle,
        model=p.model,
        nodes=p.nodes,
        tiers=dict(p.tiers),
        composition=p.composition.model_dump(by_alias=True, mode="json"),
        wall_secs=p.run.wall_secs,
        started_at=naive_utc(p.run.started_at),
        finished_at=naive_utc(p.run.finished_at),
        engine_events=p.run.engine_events,
        repair_rounds=p.run.repair_rounds,
        input_tokens=p.run.input_tokens,
        output_tokens=p.run.output_tokens,
        cost_usd=p.run.cost_usd,
        agent=p.run.agent,
        suite=p.run.suite,
        tree_sha256=p.run.tree_sha256,
        posted_at=now,
        install_digest=install,
        checks=[
            CheckRowRow(
                position=i,
                check_id=c.id,
                tier=c.tier,
                status=c.status.value,
                score=c.score,
                detail=c.detail,
                weight=c.weight,
                severity_leg=c.severity_leg,
            )
            for i, c in enumerate(p.checks)
        ],
        screenshots=[
            ScreenshotRow(position=i, name=s.name, png=base64.b64decode(s.png, validate=True))
            for i, s in enumerate(p.screenshots)
        ],
    )


def _share_of(checks: list[CheckRowRow]) -> float:
    """`_unavailable_shares` of rows in hand (the card page reads them all anyway)."""
    tiered = [c for c in checks if c.tier is not None]
    total = sum(c.weight for c in tiered)
    lost = sum(c.weight for c in tiered if c.status in UNMEASURED)
    return lost / total if total else 0.0


def _card(row: RunRow, shots: list[ScreenshotRef]) -> RunCard:
    started, finished = utc(row.started_at), utc(row.finished_at)
    return RunCard(
        id=row.id,
        scorer_version=row.scorer_version,
        score=row.score,
        excellent=row.excellent,
        baseline=row.baseline,
        partial=any(c.status in UNMEASURED for c in row.checks),
        unavailable_share=_share_of(row.checks),
        tiers=row.tiers or {},
        composition=row.composition,
        checks=[
            CheckView(
                id=c.check_id,
                tier=c.tier,
                status=c.status,
                score=c.score,
                detail=c.detail,
                weight=c.weight,
                severity_leg=c.severity_leg,
            )
            for c in row.checks
        ],
        model=row.model,
        nodes=row.nodes,
        handle=row.handle,
        posted_at=utc(row.posted_at),
        run={
            "startedAt": started.isoformat() if started else None,
            "finishedAt": finished.isoformat() if finished else None,
            "engineEvents": row.engine_events,
            "repairRounds": row.repair_rounds,
            "wallSecs": row.wall_secs,
            "agent": row.agent,
            "suite": row.suite,
            "treeSha256": row.tree_sha256,
            "inputTokens": row.input_tokens,
            "outputTokens": row.output_tokens,
            "costUsd": row.cost_usd,
        },
        screenshots=shots,
    )
