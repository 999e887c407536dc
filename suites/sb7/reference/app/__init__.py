"""The Meridian Payments Console: two services, ``ledgerd`` and ``notifierd``.

``python -m app`` boots both in one process (a convenience); the harness starts and kills
``python -m app.ledgerd`` and ``python -m app.notifierd`` independently. Each service owns
one SQLite file under ``--db-dir`` and reaches the other over HTTP only.
"""
