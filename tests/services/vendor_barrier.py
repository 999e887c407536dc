"""A barrier on a Unix socket that sandboxed agents can reach through a read-only bind.

Each party connects; nobody hears ``go`` until ``parties`` have connected, so whatever
each did before connecting was happening at the same time as the others' wait. The socket
is mode 0777 in a 0755 directory: a sandbox's leased uid may connect to it.
"""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path


class Barrier:
    def __init__(self, directory: Path, parties: int) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        directory.chmod(0o755)
        self.directory, self.parties = directory, parties
        self.path = directory / "barrier.sock"
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.bind(str(self.path))
        os.chmod(self.path, 0o777)
        self._sock.listen(parties)
        self.met = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        waiting = []
        try:
            while len(waiting) < self.parties:
                conn, _ = self._sock.accept()
                waiting.append(conn)
        except OSError:  # closed before everyone came: nobody is released
            return
        self.met.set()
        for conn in waiting:
            conn.sendall(b"go")
            conn.close()

    def __enter__(self) -> Barrier:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._sock.close()
        self._thread.join(5)
