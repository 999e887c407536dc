"""Real runs, a real scorecard with its evidence files, and ``benchwright view`` served by
a real subprocess: what the viewer tests open in Chromium and over HTTP."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import compose, defect_rows, load_scorer

ROOT = Path(__file__).resolve().parents[2]
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
XSS = '<script>alert("xss")</script><img src=x onerror=alert(1)>'


def cli(*args: str, cwd: Path = ROOT, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BENCHWRIGHT), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A real PNG (one colour) that a browser decodes to ``width`` x ``height``."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))  # fmt: skip


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``runs/`` with an oracle and a nop run of turnbench's fix tasks, and ``hostile/``:
    a copy of the oracle run whose prompt, check detail and answer are markup."""
    out = tmp_path_factory.mktemp("runs")
    ids = {}
    for agent in ("oracle", "nop"):
        done = cli("run", "suites/turnbench", "--agent", agent, "--tasks", "fix-0*",
                   "--out", str(out / "runs"))  # fmt: skip
        assert done.returncode in (0, 1), done.stderr
        ids[agent] = next(p.name for p in (out / "runs").iterdir() if f"-{agent}-" in p.name)
    hostile = out / "hostile" / "evil-run"
    shutil.copytree(out / "runs" / ids["oracle"], hostile)
    info = json.loads((hostile / "run.json").read_text())
    (hostile / "run.json").write_text(json.dumps(info | {"run_id": "evil-run", "agent": XSS}))
    trial = hostile / "trials" / "fix-01" / "1"
    phases = json.loads((trial / "phases.json").read_text())
    phases[0]["prompt"] = XSS
    (trial / "phases.json").write_text(json.dumps(phases))
    result = json.loads((trial / "result.json").read_text())
    result["checks"][0]["detail"] = XSS
    (trial / "result.json").write_text(json.dumps(result))
    (trial / "answer.txt").write_text(XSS)
    return {"dir": out / "runs", "hostile": out / "hostile", **ids}


def make_card(where: Path, name: str, losses: dict[str, float], detail: str = "") -> Path:
    """A scorecard composed by the shipped sb-6 scorer, written as ``grade --json`` writes
    one, with its evidence beside it: two screenshots, an app log and a vendor trace, and
    two evidence names that point outside its directory (never to be served)."""
    scorer = load_scorer(ROOT / "scorers" / "sb6.yaml")
    doc = scorecard_dict(compose(defect_rows(scorer, losses), scorer))
    if detail:
        doc["rows"][0]["detail"] = detail
    shots = where / f"{name}.browser" / "load"
    shots.mkdir(parents=True)
    (shots / "load-1280.png").write_bytes(png(64, 40, (30, 90, 160)))
    (shots / "load-375.png").write_bytes(png(24, 40, (160, 60, 30)))
    (where / f"{name}.app.log").write_text(f"vspro: serving http://127.0.0.1:1/\n{detail}\n")
    trace = [
        {"seq": 1, "method": "POST", "path": "/v2/webhooks", "status": 200, "query": {}},
        {"seq": 2, "__phase__": "sync1", "method": "-", "path": "-", "status": 0},
        {"seq": 3, "method": "GET", "path": "/v2/payments", "status": 200, "query": {"n": 1}},
        {"seq": 4, "method": "GET", "path": "/v2/payments/x", "status": 404, "query": {}},
    ]
    (where / f"{name}.vendor-trace.jsonl").write_text("".join(json.dumps(t) + "\n" for t in trace))
    (where.parent / "outside.png").write_bytes(png(8, 8, (0, 0, 0)))
    doc["grading"] = {
        "phases": [{"name": "boot", "seconds": 0.4, "outcome": "ok", "parts": {}}],
        "evidence": {
            "app_log": f"reports/{name}.app.log",
            "vendor_trace": f"reports/{name}.vendor-trace.jsonl",
            "screenshot_load-1280": f"reports/{name}.browser/load/load-1280.png",
            "screenshot_load-375": str(shots / "load-375.png"),
            "screenshot_escape": "../outside.png",
            "screenshot_absolute": str(where.parent / "outside.png"),
        },
        "results": [{"check_id": r["check_id"], "evidence": {"stdout": f"line 1\n{detail}\n"}}
                    for r in doc["rows"]],
    }  # fmt: skip
    path = where / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.fixture(scope="session")
def cards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``good`` (server_runs half lost), ``worse`` (more lost) and ``evil`` (markup detail)."""
    base = tmp_path_factory.mktemp("cards")
    made = {}
    for name, losses, detail in (
        ("good", {"server_runs": 0.5}, ""),
        ("worse", {"server_runs": 0.5, "t_camera": 0.6}, ""),
        ("evil", {}, XSS),
    ):
        (base / name).mkdir()
        made[name] = make_card(base / name, name, losses, detail)
    return made


def thumbs_loaded(page: Any) -> None:
    """Scroll each thumbnail into view (they load lazily) and wait until all are decoded."""
    for n in range(page.locator("img.thumb").count()):
        page.locator("img.thumb").nth(n).scroll_into_view_if_needed()
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.thumb')].every(i => i.complete)"
    )


@contextmanager
def serving(*paths: Path) -> Iterator[str]:
    """``benchwright view PATHS`` as a real process; yields the URL it prints."""
    proc = subprocess.Popen(
        [str(BENCHWRIGHT), "view", *map(str, paths)], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert "http://127.0.0.1:" in line, (line, proc.stderr.read() if proc.stderr else "")
        yield line.split(" at ", 1)[1].split()[0].rstrip("/")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="session")
def viewer(runs: dict[str, Any], cards: dict[str, Path]) -> Iterator[str]:
    with serving(runs["dir"], runs["hostile"], cards["good"], cards["worse"], cards["evil"]) as url:
        yield url
