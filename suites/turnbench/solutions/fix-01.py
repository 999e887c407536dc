"""Reference fix for fix-01: format the absolute value, then the sign."""

from pathlib import Path

path = Path("ledger/money.py")
old = '''    units, rest = divmod(cents, 100)
    return f"{units}.{rest:02d}"'''
new = '''    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), 100)
    return f"{sign}{units}.{rest:02d}"'''
text = path.read_text()
assert old in text
path.write_text(text.replace(old, new))
