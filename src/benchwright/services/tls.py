"""One verifying TLS context for every HTTP client the harness makes.

httpx builds a fresh ``ssl.SSLContext`` for each ``Client`` and loads the CA bundle into
it: about 20 ms of CPU. The probes make a client per exchange (no keep-alive, on purpose:
`probes.http.client`), so one grading of sb-7's services spent ~5 CPU-seconds -- a quarter
of the grader's own -- loading certificates for apps that speak plain HTTP on loopback.
Made once and shared (a context serves any number of connections, from any thread), it
still verifies should a client ever speak TLS.
"""

from __future__ import annotations

import ssl
from functools import cache

import httpx


@cache
def shared_tls_context() -> ssl.SSLContext:
    """httpx's default verifying context (certifi's bundle; the environment's
    ``SSL_CERT_*`` ignored, as the harness's clients ignore proxies), made on first use."""
    return httpx.create_ssl_context(trust_env=False)
