"""The second instance's webhook registration, refused once on purpose (issue #13).

A real app registers at boot, often before its own server listens, so the vendor's
handshake fails; spec §3.4 asks it to keep trying until the vendor accepts. Before the
browser phase boots its second instance, the vendor is armed to refuse that instance's
first registration exactly as it refuses a failed handshake; its trace then says whether
a later registration for the same port was accepted while the instance lived. The main
app's slot is untouched by the refusal, and the ``restart`` phase empties the slot before
the webhook script anyway, so no scored row moves.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from benchwright.services.meridian import MeridianMock, url_port
from benchwright.suites.vspro.observations import RegisterAttempt, RegisterRetryObs

GRACE_S = 4.0
"""After the instance's scenarios: how long an instance whose refused registration was not
yet followed by an accepted one keeps running, so a retry paced at a few seconds still
lands. An app that already re-registered costs nothing."""
POLL_S = 0.1


@dataclass
class RegisterWatch:
    """The armed fault for one port, and the trace read back for that port."""

    mock: MeridianMock
    port: int
    armed_t: float
    boot_failure: str | None = "its boot never ended (the lane stopped first)"
    """Why the instance never became healthy; the boot sets None once it did."""

    @classmethod
    def arm(cls, mock: MeridianMock, port: int) -> RegisterWatch:
        """Arm the one-shot fault for ``port``; call before the instance boots."""
        armed_t = time.time()
        mock.arm_register_fault(port)
        return cls(mock, port, armed_t)

    def attempts(self) -> tuple[RegisterAttempt, ...]:
        """The port's registrations since arming, in arrival order."""
        lines = self.mock.trace.lines()
        return tuple(
            RegisterAttempt(
                round(line["t"] - self.armed_t, 3), line["status"], bool(line.get("register_fault"))
            )
            for line in lines
            if line.get("path") == "/v2/webhooks"
            and line.get("method") == "POST"
            and line["t"] >= self.armed_t
            and url_port(str(line.get("webhook_url"))) == self.port
        )

    def settle(self, grace_s: float = GRACE_S) -> None:
        """While the instance still lives: wait (bounded) for an accepted retry, if none yet."""
        deadline = time.monotonic() + grace_s
        while not self._accepted() and time.monotonic() < deadline:
            time.sleep(POLL_S)

    def observation(self) -> RegisterRetryObs:
        """Disarm (a fault never taken must not refuse anyone later) and read the trace."""
        self.mock.arm_register_fault(self.port, on=False)
        watched = round(time.time() - self.armed_t, 3)
        return RegisterRetryObs(self.port, self.boot_failure, self.attempts(), watched)

    def _accepted(self) -> bool:
        seen = RegisterRetryObs(self.port, None, self.attempts(), 0.0)
        return seen.accepted is not None
