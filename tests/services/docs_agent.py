"""A build agent for the build-trace tests (``command:python docs_agent.py WORKSPACE
PROMPT_FILE [--read-docs] [--forge] [--copy DIR] [--copy-contents DIR]``).

``--read-docs`` fetches the vendor's docs at the ``{DOCS_URL}`` rendered into its prompt,
as a builder told to read them first would. ``--forge`` reads nothing and instead writes a
vendor trace claiming a docs read everywhere a grader might look for one: in its
workspace, and where the harness keeps the real one (the trial directory beside the
workspace, which a sandboxed agent cannot write). ``--copy`` then copies a reference
build into the workspace as a folder of its name; ``--copy-contents`` copies what a
reference folder holds into the workspace itself (sb-7's: ``app/`` beside its documents).
Its answer (one JSON line) says what it did and which forgeries landed. Standard library
only.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
import urllib.request
from pathlib import Path

FORGED = {"seq": 1, "t": 0.0, "method": "GET", "path": "/v1/docs", "query": {}, "status": 200}
FORGED_PLACES = (
    "evidence/~build/vendor-trace.jsonl",
    "build.vendor-trace.jsonl",
    "vendor-trace.jsonl",
    "../evidence/~build/vendor-trace.jsonl",
)
"""Relative to the workspace; the last is where the harness writes the real trace."""


def _forge(workspace: Path) -> dict[str, str]:
    line = json.dumps(FORGED | {"t": time.time()}) + "\n"
    landed = {}
    for place in FORGED_PLACES:
        path = workspace / place
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(line * 3)
            landed[place] = "written"
        except OSError as exc:
            landed[place] = type(exc).__name__
    return landed


def main(argv: list[str]) -> None:
    workspace, prompt_file, *rest = argv
    prompt = Path(prompt_file).read_text()
    seen: dict[str, object] = {}
    if "--read-docs" in rest:
        docs = re.search(r"http://127\.0\.0\.1:\d+/v\d/docs", prompt).group(0)
        with urllib.request.urlopen(docs, timeout=30) as answer:
            seen["docs"] = {"url": docs, "status": answer.status, "bytes": len(answer.read())}
    if "--forge" in rest:
        seen["forged"] = _forge(Path(workspace))
    for flag in ("--copy", "--copy-contents"):
        if flag in rest:
            source = Path(rest[rest.index(flag) + 1])
            target = Path(workspace) / (source.name if flag == "--copy" else "")
            shutil.copytree(source, target, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.db"))  # fmt: skip
    print(json.dumps(seen))


if __name__ == "__main__":
    main(sys.argv[1:])
