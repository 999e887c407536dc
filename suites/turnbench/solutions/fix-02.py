"""Reference fix for fix-02: the fraction is hundredths, so pad it to two digits."""

from pathlib import Path

path = Path("ledger/money.py")
old = 'int(frac or "0"))'
new = 'int(frac.ljust(2, "0")))'
text = path.read_text()
assert old in text
path.write_text(text.replace(old, new))
