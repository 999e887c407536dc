"""``benchwright board serve | migrate | remove``: run a board and administer its entries."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from benchwright.cli._app import app, invalid, reports_errors

if TYPE_CHECKING:
    from benchwright.board.store import BoardStore

board_app = typer.Typer(help="Run a benchmark board: serve, migrate, remove.", no_args_is_help=True)
app.add_typer(board_app, name="board")
AllowedHostOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-host",
        help="A Host name the server answers besides 127.0.0.1, localhost, ::1 and --host "
        "(repeatable; '*': any, for a proxy that checks names). Others get 421.",
    ),
]
DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="SQLAlchemy URL (default: sqlite under $XDG_DATA_HOME/benchwright/board.sqlite; "
        "PostgreSQL: postgresql+psycopg://user:pw@host/db).",
    ),
]


@board_app.command("serve")
@reports_errors
def serve(
    db: DbOpt = None,
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port")] = 8000,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="A proxy address or network whose X-Forwarded-For is believed (repeatable).",
        ),
    ] = None,
    scorers: Annotated[
        Path | None,
        typer.Option(
            "--scorers",
            help="Folder of the scorer configs every post is re-composed with "
            "(default: ./scorers, else this checkout's).",
        ),
    ] = None,
    allowed_host: AllowedHostOpt = None,
) -> None:
    """Serve the board; an empty database is migrated, an outdated one refused (exit 3).

    A folder holding no scorer is refused (exit 2) rather than served: such a board
    would answer every post 422 unknown scorer version. Once its socket is bound it
    prints ``board: listening on http://HOST:PORT/`` on stderr (``--port 0``: a free port,
    the one printed)."""
    import uvicorn

    from benchwright.board.app import create_app, default_scorers_dir
    from benchwright.board.migrate import ensure_ready
    from benchwright.board.recompose import load_scorers
    from benchwright.board.store import BoardStore
    from benchwright.errors import EXIT_HARNESS
    from benchwright.web import allowed_names

    folder = scorers or default_scorers_dir()
    known = load_scorers(folder)
    if not known:
        invalid(
            f"--scorers {folder}: no scorer config here, so every post would be refused as an "
            "unknown scorer version; pass the folder holding sb6.yaml and the rest"
        )
    store = BoardStore(db)
    ensure_ready(store.engine, _shown(store))
    typer.echo(f"board: re-composing {', '.join(sorted(known))} (scorers from {folder})", err=True)
    names = allowed_names(host, allowed_host or ())
    typer.echo(f"board: answering Host {', '.join(sorted(names))}", err=True)
    app_ = create_app(
        store, trusted_proxies=tuple(trusted_proxy or ()), scorers=known, allowed_hosts=names
    )
    # proxy_headers off: the app alone decides whom to believe (--trusted-proxy)
    config = uvicorn.Config(app_, host=host, port=port, proxy_headers=False, log_level="warning")
    sock = config.bind_socket()  # bound before the URL is printed: it is true when read
    typer.echo(f"board: listening on {listening_url(sock.getsockname())}", err=True)
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    if not server.started:  # uvicorn logged why (the app's startup failed)
        raise typer.Exit(EXIT_HARNESS)


def listening_url(address: tuple[Any, ...]) -> str:
    """``http://HOST:PORT/`` of a bound socket's address (an IPv6 host in brackets), with
    the port it really got (``--port 0`` picks a free one)."""
    host, port = address[0], address[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


@board_app.command("migrate")
@reports_errors
def migrate(db: DbOpt = None) -> None:
    """Upgrade the board database to the newest schema (safe to repeat)."""
    from benchwright.board.migrate import upgrade
    from benchwright.board.store import BoardStore

    store = BoardStore(db)
    before, after = upgrade(store.engine)
    state = "already at" if before == after else f"upgraded from {before or 'empty'} to"
    typer.echo(f"{_shown(store)}: {state} revision {after}")


@board_app.command("remove")
@reports_errors
def remove(
    run_id: Annotated[str, typer.Argument(help="The run's id (the last part of its URL).")],
    db: DbOpt = None,
) -> None:
    """Remove a run from the board with its rows and screenshots (exit 1: no such run)."""
    from benchwright.board.store import BoardStore

    store = BoardStore(db)
    if not store.remove(run_id):
        typer.echo(f"error: {_shown(store)}: no run '{run_id}'", err=True)
        raise typer.Exit(1)
    typer.echo(f"removed run {run_id}")


def _shown(store: BoardStore) -> str:
    """The database URL with its password hidden."""
    return store.engine.url.render_as_string(hide_password=True)
