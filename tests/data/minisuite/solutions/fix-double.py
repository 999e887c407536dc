from pathlib import Path

path = Path("mathx.py")
path.write_text(path.read_text().replace("x + 2", "x * 2"))
