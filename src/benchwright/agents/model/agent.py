"""``--agent model:PROVIDER/MODEL``: the built-in agent that needs only an endpoint and a key.

The model is called from the grader's process; only the tool commands run inside the
trial's sandbox, which therefore needs no network for the model and never sees the key
(docs/agents.md, "The model agent"). Each phase is a fresh conversation: the phase's
prompt, the tools, the loop (`loop`), a live trajectory (`records`).

The provider a phase talks to is composed here (`compose`): each endpoint's provider
wrapped for retries (`retry.Retrying`), several endpoints spread as a fleet
(`fleet.Fleet`); costs come from the price table (`_price`, `prices`).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchwright.agents._protocol import AgentOutcome, AgentRequest
from benchwright.agents.model.config import ModelConfig
from benchwright.agents.model.fleet import Fleet
from benchwright.agents.model.loop import End, Limits, Loop
from benchwright.agents.model.prices import price_table
from benchwright.agents.model.records import Price, Recorder, live_path
from benchwright.agents.model.retry import Retrying
from benchwright.agents.model.tools import Toolbox, ToolInfra
from benchwright.agents.model.wire import Provider
from benchwright.errors import SpecError

PROVIDER_CLASSES = {
    "openai": ("benchwright.agents.model.openai_provider", "OpenAIProvider"),
    "anthropic": ("benchwright.agents.model.anthropic_provider", "AnthropicProvider"),
}
"""Provider → (module, class); a class is built as ``Class(base_url, api_key, model)``."""


def _price(config: ModelConfig) -> Price:
    """USD per million (input, output) tokens of a model id: the built-in table, extended
    by the file ``BENCHWRIGHT_MODEL_PRICES`` names, then ``--model-prices``'s
    (`benchwright.agents.model.prices`)."""
    path = Path(config.prices_file) if config.prices_file else None
    return price_table(path).per_million


SYSTEM = """\
You are a software engineer working alone in a repository, in the directory {workspace}.
Complete the task the user gives you: inspect the files, change them as asked, run
commands to check your work. There is no network. When you are done, submit your final
answer (for a question: the answer itself, in the format asked; for a change: one line
saying what you did). Nothing you do after submitting counts."""


def provider_class(provider: str) -> type:
    """The class of ``provider``; `SpecError` on ``--agent`` when this install lacks it."""
    module, name = PROVIDER_CLASSES[provider]
    try:
        return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]
    except (ImportError, AttributeError) as exc:
        raise SpecError.single("--agent", f"the {provider} provider cannot load here: {exc} "
                               "(install the model extra: pip install 'benchwright[model]')"
                               ) from None  # fmt: skip


def compose(config: ModelConfig, keys: Sequence[str | None], deadline: float) -> Provider:
    """The provider one phase calls: every endpoint, each retried within the phase's wall
    budget (``deadline``, on `time.monotonic`), several spread as a fleet, least busy first
    across the run's workers."""
    cls = provider_class(config.provider)
    members = [Retrying(cls(url, key, config.model), deadline=deadline)
               for url, key in zip(config.base_urls, keys, strict=True)]  # fmt: skip
    if len(members) == 1:
        return members[0]
    return Fleet(members, state_dir=fleet_dir(config))


def fleet_dir(config: ModelConfig) -> Path:
    """Where the run's workers count each endpoint's calls in flight: beside the live
    trajectories (in the run directory, which no sandbox can write), else a directory of
    this user's temp dir named by the endpoints."""
    if config.live_dir:
        return Path(config.live_dir).parent / ".model-fleet"
    name = hashlib.sha256("\n".join(config.base_urls).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"benchwright-fleet-{os.getuid()}-{name}"


@dataclass(frozen=True)
class ModelAgent:
    spec: str
    config: ModelConfig

    def run(self, request: AgentRequest) -> AgentOutcome:
        config, started = self.config, time.monotonic()
        keys = config.endpoint_keys()
        secrets = tuple(dict.fromkeys(key for key in keys if key))
        directory = Path(config.live_dir) if config.live_dir else request.log_dir()
        live = live_path(directory, request.task.id, request.phase.name)
        recorder = Recorder(live, _price(config), secrets=secrets)
        recorder.open({"agent": self.spec, "task": request.task.id,
                       "phase": request.phase.name, "tools": config.tools})  # fmt: skip
        request.answer_file.unlink(missing_ok=True)
        toolbox = Toolbox(
            request, started + request.budget_s, config.shell_timeout_s,
            hidden_env=tuple(dict.fromkeys(name for name in config.key_names() if name)),
            secrets=secrets,
        )  # fmt: skip
        limits = Limits(config.max_turns, config.max_tokens, config.max_cost,
                        started + request.budget_s, config.context_chars, config.output_chars,
                        config.call_timeout_s)  # fmt: skip
        system = SYSTEM.format(workspace=request.workspace)
        end = End("agent")
        try:
            provider = compose(config, keys, started + request.budget_s)
            loop = Loop(provider, toolbox, recorder, limits, config.tools, config.params)
            end = loop.run(system, request.phase.prompt)
        except ToolInfra as exc:
            end = End("agent", error=str(exc))
        finally:
            recorder.close(end.answer)
        if end.error is not None:  # an endpoint may echo the key in its message
            end = End(end.stop, end.answer, recorder.scrub(end.error))
        return _outcome(request, end, recorder, time.monotonic() - started)


def _outcome(request: AgentRequest, end: End, recorder: Recorder, wall_s: float) -> AgentOutcome:
    metadata = {**recorder.metadata(), "model_agent_stop": end.stop,
                "live_trajectory": str(recorder.live)}  # fmt: skip
    summary = (f"model agent: {recorder.model_calls} model call(s), {recorder.tool_steps} "
               f"tool step(s), stopped: {end.stop}\n")  # fmt: skip
    budget = end.error == "budget"
    error = end.error
    if budget:
        error = (f"budget: phase {request.phase.name} exceeded its {request.budget_s:g}s budget "
                 "(the model agent stopped)")  # fmt: skip
    return AgentOutcome(
        exit_code=None if error else 0,
        wall_s=wall_s,
        stdout=summary,
        answer=end.answer,
        steps=tuple(recorder.steps),
        metadata=metadata,
        timed_out=budget,
        error=error,
    )
