"""Codex rollout JSONL → trajectory: shell calls, apply_patch in every spelling, failures."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchwright.agents.transcripts import import_transcript
from benchwright.checks.no_network import DEFAULT_PATTERNS
from benchwright.dsl import load_trajectory
from benchwright.errors import SpecError
from benchwright.workspace import Workspace, replay

ROOT = "/work/repo"


def item(payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2025-10-01T10:00:00Z", "type": "response_item", "payload": payload}


def call(name: str, call_id: str = "c", **arguments: Any) -> dict[str, Any]:
    args = json.dumps(arguments)
    return item({"type": "function_call", "name": name, "arguments": args, "call_id": call_id})


def custom(name: str, text: str, call_id: str = "c") -> dict[str, Any]:
    return item({"type": "custom_tool_call", "name": name, "input": text, "call_id": call_id})


def output(call_id: str, text: str, kind: str = "custom_tool_call_output") -> dict[str, Any]:
    return item({"type": kind, "call_id": call_id, "output": text})


def said(text: str) -> dict[str, Any]:
    content = [{"type": "output_text", "text": text}]
    return item({"type": "message", "role": "assistant", "content": content})


def patch(*body: str) -> str:
    return "\n".join(["*** Begin Patch", *body, "*** End Patch"])


HEAD = [
    {"type": "session_meta", "payload": {"id": "r-1", "cwd": ROOT, "cli_version": "0.46.0"}},
    {"type": "turn_context", "payload": {"cwd": ROOT, "model": "gpt-5-codex"}},
    item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix"}]}),
]

INITIAL = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "old.txt": "obsolete\n",
    "README.md": "# Title\n\nintro\n\n## Usage\n\nrun it\n",
    "pkg/mod.py": "DEBUG = True\nVALUE = 1\n",
}

ROLLOUT = [
    *HEAD,
    item({"type": "reasoning", "summary": [], "encrypted_content": "..."}),
    call("shell", "c1", command=["bash", "-lc", "pytest -q"], workdir=ROOT),
    output(
        "c1",
        json.dumps({"output": "1 failed", "metadata": {"exit_code": 1}}),
        "function_call_output",
    ),
    custom(
        "apply_patch",
        patch(
            "*** Update File: calc.py",
            "@@",
            " def add(a, b):",
            "-    return a - b",
            "+    return a + b",
            "*** Add File: docs/NOTES.md",
            "+# Notes",
            "+",
            "+add() adds.",
            "*** Delete File: old.txt",
        ),
        "c2",
    ),
    output(
        "c2", "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:"
    ),
    call(
        "apply_patch",
        "c3",
        input=patch(
            "*** Update File: README.md",
            "@@",
            "-# Title",
            "+# Calc",
            "@@ ## Usage",
            " ",
            "-run it",
            "+run `calc`",
            "*** End of File",
        ),
    ),
    # argv apply_patch in a workdir: the patch path is relative to it
    call(
        "shell",
        "c4",
        command=["apply_patch", patch("*** Update File: mod.py", "-DEBUG = True")],
        workdir=f"{ROOT}/pkg",
    ),
    call(
        "shell_command",
        "c5",
        command="cd pkg && apply_patch <<'EOF'\n"
        + patch("*** Add File: extra.py", "+X = 1")
        + "\nEOF\n",
    ),
    call("update_plan", "c6", plan=[{"step": "fix", "status": "completed"}]),
    item(
        {
            "type": "web_search_call",
            "status": "completed",
            "action": {"type": "search", "query": "python"},
        }
    ),
    {"type": "event_msg", "payload": {"type": "agent_message", "message": "Done."}},
    said("Fixed add(); notes in docs/NOTES.md."),
]


def test_a_rollout_becomes_replayable_steps(imported, replayed):
    document, trajectory = imported("codex", ROLLOUT)

    assert [(s["tool"], s["agent_tool"]) for s in document["steps"]] == [
        ("shell", "shell"),
        ("Edit", "apply_patch"),
        ("Write", "apply_patch"),
        ("delete_file", "apply_patch"),
        ("MultiEdit", "apply_patch"),
        ("Edit", "shell"),
        ("Write", "shell_command"),
        ("web_search", "web_search"),
    ]
    assert [c.command for c in trajectory.commands()] == ["pytest -q"]
    assert [(e.path, e.kind) for e in trajectory.file_edits()] == [
        ("calc.py", "replace"),
        ("docs/NOTES.md", "write"),
        ("old.txt", "delete"),
        ("README.md", "replace"),
        ("pkg/mod.py", "replace"),
        ("pkg/extra.py", "write"),
    ]
    assert trajectory.answer == "Fixed add(); notes in docs/NOTES.md."
    metadata = document["metadata"]
    assert (metadata["cwd"], metadata["session_id"], metadata["model"]) == (
        ROOT,
        "r-1",
        "gpt-5-codex",
    )
    assert metadata["dropped_tools"] == {"update_plan": 1}
    files, errors = replayed(INITIAL, trajectory)
    assert errors == ()
    assert files == {
        "calc.py": "def add(a, b):\n    return a + b\n",
        "README.md": "# Calc\n\nintro\n\n## Usage\n\nrun `calc`\n",
        "docs/NOTES.md": "# Notes\n\nadd() adds.\n",
        "pkg/mod.py": "VALUE = 1\n",
        "pkg/extra.py": "X = 1\n",
    }


def test_a_web_search_stays_visible_to_no_network(imported):
    _, trajectory = imported("codex", ROLLOUT)

    found = trajectory.find_network_violations(DEFAULT_PATTERNS)

    assert {(v.step_index, v.tool, v.pattern) for v in found} == {(7, "web_search", "web_search")}


def test_a_patch_codex_rejected_is_kept_but_not_replayed(imported, replayed):
    wrong = patch("*** Update File: calc.py", "-    return a * b", "+    return a + b")
    right = patch("*** Update File: calc.py", "-    return a - b", "+    return a + b")
    _, trajectory = imported(
        "codex",
        [
            *HEAD,
            custom("apply_patch", wrong, "c1"),
            output(
                "c1",
                f"apply_patch verification failed: Failed to find expected lines in {ROOT}/calc.py",
            ),
            custom("apply_patch", right, "c2"),
            output("c2", "Exit code: 0\nOutput:\nSuccess."),
        ],
    )

    assert [s["tool"] for s in trajectory.steps] == ["failed:apply_patch", "Edit"]
    assert trajectory.steps[0]["error"].startswith("apply_patch verification failed")
    files, errors = replayed(INITIAL, trajectory)
    assert errors == ()
    assert files["calc.py"] == "def add(a, b):\n    return a + b\n"


def test_a_rollout_from_before_payload_wrapping_is_read(imported):
    _, trajectory = imported(
        "codex",
        [
            {"id": "r-0", "timestamp": "2025-05-01T10:00:00Z", "instructions": None},
            {
                "type": "function_call",
                "name": "shell",
                "arguments": '{"command": ["ls", "-la", "my dir"]}',
                "call_id": "c1",
            },
            {"type": "function_call_output", "call_id": "c1", "output": "..."},
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "ok"}],
            },
        ],
    )

    assert [c.command for c in trajectory.commands()] == ["ls -la 'my dir'"]
    assert trajectory.answer == "ok"


def test_unknown_tools_are_kept_as_they_came(imported):
    document, _ = imported(
        "codex", [*HEAD, call("mcp__fetch__fetch", "c1", url="https://pypi.org")]
    )

    assert document["steps"] == [
        {
            "type": "tool_call",
            "tool": "mcp__fetch__fetch",
            "agent_tool": "mcp__fetch__fetch",
            "args": {"url": "https://pypi.org"},
        }
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            custom("apply_patch", patch("*** Update File: a.py", "*** Move to: b.py", "-x", "+y")),
            "apply_patch: cannot import '*** Move to: b.py' (from a.py): no rename step",
        ),
        (
            custom("apply_patch", "*** Begin Patch\n*** Add File: a.py\n+x\n"),
            "apply_patch: patch line 3: expected '*** End Patch'",
        ),
        (
            custom("apply_patch", patch("*** Add File: a.py", "x = 1")),
            "apply_patch: patch line 2: every line of an added file starts with +",
        ),
        (
            custom("apply_patch", patch("*** Update File: a.py", "@@", "?x")),
            "apply_patch: patch line 4: unexpected '?x'",
        ),
        (
            item(
                {
                    "type": "function_call",
                    "name": "shell",
                    "arguments": '{"command": [',
                    "call_id": "c",
                }
            ),
            "shell arguments: invalid JSON string: Expecting value"
            " (--lenient keeps it as an opaque step)",
        ),
        (call("shell", command=42), "shell: command must be a string or a list of strings"),
    ],
)
def test_a_line_that_cannot_be_converted_is_named(transcript, tmp_path, line, message):
    with pytest.raises(SpecError) as caught:
        import_transcript("codex", transcript([*HEAD, line]), tmp_path / "t.json")

    assert caught.value.problems == [("line 4", message)]


def test_a_claude_session_is_not_taken_for_a_rollout(transcript, tmp_path):
    session = [{"type": "user", "cwd": ROOT, "message": {"role": "user", "content": "hi"}}]

    with pytest.raises(SpecError, match="no Codex rollout line"):
        import_transcript("codex", transcript(session), tmp_path / "t.json")


LINE = st.text(
    st.characters(blacklist_categories=["Cs", "Cc", "Zl", "Zp"], blacklist_characters="<>"),
    max_size=12,
)


@given(
    original=st.lists(LINE, min_size=1, max_size=8),
    data=st.data(),
)
def test_an_update_hunk_replays_to_what_codex_would_write(tmp_path_factory, original, data):
    """Any single hunk, with or without context, changes exactly its lines."""
    lines = [f"<{n}> {text}" for n, text in enumerate(original)]  # each occurs once
    start = data.draw(st.integers(0, len(lines) - 1), label="start")
    stop = data.draw(st.integers(start + 1, len(lines)), label="stop")
    added = [f"new {text}" for text in data.draw(st.lists(LINE, max_size=3), label="added")]
    before = data.draw(st.integers(0, min(start, 2)), label="context before")
    after = data.draw(st.integers(0, min(len(lines) - stop, 2)), label="context after")
    hunk = (
        [f" {line}" for line in lines[start - before : start]]
        + [f"-{line}" for line in lines[start:stop]]
        + [f"+{line}" for line in added]
        + [f" {line}" for line in lines[stop : stop + after]]
    )
    source = tmp_path_factory.mktemp("codex") / "rollout.jsonl"
    source.write_text(
        "\n".join(
            json.dumps(x)
            for x in [*HEAD, custom("apply_patch", patch("*** Update File: f.txt", "@@", *hunk))]
        )
    )
    out = source.with_name("t.json")
    import_transcript("codex", source, out)

    workspace = Workspace({"f.txt": "".join(f"{line}\n" for line in lines).encode()})
    assert replay(workspace, load_trajectory(out)) == ()
    expected = lines[:start] + added + lines[stop:]
    assert workspace.files["f.txt"].decode() == "".join(f"{line}\n" for line in expected)


@pytest.mark.parametrize(
    ("reported", "failed"),
    [
        ("Exit code: 1\nWall time: 0.1 seconds\nOutput:\nerror: invalid hunk", True),
        (json.dumps({"output": "invalid hunk", "metadata": {"exit_code": 1}}), True),
        ("Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\n", True),
        ({"content": "invalid hunk at line 3", "success": False}, True),
        (
            "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:",
            False,
        ),
        (json.dumps({"output": "Success.", "metadata": {"exit_code": 0}}), False),
        ("Success. Updated the following files:\nA a.txt", False),
    ],
)
def test_every_spelling_of_a_failed_patch_is_recognized(imported, reported, failed):
    heredoc = "apply_patch <<'EOF'\n" + patch("*** Add File: a.txt", "+a") + "\nEOF"
    _, trajectory = imported(
        "codex",
        [
            *HEAD,
            call("exec_command", "c1", cmd=heredoc),
            item({"type": "function_call_output", "call_id": "c1", "output": reported}),
        ],
    )

    expected = "failed:exec_command" if failed else "Write"
    assert [s["tool"] for s in trajectory.steps] == [expected]


def test_a_local_shell_call_is_a_command(imported):
    action = {"type": "exec", "command": ["bash", "-lc", "make test"], "working_directory": ROOT}
    local = item(
        {"type": "local_shell_call", "call_id": "c1", "status": "completed", "action": action}
    )

    document, trajectory = imported("codex", [*HEAD, local])

    assert [c.command for c in trajectory.commands()] == ["make test"]
    assert document["steps"][0]["args"] == {"command": "make test", "workdir": ROOT}
