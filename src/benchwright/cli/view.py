"""``benchwright view`` (the local results viewer) and ``benchwright report --html``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benchwright.cli._app import app, reports_errors

PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(help="Run directories, directories of runs or scorecards, CARD.json files."),
]


@app.command("view")
@reports_errors
def view(
    paths: PathsArg = None,
    host: Annotated[str, typer.Option("--host", help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port (0: any free one).")] = 0,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help="A Host name answered besides 127.0.0.1, localhost, ::1 and --host "
            "(repeatable); others get 421, so no other site's page can read the runs.",
        ),
    ] = None,
) -> None:
    """Serve runs and scorecards in a browser; prints the URL. Files are read only inside
    the paths given (default: runs/), listed again when they change (a run started later
    shows up on the next page load); requests for any other host name are refused."""
    import socket
    import sys

    import uvicorn

    from benchwright.viewer.app import create_app
    from benchwright.viewer.live import LiveSources
    from benchwright.web import allowed_names

    sources = LiveSources(paths or [Path("runs")])
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)  # before the URL is shown: a browser that is quick must not be refused
    except OSError as exc:
        typer.echo(f"error: --host {host} --port {port}: cannot bind: {exc.strerror}", err=True)
        raise typer.Exit(2) from None
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    typer.echo(f"benchwright view: at {url} (Ctrl-C stops): {sources.current().summary_line()}")
    sys.stdout.flush()  # the URL must show now, also through a pipe, not when serving ends
    app_ = create_app(sources, allowed_hosts=allowed_names(host, allowed_host or ()))
    config = uvicorn.Config(app_, log_level="warning", proxy_headers=False)
    uvicorn.Server(config).run(sockets=[sock])


@app.command("report")
@reports_errors
def report(
    paths: PathsArg = None,
    html: Annotated[
        Path, typer.Option("--html", help="The one self-contained HTML file to write.")
    ] = Path("report.html"),
) -> None:
    """Write runs and scorecards into one HTML file that opens offline (default: runs/)."""
    from benchwright.viewer.report import write_report
    from benchwright.viewer.sources import Sources

    sources = Sources.scan(paths or [Path("runs")])
    size = write_report(sources, html)
    typer.echo(f"wrote {html} ({size // 1024} KB): {sources.summary_line()}")
