"""Small Gradle workspaces written into tmp_path, for the build and compose family tests."""

from __future__ import annotations

from pathlib import Path


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``files`` (relative path -> text or bytes) under ``root``; returns ``root``."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


LEDGER_JAVA = """package com.acme.ledger;

import java.math.BigDecimal;

public class Ledger {
    public BigDecimal settle(String side, BigDecimal cash, BigDecimal notional) {
        if ("SELL".equals(side)) {
            return cash.add(notional);
        }
        return cash.subtract(notional);
    }
}
"""
"""Sell-side arithmetic a SELL token anchors: the mutation turns ``subtract`` into ``add``."""

SERVICE = {
    "account-service/settings.gradle": "rootProject.name = 'account-service'\n",
    "account-service/build.gradle": "plugins { id 'java' }\ntest { useJUnitPlatform() }\n",
    "account-service/src/main/java/com/acme/ledger/Ledger.java": LEDGER_JAVA,
    "account-service/src/test/java/com/acme/ledger/LedgerTest.java": "class LedgerTest {}\n",
}
"""One Gradle root holding a ledger with sell-side arithmetic and a test."""
