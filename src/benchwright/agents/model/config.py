"""What a ``model:PROVIDER/MODEL`` agent is configured with, and how that crosses processes.

A `ModelConfig` is built once from the command line (``--model-*``), travels to workers
inside `TrialOptions.model` (it is a plain frozen dataclass, so it pickles), and is
recorded in ``run.json`` (`ModelConfig.record`) so that ``run --resume`` rebuilds the same
agent. It never holds an API key: only the *name* of the environment variable the key
is read from, at the moment a trial calls the model (`api_key`). A key therefore never
reaches a file, a flag, a pickle sent to a Ray node, or a sandbox.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from benchwright.errors import SpecError

PROVIDERS = ("openai", "anthropic")
ToolMode = Literal["native", "text", "auto"]
TOOL_MODES: tuple[ToolMode, ...] = ("native", "text", "auto")

DEFAULT_BASE_URLS = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
}
BASE_URL_ENV = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
KEY_ENV = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
NO_KEY = "none"
"""``--model-api-key-env none``: the endpoint needs no key (a local server)."""


@dataclass(frozen=True)
class ModelConfig:
    """One model agent's settings (docs/agents.md, "The model agent")."""

    provider: str
    model: str
    base_urls: tuple[str, ...]
    """Endpoints, in the order given; more than one is a fleet (`agent.compose`)."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """``--model-arg``: passed through to every call (temperature, seed, max_tokens …)."""
    tools: ToolMode = "auto"
    api_key_env: str | None = None
    """The variable the key is read from; None: no key (``--model-api-key-env none``)."""
    max_turns: int = 50
    max_tokens: int | None = None
    """Input plus output tokens over the whole phase, as the server reported them."""
    max_cost: float | None = None
    """USD over the phase; only enforceable for a model with a known price."""
    context_chars: int = 400_000
    """Past this many characters of conversation, the oldest tool outputs are elided."""
    output_chars: int = 16_000
    """Characters of one tool result the model sees (head and tail, a marker between)."""
    shell_timeout_s: float = 180.0
    """Seconds one shell command may take (never more than what is left of the phase)."""
    call_timeout_s: float = 600.0
    """Seconds one model call may take (never more than what is left of the phase)."""
    live_dir: str | None = None
    """Where each phase's live trajectory (JSONL) is appended; None: the phase's log dir."""
    key_envs: tuple[str | None, ...] = ()
    """Per endpoint (``--model-fleet``'s ``key_env``), the variable holding its own key;
    None or absent: ``api_key_env``'s."""
    prices_file: str | None = None
    """``--model-prices``: a price file read on top of the built-in table."""

    @property
    def spec(self) -> str:
        return f"model:{self.provider}/{self.model}"

    def api_key(self) -> str | None:
        """The key, from the environment, at the moment it is needed (never stored)."""
        return None if self.api_key_env is None else os.environ.get(self.api_key_env) or None

    def key_names(self) -> tuple[str | None, ...]:
        """Each endpoint's key variable, in ``base_urls``' order."""
        own = tuple(self.key_envs) + (None,) * (len(self.base_urls) - len(self.key_envs))
        return tuple(name or self.api_key_env for name in own)

    def endpoint_keys(self) -> tuple[str | None, ...]:
        """Each endpoint's key, read from the environment now (never stored)."""
        return tuple(os.environ.get(name) or None if name else None for name in self.key_names())

    def record(self) -> dict[str, Any]:
        """For ``run.json``: every setting, the key's variable name but never its value."""
        doc = asdict(self)
        doc["base_urls"] = [public_url(url) for url in self.base_urls]
        doc.pop("live_dir")
        return doc

    @classmethod
    def from_record(cls, doc: Mapping[str, Any]) -> ModelConfig:
        """The config ``record`` wrote (a resume); unknown keys are ignored."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in doc.items() if k in known}
        values["base_urls"] = tuple(values.get("base_urls") or ())
        values["key_envs"] = tuple(values.get("key_envs") or ())
        return cls(**values)


def parse_spec(spec: str) -> tuple[str, str]:
    """``model:PROVIDER/MODEL`` → (provider, model); `SpecError` on ``--agent`` otherwise."""
    rest = spec.removeprefix("model:")
    provider, sep, model = rest.partition("/")
    if not sep or not model:
        raise SpecError.single("--agent", f"{spec!r}: give model:PROVIDER/MODEL "
                                          f"(providers: {', '.join(PROVIDERS)})")  # fmt: skip
    if provider not in PROVIDERS:
        raise SpecError.single(
            "--agent", f"unknown model provider {provider!r}; known: {', '.join(PROVIDERS)}"
        )
    return provider, model


def build_config(
    spec: str,
    *,
    base_urls: Iterable[str] = (),
    args: Iterable[str] = (),
    tools: str = "auto",
    max_turns: int = 50,
    max_tokens: int | None = None,
    max_cost: float | None = None,
    api_key_env: str | None = None,
    fleet: str | None = None,
    prices: str | None = None,
) -> ModelConfig:
    """The config of ``spec`` from the ``--model-*`` flags, each checked (`SpecError`, exit 2).

    Without ``--model-base-url`` the provider's ``*_BASE_URL`` variable, else its public
    endpoint; without ``--model-api-key-env`` its ``*_API_KEY`` variable. ``fleet`` (a
    fleet file) adds its endpoints after the ``--model-base-url`` ones, each with its own
    key variable; ``prices`` (a price file) is read now, so a bad one is refused here.
    """
    from benchwright.agents.model.fleet_file import load_fleet
    from benchwright.agents.model.prices import price_table

    provider, model = parse_spec(spec)
    listed = load_fleet(Path(fleet)) if fleet else []
    if prices:
        price_table(Path(prices))
    urls = (*base_urls, *(e.url for e in listed)) or (
        os.environ.get(BASE_URL_ENV[provider]) or DEFAULT_BASE_URLS[provider],
    )
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SpecError.single("--model-base-url", f"{url!r}: not an http(s) URL")
        if parts.username or parts.password:
            raise SpecError.single("--model-base-url", "a URL must not carry credentials: "
                                   "give the key through --model-api-key-env")  # fmt: skip
    if tools not in TOOL_MODES:
        raise SpecError.single("--model-tools", f"{tools!r}: choose {' | '.join(TOOL_MODES)}")
    if max_turns < 1:
        raise SpecError.single("--model-max-turns", f"must be >= 1, got {max_turns}")
    if max_tokens is not None and max_tokens < 1:
        raise SpecError.single("--model-max-tokens", f"must be >= 1, got {max_tokens}")
    if max_cost is not None and max_cost <= 0:
        raise SpecError.single("--model-max-cost", f"must be > 0 USD, got {max_cost:g}")
    key_env = KEY_ENV[provider] if api_key_env is None else api_key_env
    return ModelConfig(
        provider, model, urls, parse_model_args(args), tools,  # type: ignore[arg-type]
        None if key_env.lower() in (NO_KEY, "") else key_env,
        max_turns, max_tokens, max_cost,
        key_envs=(*(None for _ in base_urls), *(e.key_env for e in listed)),
        prices_file=None if prices is None else str(Path(prices).resolve()),
    )  # fmt: skip


def parse_model_args(items: Iterable[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; a value that reads as JSON (``0``, ``0.2``, ``true``, ``[…]``)
    is that value, anything else the string itself (``stop=END``)."""
    params: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise SpecError.single("--model-arg", f"{item!r}: give KEY=VALUE (temperature=0)")
        try:
            params[key.strip()] = json.loads(raw)
        except ValueError:
            params[key.strip()] = raw
    return params


def public_url(url: str) -> str:
    """``scheme://host:port/path`` only: no credentials, query or fragment (records, logs)."""
    parts = urlsplit(url)
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname or ''}{port}{parts.path.rstrip('/')}"
