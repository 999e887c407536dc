"""The screenshots a card may make ``publish`` read: PNGs inside its own evidence folder.

A card is data, and a card from someone else names whatever it likes as evidence
(``~/.ssh/id_ed25519``, ``../../secret.png``, a symlink named ``x.png``). ``publish``
therefore reads a screenshot only when it is a regular ``.png`` file, by its real path
inside the card's evidence folder - ``<card stem>.browser/`` beside the card, where
``grade --json`` keeps them, or ``--screenshots-dir`` - starting with the PNG magic bytes
and within the board's limits (`benchwright.board._png`: 1.5 MB each, 3.5 MB in all).
Anything else is refused before a byte is sent, naming the file (exit 2).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from benchwright.board._png import MAX_EACH, MAX_TOTAL, PNG_MAGIC
from benchwright.errors import SpecError


def evidence_folder(card: Path, screenshots_dir: Path | None) -> Path:
    """``--screenshots-dir``, else ``<card stem>.browser/`` beside the card."""
    return screenshots_dir or card.parent / f"{card.stem}.browser"


def read_screenshots(card: Path, folder: Path, marked: list[tuple[str, object]]) -> list[bytes]:
    """The PNG bytes of each ``(evidence key, recorded path)``, in order.

    Raises:
        SpecError: a recorded path that is not a PNG inside ``folder`` within the limits,
            naming the card, the evidence key and the file.
    """
    found: list[bytes] = []
    for key, recorded in marked:
        where = f"grading.evidence.{key}"
        found.append(_read_one(card, folder, where, recorded))
        total = sum(len(png) for png in found)
        if total > MAX_TOTAL:
            raise SpecError.single(
                str(card), f"screenshot {recorded} brings the total to {total} bytes, over "
                f"the board's {MAX_TOTAL:,} bytes for all screenshots", where,
            )  # fmt: skip
    return found


def _read_one(card: Path, folder: Path, where: str, recorded: object) -> bytes:
    def refuse(message: str) -> SpecError:
        return SpecError.single(str(card), f"screenshot {recorded} {message}", where)

    if not isinstance(recorded, str) or not recorded.lower().endswith(".png"):
        raise refuse("is not a .png file")
    path = Path(recorded)
    if ".." in path.parts:
        raise refuse(f"leaves the evidence folder {folder} (..)")
    candidate = _under(path, folder)
    if candidate is None:
        raise refuse(f"not found in {folder} (pass --screenshots-dir)")
    real, home = candidate.resolve(), folder.resolve()
    if not real.is_relative_to(home):
        raise refuse(f"is {real}, outside the evidence folder {folder}")
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise refuse(f"cannot be opened ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as shot:
        info = os.fstat(shot.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise refuse("is not a regular file")
        if info.st_size > MAX_EACH:
            raise refuse(f"is {info.st_size} bytes, over the board's {MAX_EACH:,} per screenshot")
        png = shot.read(MAX_EACH + 1)
    if not png.startswith(PNG_MAGIC):
        raise refuse("is not a PNG (its first bytes are not the PNG signature)")
    if len(png) > MAX_EACH:  # grew while read
        raise refuse(f"is over the board's {MAX_EACH:,} bytes per screenshot")
    return png


def _under(recorded: Path, folder: Path) -> Path | None:
    """The longest tail of ``recorded`` that exists under ``folder`` (a card and its
    evidence moved together, or the folder moved to ``--screenshots-dir``, still resolve)."""
    parts = recorded.parts[1:] if recorded.is_absolute() else recorded.parts
    for start in range(len(parts)):
        candidate = folder.joinpath(*parts[start:])
        if os.path.lexists(candidate):
            return candidate
    return None
