# Stamped after the agent ran. It names the old declaration on purpose:
# a negative grep scoped to the agent's files must not see "def old_total" here.
import sys

sys.path.insert(0, ".")
import calc  # noqa: E402

assert calc.total([1, 2, 3]) == 6
assert calc.report([2, 2]) == "total=4"
assert "def old_total" not in open("calc.py").read()
