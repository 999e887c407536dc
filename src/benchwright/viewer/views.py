"""Runs, trials and scorecards as the plain dicts the templates render.

One shaping for both outputs: the served viewer and the one-file HTML report differ only
in their `Links` (URLs to other pages vs anchors in the same file, evidence URLs vs
``data:`` URIs), so the two can never show different things. Every figure about a run
comes from what `verify_run` read: a tampered trial is shown as ``tampered`` (its claim
beside it, never counted as passed), and a run with a tampered file shows no pass rate.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from benchwright.board.payload import scorecard_fields
from benchwright.execution.pass_at_k import figures_text, shown_ks
from benchwright.execution.run_display import class_rows, failure_reason, latency_line, tier_line
from benchwright.execution.run_meta import read_block, usage_fields
from benchwright.execution.runs import planned_trials
from benchwright.execution.verification import (
    TAMPERED,
    VERIFIED,
    RunSeals,
    Seal,
    TrialSeal,
)
from benchwright.matrix.stats import Rate
from benchwright.viewer.sources import Card, Run, Trial, read_text
from benchwright.web import fmt_when

MAX_TRACE_ROWS = 2000
"""Vendor trace lines shown (folded until opened); the rest are counted, not rendered: the
whole file is one link away."""
TRACE_KEYS = ("seq", "method", "path", "status")
WITHHELD = "withheld (tampered)"
"""Shown instead of a figure that a tampered file would feed."""


class Links(Protocol):
    """Where a page's links point (served pages or the one-file report)."""

    def run(self, run_id: str) -> str: ...
    def task(self, run_id: str, task_id: str) -> str: ...
    def trial(self, run_id: str, task_id: str, iteration: int) -> str: ...
    def card(self, card_id: str) -> str: ...
    def evidence(self, card: Card, key: str, path: Path) -> str: ...


def run_row(run: Run, links: Links, seals: RunSeals | None = None) -> dict[str, Any]:
    """A runs-list row: suite, agent, date, trials done of those planned, pass rate per
    tier, and its verification state; a run with a tampered file shows no pass rate at all.
    A run without a summary is in progress (or was stopped): it shows how far it got."""
    seals = seals or run.verify()
    summary = seals.summary_doc or {}
    tiers = summary.get("tiers", {})
    withheld = bool(seals.tampered())
    return {
        "id": run.id,
        "url": links.run(run.id),
        "suite": _suite(run.info),
        "agent": str(run.info.get("agent", "-")),
        "created": _when(run.info.get("created_at")),
        "trials": len(seals.trials),
        "planned": planned_trials(run.info),
        "correctness": WITHHELD if withheld else _rate(tiers.get("correctness")),
        "build": WITHHELD if withheld else _rate(tiers.get("build")),
        "latency": WITHHELD if withheld else _latency(tiers.get("latency")),
        "complete": bool(summary.get("complete")),
        "summarized": seals.summary_doc is not None,
        "class_rates": [] if withheld else class_rates(summary),
        "seal": run_seal(seals),
    }


def class_rates(summary: Mapping[str, Any]) -> list[tuple[str, Rate]]:
    """Each class's pass rate as the summary counts it (tasks passed of those attempted),
    for the run's chart with 95 % Wilson intervals; a latency class has no pass rate and a
    class with nothing attempted no figure, so neither is drawn."""
    return [
        (str(name), Rate(counts["passed"], counts["attempted"]))
        for name, counts in summary.get("classes", {}).items()
        if "passed" in counts and counts.get("attempted")
    ]


def run_seal(seals: RunSeals) -> dict[str, Any]:
    """A run's badge (its worst file decides: ``TAMPERED: MAC mismatch``, else
    ``UNVERIFIED: no key on this machine``, else ``verified``), the line a page about it
    starts with when it is not verified, the counts, and every file that is not verified
    with its badge."""
    worst = seals.worst()
    counts = seals.counts()
    flagged = [f for f in seals.files() if f.state != VERIFIED]
    return {
        "state": seals.state,
        "badge": worst.badge if worst else VERIFIED,
        "headline": seals.headline(),
        "counts": ", ".join(f"{n} {state}" for state, n in counts.items()),
        "files": [{"path": str(f.path), "badge": f.badge, "state": f.state} for f in flagged],
    }


def card_row(card: Card, links: Links) -> dict[str, Any]:
    """A scorecards-list row: file, scorer, suite, date of the file, tier means, score."""
    doc = card.doc
    when = datetime.fromtimestamp(card.path.stat().st_mtime, UTC)
    return {
        "id": card.id,
        "url": links.card(card.id),
        "scorer": f"{doc.get('scorer', '-')} {doc['scorer_version']}",
        "suite": str(doc.get("provenance", {}).get("suite", "-")),
        "date": fmt_when(when),
        "tiers": {t["name"]: t["mean"] for t in doc.get("tiers", []) if t.get("mean") is not None},
        "score": doc["score"],
        "excellent": bool(doc.get("flags", {}).get("excellent")),
    }


def run_view(run: Run, links: Links) -> dict[str, Any]:
    """A run: its metadata, and per task its trials (verdict, phases, timings); a task with
    a tampered trial shows the verdict ``tampered``, whatever the summary says."""
    seals = run.verify()
    tasks: dict[str, dict[str, Any]] = {}
    summary_tasks = (seals.summary_doc or {}).get("tasks", {})
    for trial in run.trials:
        sealed = _sealed(seals, trial)
        result = sealed.doc or {}
        entry = tasks.setdefault(trial.task_id, {
            "id": trial.task_id,
            "url": links.task(run.id, trial.task_id),
            "tier": result.get("tier", "-"),
            "class": result.get("class") or "-",
            "verdict": summary_tasks.get(trial.task_id, {}).get("verdict", "-"),
            "per_trial": _per_trial(seals, summary_tasks.get(trial.task_id, {}).get("per_trial")),
            "trials": [],
        })  # fmt: skip
        row = _trial_row(run, trial, sealed, links)
        if row["seal"]["state"] == TAMPERED:
            entry["verdict"] = TAMPERED
        entry["trials"].append(row)
    return {"id": run.id, "url": links.run(run.id), "meta": _run_meta(run, seals),
            "row": run_row(run, links, seals), "tasks": list(tasks.values()),
            "headline": _headline(seals)}  # fmt: skip


def _headline(seals: RunSeals) -> dict[str, Any] | None:
    """What a run page leads with: the pass-rate lines and the per-class table, worded as
    the terminal summary words them; None without a summary, or with a tampered file."""
    summary = seals.summary_doc
    if summary is None or seals.tampered():
        return None
    try:
        header, rows = class_rows(summary)
        lines = [tier_line(summary, t) for t in ("correctness", "build")
                 if summary["tiers"][t]["tasks"] or t == "correctness"]  # fmt: skip
        if summary["tiers"]["latency"]["tasks"]:
            lines.append(latency_line(summary))
    except (KeyError, TypeError, AttributeError):  # a summary from another version
        return None
    return {"lines": lines, "header": header, "rows": rows}


def _sealed(seals: RunSeals, trial: Trial) -> TrialSeal:
    """The trial's verified state, or tampered when its result is gone since the scan."""
    found = seals.trial(trial.task_id, trial.iteration)
    gone = Seal(trial.path / "result.json", TAMPERED, "removed", "was removed")
    return found or TrialSeal(trial.task_id, trial.iteration, gone)


def _trial_row(run: Run, trial: Trial, sealed: TrialSeal, links: Links) -> dict[str, Any]:
    """A trial's verdict (``tampered`` when it is: what the file claims is only shown as
    a claim), checks passed, phases and timings, and its badge."""
    result = sealed.doc or {}
    timings = result.get("timings", {})
    checks = result.get("checks", [])
    claimed = str(result.get("verdict", "-"))
    counted = sealed.seal.state != TAMPERED
    reason = failure_reason(sealed.result) if counted and sealed.result else ""
    return {
        "n": trial.iteration,
        "url": links.trial(run.id, trial.task_id, trial.iteration),
        "verdict": claimed if counted else TAMPERED,
        "claimed": None if counted else claimed,
        "seal": {"state": sealed.seal.state, "badge": sealed.seal.badge},
        "reason": reason,
        "phases": [
            {
                "name": p["name"],
                "exit": p.get("exit_code"),
                "wall": f"{p.get('wall_s') or 0:.2f} s",
                "timed_out": bool(p.get("timed_out")),
                "limit": p.get("limit"),
            }
            for p in result.get("phases", [])
        ],
        "timings": {k: f"{v:.2f} s" for k, v in timings.items() if isinstance(v, int | float)},
        "checks": f"{sum(c.get('status') == 'PASS' for c in checks)}/{len(checks)}"
        if counted
        else WITHHELD,
    }


def trial_view(
    run: Run, trial: Trial, links: Links, seals: RunSeals | None = None
) -> dict[str, Any]:
    """A trial: each phase's prompt and diff, the agent's steps, check rows with their
    whole evidence, the answer and the agent's log, and its verification badge."""
    seals = seals or run.verify()
    sealed = _sealed(seals, trial)
    result = sealed.doc or {}
    row = _trial_row(run, trial, sealed, links)
    trajectory = trial.json("trajectory.json", {})
    texts = {p.get("name"): p for p in trial.json("phases.json", []) if isinstance(p, dict)}
    phases = []
    for phase, record in zip(row["phases"], result.get("phases", []), strict=True):
        text = texts.get(record["name"], {})
        phases.append(phase | {"prompt": text.get("prompt"), "diff": diff_lines(text.get("diff")),
                               "recorded": bool(text), "commit": record.get("commit")})  # fmt: skip
    return {
        "run": run.id,
        "run_url": links.run(run.id),
        "run_headline": seals.headline(),
        "task": trial.task_id,
        "task_url": links.task(run.id, trial.task_id),
        "n": trial.iteration,
        "verdict": row["verdict"],
        "claimed": row["claimed"],
        "seal": row["seal"],
        "reason": row["reason"],
        "phases": phases,
        "steps": [_step(s) for s in trajectory.get("steps", []) if isinstance(s, Mapping)],
        "checks": [_check(c) for c in result.get("checks", [])],
        "answer": trial.text("answer.txt"),
        "log": trial.text("agent.log"),
        "timings": row["timings"],
        "run_meta": _trial_run_meta(result.get("run")) if sealed.counted else {},
        "replay_errors": result.get("replay_errors", []),
    }


def _trial_run_meta(raw: Any) -> dict[str, str]:
    """What was measured of the trial's run (its ``run`` block, checked again): when the
    agent started and finished, then `usage_fields`; empty for a result from before."""
    block = read_block(raw)
    if block is None:
        return {}
    when = {"started": fmt_when(block["started_at"]), "finished": fmt_when(block["finished_at"])}
    dropped = {"dropped": "; ".join(block["dropped"])} if block.get("dropped") else {}
    return when | usage_fields(block) | dropped


def card_view(card: Card, links: Links) -> dict[str, Any]:
    """A scorecard: the board's components' fields, plus what only a local reader has:
    each row's evidence, tier weights, excellence conditions, multipliers, attribution,
    provenance, the grading's phases, screenshots, the app log and the vendor trace."""
    doc = card.doc
    fields = scorecard_fields(doc)
    evidence = {r["check_id"]: r.get("evidence") for r in doc.get("grading", {}).get("results", [])}
    for row in fields["checks"]:
        row["evidence"] = evidence_text(evidence.get(row["id"]))
    files = card.evidence()
    grading = doc.get("grading", {})
    return {
        "id": card.id,
        "url": links.card(card.id),
        "path": str(card.path),
        "fields": fields,
        "banner": doc.get("banner"),
        "tiers": doc.get("tiers", []),
        "excellence": doc.get("excellence"),
        "factors": doc.get("factors", []),
        "attribution": doc.get("attribution", []),
        "unavailable": doc.get("unavailable", []),
        "flags": doc.get("flags", {}),
        "meta": {str(k): str(v) for k, v in doc.get("provenance", {}).items()},
        "phases": grading.get("phases", []),
        "shots": card_shots(card, files, links),
        "boot_failure": grading.get("boot_failure"),
        "no_shots": no_shots_reason(grading),
        "app_log": _log(card, files, "app_log", links),
        "trace": _trace(card, files, links),
    }


def card_shots(card: Card, files: Mapping[str, Path], links: Links) -> list[dict[str, Any]]:
    """Every screenshot the card keeps, in its order, with the rows that rely on it and
    whether the board received it; a card from before ``grading.screenshots`` shows its
    published ones (``screenshot_<name>`` evidence) without rows."""
    listed = {str(s["name"]): s for s in card.screenshots()}
    keys = [f"screenshot_{name}" for name in listed] or [
        k for k in files if k.startswith("screenshot_")
    ]
    shots = []
    for key in keys:
        path = files.get(key)
        if path is None or path.suffix != ".png":
            continue
        name = key.removeprefix("screenshot_")
        entry = listed.get(name, {})
        rows = entry.get("rows")
        shots.append({
            "name": name,
            "url": links.evidence(card, key, path),
            "rows": [str(r) for r in rows] if isinstance(rows, list) else [],
            "published": bool(entry.get("published", not listed)),
        })  # fmt: skip
    return shots


def no_shots_reason(grading: Mapping[str, Any]) -> str:
    """Why a card has no screenshots: the app never booted, the browser phase did not run
    (or could not), or it took none."""
    if grading.get("boot_failure"):
        return (
            "No screenshots: the app never booted, so no page was opened (see the boot "
            "failure above)."
        )
    browser = next((p for p in grading.get("phases", []) if p.get("name") == "browser"), None)
    if browser is None:
        return "No screenshots: the browser phase did not run in this grading."
    if browser.get("outcome") != "ok":
        return f"No screenshots: the browser phase ended {browser.get('outcome')}."
    return "No screenshots were kept with this scorecard."


def compare_runs(a: Run, b: Run, links: Links) -> dict[str, Any]:
    """Per task: verdict in A and B and what changed; per check: mean score delta. A task
    with a tampered trial compares as ``tampered`` and a run with a tampered file shows
    no pass rate; each run that is not verified gets a banner."""
    sa, sb = a.verify(), b.verify()
    verdicts_a, verdicts_b = _task_verdicts(sa), _task_verdicts(sb)
    tasks = []
    for task in sorted(verdicts_a.keys() | verdicts_b.keys()):
        va, vb = verdicts_a.get(task, "absent"), verdicts_b.get(task, "absent")
        scores_a, scores_b = _check_means(sa, task), _check_means(sb, task)
        rows = [_delta(c, scores_a.get(c), scores_b.get(c)) for c in sorted(scores_a | scores_b)]
        urls = {
            side: links.task(run.id, task) if task in verdicts else None
            for side, run, verdicts in (("a_url", a, verdicts_a), ("b_url", b, verdicts_b))
        }
        tasks.append({"id": task, "a": va, "b": vb, "change": _change(va, vb), "rows": rows,
                      **urls})  # fmt: skip
    rates = [
        _delta(f"{tier} pass rate", _rate_value(sa, tier), _rate_value(sb, tier))
        for tier in ("correctness", "build")
    ]
    row_a, row_b = run_row(a, links, sa), run_row(b, links, sb)
    banners = [f"{side}: {row['seal']['badge']} ({row['seal']['counts']})"
               for side, row in (("A", row_a), ("B", row_b))
               if row["seal"]["state"] != VERIFIED]  # fmt: skip
    return {"kind": "runs", "a": row_a, "b": row_b, "tasks": tasks, "totals": rates,
            "banners": banners}  # fmt: skip


def _task_verdicts(seals: RunSeals) -> dict[str, str]:
    """Each task's verdict from the summary (none from a tampered one), ``tampered`` for a
    task with a tampered trial."""
    tasks = (seals.summary_doc or {}).get("tasks", {})
    verdicts = {t: str(v.get("verdict")) for t, v in tasks.items() if isinstance(v, Mapping)}
    for trial in seals.trials:
        if trial.seal.state == TAMPERED:
            verdicts[trial.task_id] = TAMPERED
    return verdicts


def compare_cards(a: Card, b: Card, links: Links) -> dict[str, Any]:
    """Score, tier means and every row's score, A against B."""
    rows_a = {r["check_id"]: r["score"] for r in a.doc["rows"] if not r.get("missing")}
    rows_b = {r["check_id"]: r["score"] for r in b.doc["rows"] if not r.get("missing")}
    status_a = {r["check_id"]: r["status"] for r in a.doc["rows"]}
    status_b = {r["check_id"]: r["status"] for r in b.doc["rows"]}
    tiers_a, tiers_b = card_row(a, links)["tiers"], card_row(b, links)["tiers"]
    totals = [_delta("score", a.doc["score"], b.doc["score"])]
    totals += [_delta(f"tier {t}", tiers_a.get(t), tiers_b.get(t)) for t in tiers_a | tiers_b]
    rows = []
    for check in sorted(rows_a.keys() | rows_b.keys()):
        row = _delta(check, rows_a.get(check), rows_b.get(check))
        sa, sb = status_a.get(check, "absent"), status_b.get(check, "absent")
        rows.append(row | {"a_status": sa, "b_status": sb, "change": _change(sa, sb)})
    differ = a.doc["scorer_version"] != b.doc["scorer_version"]
    return {"kind": "cards", "a": card_row(a, links), "b": card_row(b, links), "rows": rows,
            "totals": totals, "versions_differ": differ, "banners": []}  # fmt: skip


def diff_lines(diff: str | None) -> list[tuple[str, str]]:
    """A unified diff as ``(kind, line)``: file, hunk, add, del or ctx (for colouring)."""
    lines = []
    for line in (diff or "").splitlines():
        if line.startswith(("diff --git", "--- ", "+++ ", "index ", "new file", "deleted file")):
            kind = "file"
        elif line.startswith("@@"):
            kind = "hunk"
        elif line.startswith("+"):
            kind = "add"
        elif line.startswith("-"):
            kind = "del"
        else:
            kind = "ctx"
        lines.append((kind, line))
    return lines


def evidence_text(evidence: Any) -> str:
    """A check's evidence for reading: multi-line strings (test output) printed as they
    are under their key, everything else as indented JSON."""
    if not evidence:
        return ""
    if not isinstance(evidence, Mapping):
        return json.dumps(evidence, indent=2, default=str)
    parts = []
    for key, value in evidence.items():
        if isinstance(value, str) and "\n" in value:
            parts.append(f"{key}:\n{value.rstrip()}")
        else:
            parts.append(f"{key}: {json.dumps(value, default=str)}")
    return "\n".join(parts)


def _check(raw: Mapping[str, Any]) -> dict[str, Any]:
    # a trial's checks carry no scorer tier (its task has one, shown above them)
    return {"id": raw.get("check_id", "?"), "tier": "-", "status": raw.get("status", "-"),
            "score": raw.get("score"), "weight": None, "detail": raw.get("detail", ""),
            "evidence": evidence_text(raw.get("evidence"))}  # fmt: skip


def _step(step: Mapping[str, Any]) -> dict[str, Any]:
    """A trajectory step: its kind, tool, arguments and whatever else it recorded."""
    rest = {k: v for k, v in step.items() if k not in ("type", "tool", "args")}
    return {
        "type": str(step.get("type", "-")),
        "tool": str(step.get("tool", "")),
        "args": json.dumps(step.get("args"), indent=2, default=str) if "args" in step else "",
        "rest": evidence_text(rest),
    }


def _log(card: Card, files: Mapping[str, Path], key: str, links: Links) -> dict[str, Any] | None:
    """A text file of the card's evidence: its text (cut at `MAX_TEXT_BYTES`), how many
    lines it has, and a link to the whole file."""
    path = files.get(key)
    if path is None:
        return None
    text = read_text(path)
    return {"text": text, "lines": text.count("\n"), "url": links.evidence(card, key, path),
            "name": path.name}  # fmt: skip


def _trace(card: Card, files: Mapping[str, Path], links: Links) -> dict[str, Any] | None:
    """The vendor trace's lines as rows (seq, phase, method, path, status, the rest), and
    a link to the whole file."""
    path = files.get("vendor_trace")
    if path is None:
        return None
    rows, skipped, phase = [], 0, "-"
    for line in read_text(path).splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict):
            continue
        if "__phase__" in entry:
            phase = str(entry["__phase__"])
            continue
        if len(rows) >= MAX_TRACE_ROWS:
            skipped += 1
            continue
        rest = {k: v for k, v in entry.items() if k not in (*TRACE_KEYS, "t", "query") and v}
        rows.append({**{k: str(entry.get(k, "")) for k in TRACE_KEYS}, "phase": phase,
                     "query": json.dumps(entry.get("query") or {}),
                     "rest": json.dumps(rest, default=str)})  # fmt: skip
    columns = {k: sorted({r[k] for r in rows}) for k in ("phase", "method", "status")}
    return {"rows": rows, "skipped": skipped, "choices": columns, "name": path.name,
            "url": links.evidence(card, "vendor_trace", path)}  # fmt: skip


def _run_meta(run: Run, seals: RunSeals) -> dict[str, str]:
    info, summary = run.info, seals.summary_doc or {}
    return {
        "run": run.id,
        "suite": _suite(info),
        "agent": str(info.get("agent", "-")),
        "created": fmt_when(info.get("created_at")),
        "tasks": f"{info.get('tasks_glob', '*')} ({len(info.get('tasks', []))} tasks)",
        "iterations": str(info.get("iterations", "-")),
        "seed": str(info.get("seed", "-")),
        "isolation": str(summary.get("isolation") or info.get("isolation", "-")),
        "complete": "yes" if summary.get("complete") else "no (no summary or unfinished)",
        **(usage_fields(summary["usage"]) if summary.get("usage") and not seals.tampered() else {}),
        **_tiers_per_trial(seals),
        "results": run_seal(seals)["counts"],
        "run.json": seals.run_json.badge if seals.run_json else "none",
        "summary.json": seals.summary.badge if seals.summary else "none",
        "directory": str(run.path),
        **({"sealed in": str(seals.origin)} if seals.origin else {}),
    }


def _per_trial(seals: RunSeals, figures: Any, counts: bool = False) -> str:
    """A task's or tier's pass@1, pass@K and mean score from the summary, ``-`` without
    them (a latency task, a summary written before them), withheld in a tampered run."""
    if seals.tampered():
        return WITHHELD
    if not isinstance(figures, Mapping):
        return "-"
    ks = shown_ks((seals.summary_doc or {}).get("iterations"))
    return figures_text(figures, ks, counts=counts)


def _tiers_per_trial(seals: RunSeals) -> dict[str, str]:
    """``correctness per trial: …`` rows for the run's metadata, for tiers with figures."""
    per_tier = (seals.summary_doc or {}).get("per_trial")
    if not isinstance(per_tier, Mapping):
        return {}
    return {f"{tier} per trial": _per_trial(seals, per_tier.get(tier), counts=True)
            for tier in ("correctness", "build")
            if isinstance(per_tier.get(tier), Mapping)}  # fmt: skip


def _when(value: Any) -> str:
    """A run's ``created_at`` to the minute (`fmt_when`), as written when it is not a time."""
    try:
        return fmt_when(value) if isinstance(value, str) else "-"
    except ValueError:
        return value


def _suite(info: Mapping[str, Any]) -> str:
    suite = info.get("suite")
    return str(suite.get("name", "-")) if isinstance(suite, Mapping) else str(suite or "-")


def _rate(counts: Mapping[str, int] | None) -> str:
    if not counts or not counts.get("tasks"):
        return "-"
    return f"{counts.get('passed', 0)}/{counts['attempted']}"


def _latency(counts: Mapping[str, int] | None) -> str:
    if not counts or not counts.get("tasks"):
        return "-"
    return f"{counts.get('completed', 0)}/{counts['tasks']} completed"


def _rate_value(seals: RunSeals, tier: str) -> float | None:
    """A tier's pass rate from the summary; None when the run has a tampered file."""
    value = (seals.summary_doc or {}).get(f"{tier}_pass_rate")
    return value if isinstance(value, int | float) and not seals.tampered() else None


def _check_means(seals: RunSeals, task: str) -> dict[str, float]:
    """Each check's mean score over the task's trials that may be counted."""
    scores: dict[str, list[float]] = {}
    for trial in seals.trials:
        if trial.task_id == task and trial.result is not None and trial.counted:
            for check in trial.result.checks:
                scores.setdefault(check.check_id, []).append(float(check.score))
    return {k: sum(v) / len(v) for k, v in scores.items()}


def _delta(name: str, a: float | None, b: float | None) -> dict[str, Any]:
    delta = None if a is None or b is None else round(b - a, 6)
    return {"name": name, "a": a, "b": b, "delta": delta}


def _change(a: str, b: str) -> str:
    """How one verdict or status moved from A to B, in words the compare page filters on."""
    good = ("passed", "PASS", "completed")
    if a == b:
        return "same"
    if b in good:
        return "newly passing"
    if a in good:
        return "newly failing"
    return "changed"
