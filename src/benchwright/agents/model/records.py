"""The model agent's trajectory, written as it happens, and its metadata.

Every model call and every tool step becomes a step in benchwright's vocabulary
(docs/transcripts.md) the moment it happens, appended to a JSONL file that
``benchwright watch`` and ``trajectory import`` read (the generic ``jsonl`` format):

* a first line ``{"type": "metadata", "format": "benchwright-model-agent", …}`` (how
  ``watch`` recognises the file);
* ``{"type": "model_call", "model", "endpoint", "input_tokens", "output_tokens",
  "latency_s", "attempts", "finish", "tool_calls"}`` per successful call,
  ``{"type": "model_error", …}`` per call that failed;
* tool steps (``shell``, ``write_file``, ``str_replace``, ``delete_file``,
  ``file_unrecorded``, ``view_file``, ``submit``, ``failed:…``) as `tools` makes them;
* ``{"type": "tool_error", "agent_tool", "error"}`` for a call answered as an error (no
  ``tool`` key: a malformed ``shell`` call must not read as a command without one);
* last, a ``metadata`` line with the totals (`metadata`) and an ``answer`` line.

The same steps (without the header and footer lines) are the outcome's ``steps``, so the
trial's sealed ``trajectory.json`` holds them. A line is flushed as soon as it is
written; the file is never rewritten, only appended to.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from benchwright.agents.model.wire import ModelFault, ModelRefused, Reply, Usage

FORMAT = "benchwright-model-agent"
Price = Callable[[str], "tuple[float, float] | None"]
"""USD per million (input, output) tokens of a model id; None when unknown."""


def no_price(model: str) -> tuple[float, float] | None:
    """No price for any model: a recorder built without a price table reports tokens only."""
    return None


@dataclass
class Recorder:
    """Steps and totals of one phase; ``live`` the JSONL file they are appended to."""

    live: Path
    price: Price = no_price
    secrets: tuple[str, ...] = ()
    """Text never recorded (the API key, should an endpoint echo it in an error)."""
    steps: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = 0.0
    """None once a call was made to a model whose price is unknown."""
    model_calls: int = 0
    tool_steps: int = 0
    model: str | None = None
    endpoints: dict[str, None] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    """What the loop decided on its own (a fallback to text mode, elided outputs)."""
    _file: IO[str] | None = None

    def open(self, header: Mapping[str, Any]) -> None:
        self.live.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.live.open("a", encoding="utf-8")
        started = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        self._line({"type": "metadata", "format": FORMAT,
                    "metadata": {**header, "started_at": started}})  # fmt: skip

    def close(self, answer: str | None) -> None:
        if self._file is None:
            return
        self._line({"type": "metadata", "metadata": self.metadata()})
        if answer is not None:
            self._line({"type": "answer", "answer": answer})
        self._file.close()
        self._file = None

    def call(self, reply: Reply) -> None:
        """One successful model call (retries included in ``attempts``)."""
        self.model_calls += reply.attempts
        self.usage += reply.usage
        self.model = reply.model or self.model
        self.endpoints[reply.endpoint] = None
        if self.cost_usd is not None:
            price = self.price(reply.model)
            self.cost_usd = None if price is None else self.cost_usd + (
                reply.usage.input_tokens * price[0] + reply.usage.output_tokens * price[1]
            ) / 1e6  # fmt: skip
        self.step({
            "type": "model_call", "model": reply.model, "endpoint": reply.endpoint,
            "input_tokens": reply.usage.input_tokens, "output_tokens": reply.usage.output_tokens,
            "latency_s": round(reply.latency_s, 3), "attempts": reply.attempts,
            "finish": reply.finish, "tool_calls": [c.name for c in reply.tool_calls],
        })  # fmt: skip

    def failed_call(self, fault: ModelFault | ModelRefused) -> None:
        """A call that failed for good, after every try it was given (``attempts``)."""
        self.model_calls += fault.attempts
        self.step({"type": "model_error", "endpoint": fault.endpoint, "status": fault.status,
                   "error": fault.message, "refused": isinstance(fault, ModelRefused)})  # fmt: skip

    def tool(self, steps: list[dict[str, Any]]) -> None:
        """The steps of one executed tool call (its file steps included)."""
        self.tool_steps += 1
        for step in steps:
            self.step(step)

    def note(self, kind: str, **details: Any) -> None:
        self.notes.append(kind)
        self.step({"type": kind, **details})

    def step(self, step: dict[str, Any]) -> None:
        step = json.loads(self.scrub(json.dumps(step)))
        self.steps.append(step)
        self._line(step)

    def scrub(self, text: str) -> str:
        """``text`` with every secret replaced by ``[redacted]``."""
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return text

    def metadata(self) -> dict[str, Any]:
        """The contract's keys (docs/agents.md): model, usage, calls, steps, endpoints."""
        doc: dict[str, Any] = {
            "usage": {"input_tokens": self.usage.input_tokens,
                      "output_tokens": self.usage.output_tokens,
                      "cost_usd": None if self.cost_usd is None else round(self.cost_usd, 6)},
            "model_calls": self.model_calls, "tool_steps": self.tool_steps,
            "endpoints": list(self.endpoints),
        }  # fmt: skip
        if self.model:
            doc["model"] = self.model
        if self.notes:
            doc["model_agent_notes"] = sorted(set(self.notes))
        return doc

    def _line(self, doc: Mapping[str, Any]) -> None:
        if self._file is not None:
            self._file.write(self.scrub(json.dumps(doc, ensure_ascii=False)) + "\n")
            self._file.flush()


def live_path(directory: Path, task_id: str, phase: str) -> Path:
    """``DIR/<task>/<phase>-<UTC time>-<n>.jsonl``: a new file per phase and trial, never
    one another trial (or iteration) of the same task writes."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", task_id) or "task"
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    folder = directory / safe
    folder.mkdir(parents=True, exist_ok=True)
    n = 1
    while True:
        path = folder / f"{re.sub(r'[^A-Za-z0-9._-]', '_', phase)}-{stamp}-{n}.jsonl"
        try:
            path.open("x").close()  # claimed atomically: two workers never share a file
            return path
        except FileExistsError:
            n += 1
