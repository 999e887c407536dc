"""The poster's identity: a pseudonym the board shows, an install id it never shows, and
the private key that proves a post comes from this install.

The first ``benchwright publish`` writes ``$XDG_CONFIG_HOME/benchwright/identity.json``
(``~/.config/benchwright/identity.json`` when the variable is unset) with mode 0600 and
every later publish reuses it, so one machine's runs share a handle and the server can
rate-limit by install id. The pseudonym is ``adjective-animal-4hex``: readable, and
random enough that two posters rarely collide, without asking anyone for a name.

The board binds a handle to the public key of the first post under it, so only this
file's key can post under this handle again (`benchwright.board.signing`). A file written
before keys existed gets one on its next use, said in one line: its handle is claimed by
the first signed post, wherever that comes from.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchwright.board.signing import new_private_key
from benchwright.errors import SpecError

ADJECTIVES = (
    "amber", "brisk", "calm", "cobalt", "crimson", "dapper", "eager", "fabled", "gentle",
    "gilded", "hardy", "hazel", "ivory", "jolly", "keen", "lucid", "mellow", "misty", "nimble",
    "noble", "olive", "plucky", "quiet", "rapid", "russet", "sable", "silver", "spry", "stout",
    "sunny", "swift", "tawny", "topaz", "umber", "velvet", "vivid", "wary", "witty", "zesty",
)  # fmt: skip
ANIMALS = (
    "badger", "bison", "crane", "curlew", "dingo", "egret", "ferret", "finch", "gecko",
    "gibbon", "heron", "ibex", "jackal", "kestrel", "koala", "lemur", "lynx", "marten", "moose",
    "newt", "ocelot", "osprey", "otter", "panda", "puffin", "quokka", "raven", "salmon", "shrew",
    "stoat", "tapir", "toucan", "vole", "walrus", "wombat", "yak", "zebu",
)  # fmt: skip
FILE_MODE = 0o600


@dataclass(frozen=True, slots=True)
class Identity:
    """Who posts: ``handle`` is public, ``install_id`` only groups posts server-side, and
    ``private_key`` (Ed25519, 32 raw bytes) signs every post."""

    handle: str
    install_id: str
    private_key: bytes = field(repr=False)


def identity_path() -> Path:
    """Where the identity lives (XDG config dir, as other desktop tools keep theirs)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "benchwright" / "identity.json"


def new_handle() -> str:
    """A fresh pseudonym such as ``crimson-heron-7f3a``."""
    return f"{secrets.choice(ADJECTIVES)}-{secrets.choice(ANIMALS)}-{secrets.token_hex(2)}"


def load_or_create(
    path: Path | None = None, say: Callable[[str], None] = lambda _line: None
) -> Identity:
    """The identity stored at ``path`` (default `identity_path`), created on first use.

    Args:
        say: told one line when a key is added to an identity that had none.

    Raises:
        SpecError: the file exists but is not an identity this module wrote (one line,
            naming the file and the field), so a hand-broken file is never replaced
            silently - that would give the poster a second handle.
    """
    path = path or identity_path()
    if path.exists():
        found = _read(path)
        if found.private_key:
            return found
        found = Identity(found.handle, found.install_id, new_private_key())
        _write(path, found, replace=True)
        say(
            f"{path}: added a signing key; a board binds handle '{found.handle}' to the "
            "key of the first signed post under it"
        )
        return found
    found = Identity(
        handle=new_handle(), install_id=uuid.uuid4().hex, private_key=new_private_key()
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(path, found, replace=False)
    return found


def _write(path: Path, identity: Identity, *, replace: bool) -> None:
    """Write with the final mode from the start (O_EXCL): the key is never readable by
    others, not even briefly; a replacement is written beside and renamed over."""
    target = path.with_name(f".{path.name}.{secrets.token_hex(4)}") if replace else path
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        doc = {"handle": identity.handle, "installId": identity.install_id,
               "privateKey": base64.b64encode(identity.private_key).decode()}  # fmt: skip
        json.dump(doc, out, indent=2)
        out.write("\n")
    if replace:
        os.replace(target, path)


def _read(path: Path) -> Identity:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SpecError.single(str(path), f"not a readable identity file ({exc})") from None
    if not isinstance(doc, dict):
        raise SpecError.single(str(path), "expected a JSON object")
    for key in ("handle", "installId"):
        if not isinstance(doc.get(key), str) or not doc[key].strip():
            raise SpecError.single(str(path), "missing or empty (delete the file to renew)", key)
    return Identity(doc["handle"], doc["installId"], _private_key(path, doc))


def _private_key(path: Path, doc: dict[str, Any]) -> bytes:
    """The stored key, or b"" when the file predates keys (one is then added)."""
    if "privateKey" not in doc:
        return b""
    try:
        key = base64.b64decode(str(doc["privateKey"]), validate=True)
    except (binascii.Error, ValueError):
        key = b""
    if len(key) != 32:
        raise SpecError.single(str(path), "not 32 bytes of base64 (an Ed25519 key)", "privateKey")
    return key
