"""A suite's ladder settings: its defaults, overridden row by row by a scorer's
thresholds, and the scorer's k_P."""

from dataclasses import dataclass
from types import MappingProxyType

from benchwright.scoring import Rung
from benchwright.suites.kit.checks import ladder_ms
from benchwright.suites.kit.checks.settings import LadderSettings

FAST = ladder_ms((100, 1.0), (200, 0.5))
SLOW = ladder_ms((1000, 1.0), (2000, 0.5))


class Settings(LadderSettings):
    DEFAULTS = MappingProxyType({"p_a": FAST, "p_b": FAST})


@dataclass
class Scorer:
    k_p: float = 1.5

    def rungs(self, name: str) -> tuple[Rung, ...]:
        if name == "p_b":
            return SLOW
        raise KeyError(name)


def test_no_ladders_means_the_suites_defaults():
    assert Settings().ladders == {"p_a": FAST, "p_b": FAST}
    assert Settings(ladders={"p_a": SLOW}).ladders == {"p_a": SLOW}


def test_a_scorer_overrides_the_rows_it_names_and_sets_k_p():
    settings = Settings.from_scorer(Scorer())
    assert isinstance(settings, Settings)
    assert settings.ladders == {"p_a": FAST, "p_b": SLOW} and settings.k_p == 1.5
