"""``benchwright watch``: alert on protected-file edits and network use as a session is written.

`SessionWatcher` polls a Claude Code or Codex session directory (`tail`), converts
new transcript lines with the importers' converters and checks the new steps
against a task's static checks (`rules`): the ``--task`` given, each session's own task
when a run is watched (`run_tasks`), the defaults when no task is known.
"""

from benchwright.watch.rules import DEFAULT_PROTECTED, Alert, Rules, rules_for
from benchwright.watch.watcher import SessionAlert, SessionWatcher

__all__ = ["DEFAULT_PROTECTED", "Alert", "Rules", "SessionAlert", "SessionWatcher", "rules_for"]
