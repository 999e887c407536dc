"""`import_transcript` and ``benchwright trajectory import``: formats, files, exit codes."""

from __future__ import annotations

import json

import pytest

from benchwright.agents.transcripts import FORMATS, import_transcript
from benchwright.dsl import load_trajectory
from benchwright.errors import SpecError

ROLLOUT = [
    {"type": "session_meta", "payload": {"id": "r-1", "cwd": "/w"}},
    {
        "type": "response_item",
        "payload": {
            "type": "custom_tool_call",
            "name": "apply_patch",
            "call_id": "c1",
            "input": "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch",
        },
    },
    {
        "type": "response_item",
        "payload": {
            "type": "function_call",
            "name": "shell",
            "call_id": "c2",
            "arguments": json.dumps({"command": ["bash", "-lc", "cat a.txt"]}),
        },
    },
]


def test_an_unknown_format_lists_the_known_ones(transcript, tmp_path):
    with pytest.raises(SpecError) as caught:
        import_transcript("cursor", transcript(ROLLOUT), tmp_path / "t.json")

    assert caught.value.problems == [
        (
            "format",
            "unknown transcript format 'cursor'. "
            "Known: auto, claude-code, codex, goose, aider, jsonl",
        )
    ]
    assert FORMATS == ("auto", "claude-code", "codex", "goose", "aider", "jsonl")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, ("", "file not found")),
        ("\n  \n", ("", "empty transcript: no JSON lines")),
        (
            '{"tool": "bash"}\n[1, 2]\n',
            ("line 2", "a transcript line holds an object, not an array"),
        ),
        (b"\xff\xfe{}", None),
    ],
)
def test_a_missing_or_unusable_file_is_named(tmp_path, content, problem):
    source = tmp_path / "transcript.jsonl"
    if isinstance(content, bytes):
        source.write_bytes(content)
    elif content is not None:
        source.write_text(content)

    with pytest.raises(SpecError) as caught:
        import_transcript("jsonl", source, tmp_path / "t.json")

    assert caught.value.source == str(source)
    if problem is None:
        [(where, message)] = caught.value.problems
        assert (where, message.split(":")[0]) == ("", "cannot read")
    else:
        assert caught.value.problems == [problem]


def test_the_output_must_be_a_json_file(transcript, tmp_path):
    with pytest.raises(SpecError, match=r"t\.yaml: a trajectory is written as JSON"):
        import_transcript("codex", transcript(ROLLOUT), tmp_path / "t.yaml")


def test_the_written_file_is_the_returned_document_and_loads(transcript, tmp_path):
    out = tmp_path / "deep" / "er" / "t.json"

    document = import_transcript("codex", transcript(ROLLOUT), out)

    assert json.loads(out.read_text(encoding="utf-8")) == document
    assert "answer" not in document
    assert document["metadata"]["imported_from"] == str(tmp_path / "transcript.jsonl")
    assert [e.path for e in load_trajectory(out).file_edits()] == ["a.txt"]


@pytest.mark.slow
def test_the_cli_imports_a_transcript(cli, transcript, tmp_path):
    source, out = transcript(ROLLOUT), tmp_path / "trajectories" / "t.json"

    done = cli("trajectory", "import", "--from", "codex", str(source), "-o", str(out))

    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"wrote {out}: 2 step")
    assert len(json.loads(out.read_text())["steps"]) == 2
    assert cli("validate", str(out)).returncode == 0


@pytest.mark.slow
def test_the_cli_exits_2_naming_the_bad_line(cli, transcript, tmp_path):
    source = transcript([*ROLLOUT[:2], '{"type": "response_item", '])
    out = tmp_path / "t.json"

    done = cli("trajectory", "import", "--from", "codex", str(source), "-o", str(out))

    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {source}: line 3: invalid JSON at column 27: ")
    assert not out.exists()


def test_labels_go_into_the_metadata_over_the_transcripts_own(transcript, tmp_path):
    rollout = [{"type": "session_meta", "payload": {"id": "r-1", "model": "from-file"}},
               *ROLLOUT[1:]]  # fmt: skip
    labels = {"agent": "codex-cli", "model": "given", "source": "nightly"}

    document = import_transcript("codex", transcript(rollout), tmp_path / "t.json", labels=labels)

    assert {k: document["metadata"][k] for k in labels} == labels
    unlabelled = import_transcript("codex", transcript(rollout), tmp_path / "u.json")
    assert unlabelled["metadata"]["model"] == "from-file"
    assert "agent" not in unlabelled["metadata"]
    assert "source" not in unlabelled["metadata"]


@pytest.mark.slow
def test_the_cli_records_agentbenchs_metadata_flags(cli, transcript, tmp_path):
    out = tmp_path / "t.json"

    done = cli("trajectory", "import", "--from", "codex", str(transcript(ROLLOUT)), "-o", str(out),
               "--agent", "codex-cli", "--model", "gpt-x", "--source", "ci run 7")  # fmt: skip

    assert done.returncode == 0, done.stderr
    metadata = json.loads(out.read_text())["metadata"]
    assert (metadata["agent"], metadata["model"], metadata["source"]) == (
        "codex-cli", "gpt-x", "ci run 7",
    )  # fmt: skip
    assert load_trajectory(out).metadata["agent"] == "codex-cli"
