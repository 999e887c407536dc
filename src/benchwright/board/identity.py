"""The poster's identity: a pseudonym the board shows and an install id it never shows.

The first ``benchwright publish`` writes ``$XDG_CONFIG_HOME/benchwright/identity.json``
(``~/.config/benchwright/identity.json`` when the variable is unset) with mode 0600 and
every later publish reuses it, so one machine's runs share a handle and the server can
rate-limit by install id. The pseudonym is ``adjective-animal-4hex``: readable, and
random enough that two posters rarely collide, without asking anyone for a name.
"""

from __future__ import annotations

import json
import os
import secrets
import uuid
from dataclasses import dataclass
from pathlib import Path

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
    """Who posts: ``handle`` is public, ``install_id`` only groups posts server-side."""

    handle: str
    install_id: str


def identity_path() -> Path:
    """Where the identity lives (XDG config dir, as other desktop tools keep theirs)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "benchwright" / "identity.json"


def new_handle() -> str:
    """A fresh pseudonym such as ``crimson-heron-7f3a``."""
    return f"{secrets.choice(ADJECTIVES)}-{secrets.choice(ANIMALS)}-{secrets.token_hex(2)}"


def load_or_create(path: Path | None = None) -> Identity:
    """The identity stored at ``path`` (default `identity_path`), created on first use.

    Raises:
        SpecError: the file exists but is not an identity this module wrote (one line,
            naming the file and the field), so a hand-broken file is never replaced
            silently - that would give the poster a second handle.
    """
    path = path or identity_path()
    if path.exists():
        return _read(path)
    found = Identity(handle=new_handle(), install_id=uuid.uuid4().hex)
    path.parent.mkdir(parents=True, exist_ok=True)
    # O_EXCL with the final mode: the install id is never readable by others, not even briefly.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({"handle": found.handle, "installId": found.install_id}, out, indent=2)
        out.write("\n")
    return found


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
    return Identity(handle=doc["handle"], install_id=doc["installId"])
