"""Reference fix for fix-03: the days between two dates are their difference."""

from pathlib import Path

path = Path("ledger/dates.py")
old = "return (end - start).days + 1"
new = "return (end - start).days"
text = path.read_text()
assert old in text
path.write_text(text.replace(old, new))
