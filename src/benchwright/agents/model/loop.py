"""The model agent's loop: ask the model, run the tools it calls, answer, until it submits.

The shape of mini-SWE-agent and Inspect's basic agent, kept small on purpose:

1. Before each call, stop if a limit is reached: turns, tokens (input + output as the
   server reported them), cost (when the model's price is known), the phase's wall budget.
2. Keep the conversation within ``context_chars``: the oldest tool outputs are replaced by
   a marker that says so, until it fits (the task's prompt is never elided).
3. Call the model (native tools, or none in text mode: `text_actions`).
4. Run each tool call in order and answer it; a malformed call (arguments not JSON,
   an unknown tool, a missing argument) is answered as an error and the loop goes on.
   A reply without any call is answered with a reminder to act or submit.
5. ``submit`` ends the loop with its answer.

In ``auto`` mode the loop starts with native tools and, when the endpoint refuses the
request because of them (an HTTP 400 whose message names tools), goes on in text mode,
recorded as a ``tools_fallback`` step. A refused call (`ModelRefused`) or one that kept
failing (`ModelFault`, after the retry wrapper gave up) ends the phase as INFRA.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchwright.agents.model.records import Recorder
from benchwright.agents.model.text_actions import INSTRUCTIONS, parse_actions
from benchwright.agents.model.tools import TOOLS, Toolbox
from benchwright.agents.model.wire import (
    BadToolCall,
    Message,
    ModelFault,
    ModelRefused,
    Provider,
    ToolCall,
)

NUDGE = ("No action was taken. Act with a tool call ({how}), or submit your final answer "
         "to finish.")  # fmt: skip
ELIDED = "[output elided to keep the conversation within its size: run the command again " \
         "if you need it]"  # fmt: skip


@dataclass(frozen=True)
class Limits:
    max_turns: int
    max_tokens: int | None
    max_cost: float | None
    deadline: float
    """``time.monotonic()`` at which the phase's budget ends."""
    context_chars: int
    output_chars: int
    call_timeout_s: float


@dataclass(frozen=True)
class End:
    """How the loop ended: ``answer`` when submitted, ``stop`` always, ``error`` for a
    budget (``budget:``), an INFRA end (``infra:``) or a tool that could not run."""

    stop: str
    answer: str | None = None
    error: str | None = None


class Loop:
    def __init__(
        self, provider: Provider, toolbox: Toolbox, recorder: Recorder, limits: Limits,
        mode: str, params: Mapping[str, Any],
    ) -> None:  # fmt: skip
        self.provider, self.toolbox, self.recorder = provider, toolbox, recorder
        self.limits, self.params = limits, params
        self.native = mode != "text"
        self.auto = mode == "auto"
        self.system = ""
        self.messages: list[Message] = []
        self.unpriced = False
        self.observations: list[int] = []
        """Indices of the messages that hold tool output (what may be elided), oldest first."""

    def run(self, system: str, prompt: str) -> End:
        self.system = system
        self.messages = [Message("system", self._system()), Message("user", prompt)]
        turn = 0
        while True:
            if (end := self._limit(turn)) is not None:
                return end
            self._fit()
            remaining = self.limits.deadline - time.monotonic()
            try:
                reply = self.provider.complete(
                    self.messages, TOOLS if self.native else None, self.params,
                    min(self.limits.call_timeout_s, remaining),
                )  # fmt: skip
            except (ModelFault, ModelRefused) as fault:
                self.recorder.failed_call(fault)
                if self._falls_back(fault):
                    continue
                return End("infra", error=f"infra: {fault}")
            turn += 1
            self.recorder.call(reply)
            if self.limits.max_cost is not None and self.recorder.cost_usd is None:
                self._unpriced(reply.model)
            calls = list(reply.tool_calls) if self.native else parse_actions(reply.text, turn)
            self.messages.append(Message("assistant", reply.text,
                                         reply.tool_calls if self.native else ()))  # fmt: skip
            if not calls:
                how = "shell, editor" if self.native else "a ```shell or ```editor block"
                self._observe([Message("user", NUDGE.format(how=how))])
                continue
            answers: list[Message] = []
            for call in calls:
                output, answer = self._run(call)
                if answer is not None:
                    return End("submitted", answer)
                answers.append(Message("tool", output, tool_call_id=call.id))
            if not self.native:
                text = "\n\n".join(
                    f"[{c.name} result]\n{a.content}" for c, a in zip(calls, answers, strict=True)
                )
                answers = [Message("user", text)]
            self._observe(answers)

    def _system(self) -> str:
        return self.system if self.native else f"{self.system}\n\n{INSTRUCTIONS}"

    def _limit(self, turns: int) -> End | None:
        limits, used = self.limits, self.recorder.usage
        if time.monotonic() >= limits.deadline:
            return End("budget", error="budget")
        if turns >= limits.max_turns:
            return End(f"limit: max turns ({limits.max_turns}) reached")
        tokens = used.input_tokens + used.output_tokens
        if limits.max_tokens is not None and tokens >= limits.max_tokens:
            return End(f"limit: max tokens ({limits.max_tokens}) reached ({tokens} used)")
        cost = self.recorder.cost_usd
        if limits.max_cost is not None and cost is not None and cost >= limits.max_cost:
            return End(f"limit: max cost ({limits.max_cost:g} USD) reached ({cost:.4f} USD)")
        return None

    def _unpriced(self, model: str) -> None:
        """Say once that ``--model-max-cost`` cannot apply: the model's price is unknown."""
        if not self.unpriced:
            self.unpriced = True
            self.recorder.note("max_cost_not_enforced", reason=f"no price for {model}")

    def _falls_back(self, fault: ModelFault | ModelRefused) -> bool:
        """In auto mode, a 400 that names tools: go on without native tools (recorded)."""
        rejects = fault.status == 400 and "tool" in fault.message.lower()
        if not (self.auto and self.native and rejects):
            return False
        self.native = False
        self.messages[0] = Message("system", self._system())
        self.recorder.note("tools_fallback", reason=fault.message)
        return True

    def _run(self, call: ToolCall) -> tuple[str, str | None]:
        """Run one call: (what the model is told, the answer when it submitted)."""
        try:
            result = self.toolbox.run(call.name, call.parsed())
        except BadToolCall as exc:
            self.recorder.step({"type": "tool_error", "agent_tool": call.name, "error": str(exc)})
            return f"error: {exc}", None
        self.recorder.tool(result.steps)
        return capped(result.output, self.limits.output_chars), result.answer

    def _observe(self, messages: Sequence[Message]) -> None:
        for message in messages:
            self.observations.append(len(self.messages))
            self.messages.append(message)

    def _fit(self) -> None:
        """Elide the oldest tool outputs until the conversation fits ``context_chars``."""
        size = sum(_chars(m) for m in self.messages)
        elided = 0
        while size > self.limits.context_chars and self.observations:
            index = self.observations.pop(0)
            old = self.messages[index]
            size -= len(old.content) - len(ELIDED)
            self.messages[index] = Message(old.role, ELIDED, old.tool_calls, old.tool_call_id)
            elided += 1
        if elided:
            self.recorder.note("context_elided", messages=elided, chars=size)


def _chars(message: Message) -> int:
    return len(message.content) + sum(len(c.arguments) for c in message.tool_calls)


def capped(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: its head and tail with a marker between."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[… {len(text) - 2 * half} characters elided …]\n{text[-half:]}"
