"""``no_network``: the agent reached for nothing outside the workspace.

Scans every trajectory step's raw JSON (tool arguments, written content,
commands) for network-access patterns, case-insensitively, as the AgentBench
seed does. Beyond it: ``allow`` substrings are exempt, loopback URLs are exempt
by default, and every match is reported with its step, tool and pattern.
"""

from __future__ import annotations

import re

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, check
from benchwright.model import CheckResult, step_label

DEFAULT_PATTERNS: tuple[str, ...] = (
    "curl", "wget", "fetch(", "http://", "https://", "requests.", "urllib", "httpx",
    "socket.", "webbrowser", "websearch", "web_search", "webfetch", "web_fetch",
    "pip install", "pip3 install", "uv add", "poetry add",
    "npm install", "npm ci", "pnpm install", "pnpm add", "yarn install", "yarn add",
    "bun install", "bun add", "cargo add", "cargo install", "go get", "go install",
)  # fmt: skip

# The host must end where the URL's authority ends (``localhost.evil.com``,
# ``127.0.0.1.nip.io`` and ``localhost@evil.com`` are not loopback), and the
# exempt path stops before another URL, so ``...localhost/,https://evil.com`` is caught.
LOOPBACK_URL = re.compile(
    r"https?://(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?(?![\w.@:-])"
    r"(?:[/?#](?:(?!https?://)[^\s\"'\\])*)?"
)


class NoNetworkParams(CheckParams):
    patterns: tuple[str, ...] = DEFAULT_PATTERNS
    """Substrings that signal network access; replaces the default list when given."""
    allow: tuple[str, ...] = ()
    """Substrings that are permitted (e.g. a mirror URL); blanked before matching."""
    allow_loopback: bool = True
    """Exempt ``http(s)://localhost`` and ``127.x.x.x`` URLs: a local server is not the network."""


@check("no_network", params=NoNetworkParams)
def no_network(p: NoNetworkParams, ctx: CheckContext) -> CheckResult:
    """Passes when no step matches a network pattern; fails naming the first match."""
    exempt = LOOPBACK_URL if p.allow_loopback else None
    found = ctx.trajectory.find_network_violations(p.patterns, allow=p.allow, exempt=exempt)
    if not found:
        return ctx.passed(f"no network pattern in {len(ctx.trajectory.steps)} step(s)")
    first = found[0]
    more = f" (+{len(found) - 1} more)" if len(found) > 1 else ""
    return ctx.failed(
        f"network access at {step_label(first.step_index)} ({first.tool}): "
        f"matched {first.pattern!r}{more}",
        violations=[{"step": v.step_index, "tool": v.tool, "pattern": v.pattern} for v in found],
    )
