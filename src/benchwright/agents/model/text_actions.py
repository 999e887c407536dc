"""Tool calls written as text, for a server that offers no native tool calling.

The format (docs/agents.md, "Text actions") is fenced blocks whose info string names
the tool, run in the order they appear:

````
```shell
pytest -q tests/test_store.py
```

```editor
{"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}
```

```submit
count: 6
```
````

A ``shell`` block's body is the command, a ``submit`` block's body the answer, an
``editor`` block's body the tool's arguments as one JSON object. Blocks with any other
info string (``python``, none) are the model showing code and are not actions. A fence
closes only on a line of its own, so a command may itself contain backticks.
"""

from __future__ import annotations

import json
import re

from benchwright.agents.model.wire import ToolCall

ACTIONS = ("shell", "editor", "submit")
ALIASES = {"bash": "shell", "sh": "shell"}
_BLOCK = re.compile(r"^```[ \t]*([A-Za-z_]+)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)

INSTRUCTIONS = """\
Act by writing fenced blocks; each runs in order and you see the results in the next message:
```shell
<one bash command, run in the workspace>
```
```editor
{"command": "view" | "create" | "str_replace", "path": "...", ...}
```
(view: optional "view_range": [first, last]; create: "file_text"; str_replace: "old_str", "new_str")
```submit
<your final answer; this ends your work>
```
Other code blocks (```python …) are not run."""


def parse_actions(text: str, turn: int) -> list[ToolCall]:
    """The action blocks of ``text`` as tool calls (ids ``text-TURN-N``), in order.

    Arguments are JSON text as a native call would carry them, so a malformed
    ``editor`` body fails in `ToolCall.parsed` like a malformed native call.
    """
    calls = []
    for n, match in enumerate(_BLOCK.finditer(text), start=1):
        name = ALIASES.get(match.group(1).lower(), match.group(1).lower())
        if name not in ACTIONS:
            continue
        body = match.group(2).removesuffix("\n")
        if name == "shell":
            arguments = json.dumps({"command": body})
        elif name == "submit":
            arguments = json.dumps({"answer": body})
        else:
            arguments = body
        calls.append(ToolCall(f"text-{turn}-{n}", name, arguments))
    return calls
