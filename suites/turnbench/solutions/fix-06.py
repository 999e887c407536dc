"""Reference fix for fix-06: key the totals by the lower-case category."""

from pathlib import Path

path = Path("ledger/summary.py")
old = "            totals[entry.category] = totals.get(entry.category, 0) + entry.cents\n"
new = (
    "            key = entry.category.lower()\n"
    "            totals[key] = totals.get(key, 0) + entry.cents\n"
)
text = path.read_text()
assert old in text
path.write_text(text.replace(old, new))
