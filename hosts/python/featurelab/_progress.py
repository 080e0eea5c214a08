"""featurelab.run's progress bar (tqdm, a widget in a notebook), fed by the run's own log lines: the first names the
number of jobs (and how many were done already), then one line ends each job ("#3 seed 1 … done in 2.1s",
"… pruned after 1.2s: …", "… failed: …", "… interrupted")."""

from __future__ import annotations

import re
import sys
from typing import Any, Callable, Optional

_PLAN = re.compile(r": (\d+) job\(s\) \(.*?\)(?:, (\d+) already done)?, \d+ worker")
_END = re.compile(r"^#\d+ .*?( done in [0-9.]+s$| pruned after [0-9.]+s: | interrupted$| failed: )")


def in_notebook() -> bool:
    """Whether this Python runs a notebook's kernel (where the bar is a widget and a line per job is noise)."""
    shell = getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()
    return type(shell).__name__ == "ZMQInteractiveShell"


class JobBar:
    """A bar over the run's jobs; `factory` makes it (tqdm.auto.tqdm, or any callable taking tqdm's arguments)."""

    def __init__(self, factory: Callable[..., Any], name: str):
        self._factory = factory
        self._name = name
        self._bar: Optional[Any] = None
        self.failed = 0

    def feed(self, message: str) -> bool:
        """Takes a log line; True when the bar said what it says (a plan or a job's end)."""
        if self._bar is None:
            plan = _PLAN.search(message)
            if plan:
                self._bar = self._factory(total=int(plan.group(1)), initial=int(plan.group(2) or 0), unit="job",
                                          desc=self._name)
            return plan is not None
        end = _END.search(message)
        if end is None:
            return False
        if end.group(1) == " failed: ":
            self.failed += 1
            self._bar.set_postfix(failed=self.failed)
        self._bar.update(1)
        return True

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
