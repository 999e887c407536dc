"""Grading recorded work: validate, run (dispatch), gate, checks, trajectory import."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from benchwright.cli._app import (
    AGENT_HELP,
    AgentEgressOpt,
    AgentNetworkOpt,
    ExecutorOpt,
    JsonOpt,
    JunitOpt,
    KeepOpt,
    NoSandboxOpt,
    RayAddressOpt,
    SandboxRoOpt,
    WorkersOpt,
    app,
    invalid,
    isolation_request,
    reports_errors,
    say_written,
)

if TYPE_CHECKING:
    from benchwright.execution.executor import Executor
    from benchwright.execution.gate_jobs import GatePlan
    from benchwright.model import GateResult

checks_app = typer.Typer(help="The check types this installation knows.", no_args_is_help=True)
trajectory_app = typer.Typer(
    help="Convert agent transcripts to trajectories.", no_args_is_help=True
)
app.add_typer(checks_app, name="checks")
app.add_typer(trajectory_app, name="trajectory")
StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="A warning is an error (exit 2): a graded task without a solution for oracle.",
    ),
]


@app.command()
@reports_errors
def validate(
    paths: Annotated[
        list[Path], typer.Argument(help="Task, trajectory or manifest files, or directories.")
    ],
    tasks: Annotated[
        Path | None,
        typer.Option("--tasks", help="Where manifests' task files are looked for first (gate's)."),
    ] = None,
    strict: StrictOpt = False,
) -> None:
    """Validate suite files without running anything; exit 2 naming every invalid field.

    benchwright's own reports, files inside fixture folders and task-shaped files a suite
    does not list are skipped, and one line says how many and why. A graded task without a
    solution (``--agent oracle`` would change nothing in it) is warned about."""
    from benchwright.agents.builtin import unsolved_line
    from benchwright.dsl import skipped_line, validate_documents

    found = validate_documents(paths, tasks_dir=tasks)
    skipped = skipped_line(found)
    checked = [v for v in found if v.skipped is None]
    plurals = {"task": "tasks", "trajectory": "trajectories", "manifest": "manifests",
               "suite": "suites", "control": "controls"}  # fmt: skip
    counts = {kind: sum(v.kind == kind for v in checked) for kind in plurals}
    counts["control"] = _validate_controls(paths)
    summary = ", ".join(
        f"{n} {kind if n == 1 else plurals[kind]}" for kind, n in counts.items() if n
    )
    if not any(counts.values()):
        why = f" ({skipped})" if skipped else ""
        typer.echo(f"error: no task, trajectory or manifest file found{why}", err=True)
        raise typer.Exit(2)
    if unsolved := list(dict.fromkeys(i for v in checked for i in v.unsolved)):
        if strict:
            invalid(f"{unsolved_line(unsolved)} (--strict)")
        typer.echo(f"warning: {unsolved_line(unsolved)}", err=True)
    typer.echo(f"valid: {summary}")
    if skipped:
        typer.echo(skipped)


def _validate_controls(paths: list[Path]) -> int:
    """Validate the audit controls of every graded suite among ``paths`` (a directory with
    ``controls/`` and a grader, like ``suites/vspro``): their fields, phases and targets,
    and that each edit still applies to the golden. Raises SpecError naming the first bad
    control's file; returns how many were valid."""
    from benchwright.suites import GRADERS
    from benchwright.suites.audit.controls import CONTROLS_DIR, load_controls
    from benchwright.suites.audit.run import Auditor

    graded = [p for p in paths if p.name in GRADERS and (p / CONTROLS_DIR).is_dir()]
    count = 0
    for suite in graded:
        auditor = Auditor(str(suite))
        for control in load_controls(suite):
            auditor.validate(control)
            count += 1
    return count


@app.command()
@reports_errors
def run(
    suite: Annotated[Path | None, typer.Argument(help="Suite directory or suite file.")] = None,
    agent: Annotated[str | None, typer.Option("--agent", help=AGENT_HELP)] = None,
    tasks_glob: Annotated[str, typer.Option("--tasks", help="Task ids to run (glob).")] = "*",
    iterations: Annotated[int, typer.Option("--iterations", help="Trials per task.")] = 1,
    budget: Annotated[float | None, typer.Option("--budget", help="Seconds per phase.")] = None,
    env: Annotated[list[str] | None, typer.Option("--env", help="NAME or NAME=VALUE.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Given to agents.")] = 0,
    out: Annotated[Path, typer.Option("--out", help="Where runs are written.")] = Path("runs"),
    resume: Annotated[Path | None, typer.Option("--resume", help="Finish a run dir.")] = None,
    allow_unverified: Annotated[
        bool,
        typer.Option(
            "--allow-unverified",
            help="--resume a run never sealed here: runs the agent and suite its run.json names.",
        ),
    ] = False,
    task: Annotated[Path | None, typer.Option("--task", help="One task file (replay).")] = None,
    trajectory: Annotated[
        Path | None, typer.Option("--trajectory", help="The recorded trajectory (with --task).")
    ] = None,
    json_out: JsonOpt = None,
    junit_out: JunitOpt = None,
    keep: KeepOpt = False,
    strict: StrictOpt = False,
    no_sandbox: NoSandboxOpt = False,
    sandbox_ro: SandboxRoOpt = None,
    agent_network: AgentNetworkOpt = None,
    agent_egress: AgentEgressOpt = None,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
    max_files: Annotated[
        int, typer.Option("--max-workspace-files", min=1, help="Entries a workspace may hold.")
    ] = 20_000,
    max_mb: Annotated[
        int, typer.Option("--max-workspace-mb", min=1, help="MiB a workspace's files may hold.")
    ] = 512,
    model_base_url: Annotated[
        list[str] | None,
        typer.Option("--model-base-url", help="model: endpoint (repeatable: a fleet)."),
    ] = None,
    model_arg: Annotated[
        list[str] | None,
        typer.Option("--model-arg", help="model: KEY=VALUE passed to every call (temperature=0)."),
    ] = None,
    model_tools: Annotated[
        str | None, typer.Option("--model-tools", help="model: native | text | auto (default).")
    ] = None,
    model_max_turns: Annotated[
        int | None, typer.Option("--model-max-turns", help="model: calls per phase (50).")
    ] = None,
    model_max_tokens: Annotated[
        int | None, typer.Option("--model-max-tokens", help="model: tokens per phase, in + out.")
    ] = None,
    model_max_cost: Annotated[
        float | None, typer.Option("--model-max-cost", help="model: USD per phase (known prices).")
    ] = None,
    model_api_key_env: Annotated[
        str | None,
        typer.Option(
            "--model-api-key-env",
            help="model: the variable holding the key (OPENAI_API_KEY…; none: no key).",
        ),
    ] = None,
    model_fleet: Annotated[
        Path | None,
        typer.Option("--model-fleet", help="model: a fleet file (endpoints, each one's key)."),
    ] = None,
    model_prices: Annotated[
        Path | None,
        typer.Option("--model-prices", help="model: a price file on top of the built-in table."),
    ] = None,
) -> None:
    """Run an agent on a suite (SUITE --agent A), resume a run, or replay one --task."""
    from benchwright.execution.executor import make_executor

    isolation = isolation_request(no_sandbox, sandbox_ro, agent_network, agent_egress)
    pool = make_executor(executor, workers, ray_address)
    if task is not None or trajectory is not None:
        if task is None or trajectory is None or suite is not None:
            invalid("--task and --trajectory go together, without SUITE")
        from benchwright.execution.executor import SerialExecutor
        from benchwright.execution.gate_jobs import one_task_plan

        _say_run_of(trajectory)
        _grade(one_task_plan(task, trajectory, isolation, keep), SerialExecutor(), json_out,
               junit_out)  # fmt: skip
    from benchwright.cli.suites import model_options, run_suite

    flags = {"base_urls": model_base_url or [], "args": model_arg or [], "tools": model_tools,
             "max_turns": model_max_turns, "max_tokens": model_max_tokens,
             "max_cost": model_max_cost, "api_key_env": model_api_key_env,
             "fleet": model_fleet and str(model_fleet),
             "prices": model_prices and str(model_prices)}  # fmt: skip
    model = model_options(agent, resume, {k: v for k, v in flags.items() if v not in (None, [])})
    run_suite(suite, agent, tasks_glob, iterations, budget, env or [], seed, out, resume,
              json_out, junit_out, isolation, pool, (max_files, max_mb),
              allow_unverified, model, strict)  # fmt: skip


@app.command()
@reports_errors
def gate(
    trajectory: Annotated[
        Path,
        typer.Option(
            "--trajectory", help="A trajectory for every task, or a directory of <task-id>.json."
        ),
    ],
    tasks: Annotated[Path | None, typer.Option("--tasks", help="Directory of task files.")] = None,
    manifest: Annotated[
        Path | None, typer.Option("--manifest", help="Manifest selecting task files.")
    ] = None,
    json_out: JsonOpt = None,
    report_format: Annotated[
        str,
        typer.Option(
            "--report-format",
            help="Layout of --json: benchwright (versioned schema) | agentbench (v0.1.0's).",
        ),
    ] = "benchwright",
    junit_out: JunitOpt = None,
    keep: KeepOpt = False,
    no_sandbox: NoSandboxOpt = False,
    sandbox_ro: SandboxRoOpt = None,
    brief: Annotated[
        bool, typer.Option("--brief", help="One line per task: its verdict, what failed it.")
    ] = False,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
) -> None:
    """Grade many tasks; exit 0 only when every task passed. A trajectory from a run that is
    not verified here makes the first line say UNVERIFIED (or TAMPERED).

    Without --workers, static tasks are graded while their files are validated, and 200
    or more tasks that run commands go to a pool of min(cores, 4).
    """
    from benchwright.execution.gate_jobs import gate_executor, grades_ahead, plan_gate

    if report_format not in REPORT_FORMATS:
        invalid(f"--report-format {report_format!r}: choose one of {', '.join(REPORT_FORMATS)}")
    if report_format != "benchwright" and json_out is None:
        invalid(f"--report-format {report_format} needs --json PATH to write the report to")
    _say_run_of(trajectory)
    plan = plan_gate(tasks, manifest, trajectory, isolation_request(no_sandbox, sandbox_ro), keep,
                     on_note=lambda line: typer.echo(line, err=True),
                     ahead=grades_ahead(executor, workers, keep))  # fmt: skip
    pool = gate_executor(executor, workers, ray_address, plan.pending)
    _grade(plan, pool, json_out, junit_out, report_format, brief)


REPORT_FORMATS = ("benchwright", "agentbench")


def _say_run_of(trajectory: Path) -> None:
    """First, say so when the trajectory comes from a run that is not verified here."""
    from benchwright.execution.runs import trajectory_run_line

    if line := trajectory_run_line(trajectory):
        typer.echo(line)


def _grade(
    plan: GatePlan, executor: Executor, json_out: Path | None, junit_out: Path | None,
    report_format: str = "benchwright", brief: bool = False,
) -> None:  # fmt: skip
    from rich.console import Console

    from benchwright.errors import EXIT_FAILED, EXIT_HARNESS, EXIT_PASSED
    from benchwright.execution.gate_jobs import plan_tasks, run_gate_jobs
    from benchwright.execution.progress import ProgressDisplay
    from benchwright.reports import write_json, write_junit
    from benchwright.reports.terminal import print_gate

    for line in plan.warnings:
        typer.echo(f"warning: {line}", err=True)
    # Off a terminal, quiet: the report lists every task; on one, live counts for long gates.
    live = len(plan.jobs) > 1 and sys.stderr.isatty()
    with ProgressDisplay(len(plan.jobs), "tasks", live=live, plain=False) as progress:
        result = run_gate_jobs(
            plan, executor, progress.started, lambda run: progress.finished(run.task_id, run.passed)
        )
    if json_out and report_format == "agentbench":
        from benchwright.reports.agentbench import write_agentbench

        write_agentbench(result, plan_tasks(plan), json_out)
    elif json_out:
        write_json(result, json_out)
    if junit_out:
        write_junit(result, junit_out)
    print_gate(result, Console(), brief)
    for run in result.runs:
        if run.workspace:
            typer.echo(f"kept workspace of {run.task_id}: {run.workspace}")
    say_written(json_out, junit_out)
    raise typer.Exit(_exit_code(result, EXIT_PASSED, EXIT_FAILED, EXIT_HARNESS))


def _exit_code(result: GateResult, ok: int, failed: int, harness: int) -> int:
    if result.harness_failed:
        return harness
    return ok if result.passed else failed


@checks_app.command("list")
def checks_list() -> None:
    """List every registered check type with its parameters."""
    from benchwright.checks import default_registry

    registry = default_registry()
    for name in registry.names():
        check_type = registry.get(name)
        typer.echo(f"{name}: {check_type.summary}")
        for field, info in check_type.params.model_fields.items():
            need = "required" if info.is_required() else f"default {info.default!r}"
            typer.echo(f"    {field} ({need}){': ' + info.description if info.description else ''}")


@trajectory_app.command("import")
@reports_errors
def trajectory_import(
    source: Annotated[Path, typer.Argument(help="The transcript file.")],
    out: Annotated[Path, typer.Option("-o", "--out", help="Where to write the trajectory JSON.")],
    from_format: Annotated[
        str, typer.Option("--from", help="auto, claude-code, codex, goose, aider or jsonl.")
    ] = "auto",
    lenient: Annotated[
        bool,
        typer.Option("--lenient", help="Keep calls with unreadable arguments as opaque steps."),
    ] = False,
    agent: Annotated[
        str | None, typer.Option("--agent", help="metadata.agent: who made the transcript.")
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="metadata.model: the model behind the agent.")
    ] = None,
    label: Annotated[
        str | None, typer.Option("--source", help="metadata.source: where the session came from.")
    ] = None,
) -> None:
    """Convert a Claude Code, Codex, goose, aider or generic JSONL transcript to a trajectory.

    ``--agent``/``--model``/``--source`` are AgentBench's ``record_trajectory`` labels: they
    go into the trajectory's metadata, over whatever the transcript itself says.
    """
    from benchwright.agents.transcripts import import_transcript

    def warn(message: str) -> None:
        typer.echo(f"warning: {message}", err=True)

    given = {"agent": agent, "model": model, "source": label}
    labels = {key: value for key, value in given.items() if value is not None}
    trajectory = import_transcript(
        from_format, source, out, lenient=lenient, warn=warn, labels=labels
    )
    fmt = trajectory["metadata"]["source_format"]
    typer.echo(f"wrote {out}: {len(trajectory['steps'])} step(s) from {fmt}")
