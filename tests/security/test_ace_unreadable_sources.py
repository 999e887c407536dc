"""An ACE money check never PASSes beside a source entry it cannot read whole (issue #24,
item 20): a directory or link named like a source, a file that is not UTF-8 or exceeds the
read limit could hold exactly what the lint looks for."""

from __future__ import annotations

from pathlib import Path

from checks.ace._offline_builders import NO_ENGINE, write
from checks.ace.test_money import ACCOUNT, MAIN, good

from benchwright.checks.ace import money
from benchwright.checks.ace._env import AceEnv
from benchwright.model import Status


def _all(root: Path) -> dict[str, object]:
    return money.run(AceEnv(root, NO_ENGINE), sorted(money.IDS))


def test_a_directory_named_like_a_source_fails_every_passing_money_check(tmp_path: Path) -> None:
    """Money-safe code beside a directory named ``Ledger.java`` (which a build would trip
    on and a lint cannot read): nothing PASSes, and each check names the entry."""
    write(tmp_path, good())
    (tmp_path / MAIN / "Ledger.java" / "inside").mkdir(parents=True)
    results = _all(tmp_path)
    entry = f"{MAIN}/Ledger.java is a directory"
    for check_id in sorted(money.IDS):
        assert results[check_id].status is Status.FAIL, check_id
        assert results[check_id].detail == f"unreadable source: {entry}"
        assert results[check_id].evidence["unreadable"] == [entry]


def test_an_undecodable_or_oversized_file_or_a_link_is_named(tmp_path: Path) -> None:
    write(tmp_path, good())
    write(tmp_path, {f"{MAIN}/Prices.java": b"class Prices { \xff\xfe double price; }\n"})
    write(tmp_path, {f"{MAIN}/Big.kt": "// pad\n" * (1024 * 1024 // 2)})  # 4 MiB
    (tmp_path / MAIN / "Linked.java").symlink_to("/etc/hostname")
    result = _all(tmp_path)["M3"]
    assert result.status is Status.FAIL
    assert result.evidence["unreadable"] == [
        f"{MAIN}/Big.kt is larger than the 2 MiB read limit",
        f"{MAIN}/Linked.java is a symbolic link",
        f"{MAIN}/Prices.java is not UTF-8 (byte 0xff at offset 15)",
    ]
    assert (
        result.detail == f"unreadable source: {MAIN}/Big.kt is larger than the 2 MiB "
        "read limit (+2 more)"
    )


def test_a_failing_check_keeps_its_own_reason_and_lists_the_entries(tmp_path: Path) -> None:
    """What could be read is still judged: the double in the undecodable file is found."""
    write(tmp_path, {f"{MAIN}/Prices.java": b"class Prices { \xff double price; }\n"})
    result = _all(tmp_path)["M1"]
    assert result.status is Status.FAIL
    assert result.detail.startswith(f"float money: {MAIN}/Prices.java:1 declares price")
    assert result.evidence["unreadable"] == [
        f"{MAIN}/Prices.java is not UTF-8 (byte 0xff at offset 15)"
    ]


def test_m4_is_not_left_not_attempted_beside_an_unreadable_entry(tmp_path: Path) -> None:
    write(tmp_path, {f"{MAIN}/Account.java": ACCOUNT})
    (tmp_path / MAIN / "HoldingsService.java").mkdir()
    result = _all(tmp_path)["M4"]
    assert result.status is Status.FAIL
    assert result.detail == f"unreadable source: {MAIN}/HoldingsService.java is a directory"


def test_entries_outside_src_main_or_of_other_names_change_nothing(tmp_path: Path) -> None:
    write(tmp_path, good())
    (tmp_path / "account-service/src/test/java/app/Broken.java").mkdir(parents=True)
    (tmp_path / MAIN / "resources.d").mkdir()
    assert {r.status for r in _all(tmp_path).values()} == {Status.PASS}
