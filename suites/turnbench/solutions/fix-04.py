"""Reference fix for fix-04: a debit subtracts."""

from pathlib import Path

path = Path("ledger/entries.py")
old = "        total += entry.cents\n"
new = '        total += entry.cents if entry.kind == "credit" else -entry.cents\n'
text = path.read_text()
assert old in text
path.write_text(text.replace(old, new))
