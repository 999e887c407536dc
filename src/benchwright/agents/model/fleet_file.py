"""The fleet file (``--model-fleet FILE``): the endpoints of a fleet, and whose key each uses.

A YAML/JSON list; an item is a base URL, or an object with the URL and the name of the
environment variable holding that endpoint's key (the key itself never goes in a file
the run might copy, and the run records base URLs, so a URL carrying credentials or a
query string is refused)::

    - http://192.168.1.20:1234/v1
    - url: http://192.168.1.21:11434/v1
      key_env: BOX21_KEY

An endpoint without ``key_env`` uses the provider's usual key (``--model-api-key`` or
``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, RootModel, ValidationError

from benchwright.dsl._documents import display_path, problems_from, read_document
from benchwright.errors import SpecError

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class FleetEndpoint:
    url: str
    key_env: str | None = None

    def api_key(self, default: str | None, environ: Mapping[str, str] = os.environ) -> str | None:
        """This endpoint's key: its own variable's value, else the provider's default."""
        return environ.get(self.key_env) if self.key_env else default


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str
    """The base URL, as ``--model-base-url`` takes it."""
    key_env: str | None = None
    """The environment variable holding this endpoint's key."""


class _FleetFile(RootModel[list[_Item]]):
    pass


def base_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be a recorded base URL, or None when it can."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{url!r} is not an http(s) URL with a host"
    if parts.username or parts.password:
        return "credentials in the URL would be recorded with it: use key_env instead"
    if parts.query or parts.fragment:
        return "a query string or fragment would be recorded with the URL: remove it"
    return None


def load_fleet(path: Path, environ: Mapping[str, str] = os.environ) -> list[FleetEndpoint]:
    """Read a fleet file.

    Raises:
        SpecError: the file is unreadable, empty, lists an endpoint twice, or an item's
            URL or key variable is unusable (each problem named by its index).
    """
    source = display_path(path)
    document = read_document(path)
    if isinstance(document, list):  # a bare URL is short for {url: URL}
        document = [{"url": item} if isinstance(item, str) else item for item in document]
    try:
        items = _FleetFile.model_validate(document).root
    except ValidationError as exc:
        raise SpecError(source, problems_from(exc, owner="a fleet endpoint")) from None
    endpoints = [FleetEndpoint(item.url, item.key_env) for item in items]
    problems: list[tuple[str, str]] = []
    if not endpoints:
        problems.append(("", "lists no endpoint"))
    seen: set[str] = set()
    for index, endpoint in enumerate(endpoints):
        if problem := base_url_problem(endpoint.url):
            problems.append((f"[{index}].url", problem))
        if endpoint.url.rstrip("/") in seen:
            problems.append((f"[{index}].url", f"{endpoint.url} is listed twice"))
        seen.add(endpoint.url.rstrip("/"))
        if endpoint.key_env is None:
            continue
        if not _ENV_NAME.fullmatch(endpoint.key_env):
            problems.append((f"[{index}].key_env", f"{endpoint.key_env!r} is not a variable name"))
        elif not environ.get(endpoint.key_env):
            problems.append((f"[{index}].key_env", f"${endpoint.key_env} is not set"))
    if problems:
        raise SpecError(source, problems)
    return endpoints
