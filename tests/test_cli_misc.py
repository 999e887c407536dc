"""`checks list` documents every parameter; an internal crash is a harness failure."""

from __future__ import annotations

import pytest

from benchwright import cli as cli_module
from benchwright.errors import EXIT_HARNESS


@pytest.mark.slow
def test_checks_list_names_every_type_and_documents_parameters(cli, registry):
    proc = cli("checks", "list")
    assert proc.returncode == 0, proc.stderr
    for name in registry.names():
        assert f"\n{name}: " in "\n" + proc.stdout
    assert "    pattern (required): Python regex" in proc.stdout
    assert "    timeout (default 60.0): Seconds before" in proc.stdout


def test_an_unexpected_crash_exits_3_with_the_traceback(monkeypatch, capsys):
    def explode() -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(cli_module, "app", explode)
    with pytest.raises(SystemExit) as caught:
        cli_module.main()
    assert caught.value.code == EXIT_HARNESS
    err = capsys.readouterr().err
    assert "RuntimeError: disk on fire" in err
    assert "error: internal error in benchwright" in err
