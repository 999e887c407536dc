"""Which tests share a worker under ``pytest -n N``, and in which order their groups start.

``make test`` spreads the suite over worker processes (pytest-xdist): most of its wall
time is spent waiting on real apps, vendors and browsers, not computing. A session
fixture is made once per worker, though: split over two workers, the tests that read one
golden grading would grade it twice (a minute or more each), and a module's fixtures (a
browser, a served vendor) would start once per worker. So every test goes in one group
with every test it shares a module or one of our session fixtures with (the connected
pieces of that relation), and a group runs whole on one worker.

Groups are handed out longest first, so that no long group starts last and runs alone
while the other workers idle. "Long" is known before running from the marks: a group's
``slow`` tests (real end-to-end runs, each seconds to minutes) count far more than its
other tests.

How it reaches xdist: the workers collect, so each worker works the groups out and
writes them (node id -> group) to a folder the controller named in its ``workerinput``;
the controller's scheduler (xdist's by-scope scheduling, its scope being the group)
reads them once every worker has collected. xdist's own ``--dist loadgroup`` is not
used: it renames node ids through an attribute pytest 9.2 no longer reads, so it groups
nothing there.

Groups share the host: a test (or fixture) whose work is timed holds it to itself
through the host lease (tests/host_lease.py) while the other workers wait.
"""

from __future__ import annotations

import inspect
import json
import sysconfig
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import run_folder
from xdist.scheduler import LoadScopeScheduling

_INSTALLED = Path(sysconfig.get_paths()["purelib"])
SLOW_WEIGHT = 100
"""A ``slow`` test's weight against a plain one's 1 (the suite's slow tests take tens of
seconds, its others a fraction of one): only the order of groups depends on it."""
_FOLDER = "benchwright_worker_groups"
"""The ``workerinput`` key naming the folder the workers write their groups to."""
_FOLDER_KEY = pytest.StashKey[Path]()
_GROUP_KEY = pytest.StashKey[str]()


def _shared_fixtures(item: pytest.Item) -> set[str]:
    """The session fixtures of the suite's own (not pytest's or a plugin's: those are
    installed) that ``item`` uses, save autouse ones (every test uses those: they would
    join the whole suite into one group). Reads ``_fixtureinfo``, pytest's record of an
    item's fixture closure (it has no public view)."""
    shared: set[str] = set()
    info = getattr(item, "_fixtureinfo", None)  # a doctest item has none
    for name, defs in info.name2fixturedefs.items() if info else ():
        last = defs[-1]
        if last.scope != "session" or getattr(last, "_autouse", False):
            continue
        source = inspect.getsourcefile(last.func)
        if source and not Path(source).is_relative_to(_INSTALLED):
            shared.add(name)
    return shared


class _Pieces:
    """Union-find over keys (modules and fixture names): the connected pieces."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}

    def keys(self) -> list[str]:
        return list(self._parent)

    def root(self, key: str) -> str:
        parent = self._parent.setdefault(key, key)
        if parent != key:
            parent = self._parent[key] = self.root(parent)
        return parent

    def join(self, a: str, b: str) -> None:
        self._parent[self.root(a)] = self.root(b)


def worker_groups(items: list[pytest.Item]) -> dict[pytest.Item, str]:
    """Each item's group, named by the shared fixtures of its piece (``sb7_golden``), or
    by its module's stem when the piece is one module sharing none. Two modules of one
    stem (in two folders) share a group: coarser, never wrong."""
    pieces = _Pieces()
    for item in items:
        for name in _shared_fixtures(item):
            pieces.join(f"module:{item.path}", f"fixture:{name}")
    fixtures: dict[str, set[str]] = defaultdict(set)
    for key in list(pieces.keys()):
        if key.startswith("fixture:"):
            fixtures[pieces.root(key)].add(key.removeprefix("fixture:"))
    named = {}
    for item in items:
        root = pieces.root(f"module:{item.path}")
        named[item] = "+".join(sorted(fixtures[root])) if root in fixtures else item.path.stem
    return named


def _weight(item: pytest.Item) -> int:
    return SLOW_WEIGHT if item.get_closest_marker("slow") else 1


def _ordered(items: list[pytest.Item], groups: dict[pytest.Item, str]) -> None:
    """``items`` sorted group by group, heaviest group first; tests keep their order
    within a group (the sort is stable)."""
    weight: dict[str, int] = defaultdict(int)
    for item in items:
        weight[groups[item]] += _weight(item)
    first_seen = {group: n for n, group in enumerate(dict.fromkeys(groups.values()))}
    items.sort(key=lambda item: (-weight[groups[item]], first_seen[groups[item]]))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Controller: tell each worker where to write its groups (one folder per run)."""
    run_folder.name_to_worker(node, _FOLDER_KEY, _FOLDER, "bw-worker-groups-")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a worker, order the items group by group, heaviest first (the controller hands
    the groups out in this order), and write each item's group for the controller. A run
    without workers keeps the collection order."""
    folder = getattr(config, "workerinput", {}).get(_FOLDER)
    if folder is None:
        return
    groups = worker_groups(items)
    for item in items:
        item.stash[_GROUP_KEY] = groups[item]
    _ordered(items, groups)
    mine = Path(folder) / f"{config.workerinput['workerid']}.json"  # type: ignore[attr-defined]
    partial = mine.with_suffix(".partial")
    partial.write_text(json.dumps({item.nodeid: groups[item] for item in items}))
    partial.replace(mine)


def group_of(item: pytest.Item) -> str | None:
    """The group ``item`` runs in, on a worker (None in a run without workers)."""
    return item.stash.get(_GROUP_KEY, None)


class GroupScheduling(LoadScopeScheduling):
    """xdist's by-scope scheduling, a test's scope being its group, the groups handed out
    in the workers' collection order."""

    def __init__(self, config: pytest.Config, log: Any, folder: Path) -> None:
        super().__init__(config, log)
        self._folder = folder
        self._group_of: dict[str, str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if self._group_of is None:  # called once every worker has collected
            written = sorted(self._folder.glob("*.json"))
            self._group_of = json.loads(written[0].read_text()) if written else {}
        return self._group_of.get(nodeid, nodeid)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> GroupScheduling | None:
    """Controller: the group scheduler for a plain ``-n N`` run (``--dist load``, xdist's
    default); an explicit other ``--dist`` is the caller's choice."""
    if config.getoption("dist") != "load" or _FOLDER_KEY not in config.stash:
        return None
    config.option.loadscopereorder = False  # the workers' order is already heaviest first
    return GroupScheduling(config, log, config.stash[_FOLDER_KEY])


def pytest_unconfigure(config: pytest.Config) -> None:
    run_folder.remove(config, _FOLDER_KEY)
