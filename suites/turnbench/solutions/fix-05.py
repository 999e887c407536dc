"""Reference fix for fix-05: the largest debit is the max (max keeps the first of a tie)."""

from pathlib import Path

path = Path("ledger/summary.py")
old = "return min(debits, key=lambda e: e.cents)"
new = "return max(debits, key=lambda e: e.cents)"
text = path.read_text()
assert old in text
path.write_text(text.replace(old, new))
