"""The per-module time budgets of the test suite, read from the README's Tests section.

The README's table "Time budgets" lists every test module with the seconds it may take in
`bin/test` on the 2-core machine (the sample modules share one row: they share one build).
`test_time_budgets.py` checks that the table lists every module; the conftest prints, at the
end of a run, each module's time beside its budget and names those over it (a report, not a
failure: timings on shared machines are noisy, and speed belongs in benchmarks)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
SAMPLE_MODULES = "*_sample.py"
# | `test_x.py` | 120 | ...   (the module, or *_sample.py, then its budget in seconds)
ROW = re.compile(r"^\|\s*`(?P<module>(?:test_\w+|\*_sample)\.py)`\s*\|\s*(?P<budget>\d+)\s*\|")


def budgets(readme: Path = README) -> dict[str, int]:
    """module file name (or `*_sample.py`) -> budget in seconds, from the README table."""
    found: dict[str, int] = {}
    for line in readme.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            module = match["module"]
            assert module not in found, f"README time budgets list {module} twice"
            found[module] = int(match["budget"])
    return found


def budget_unit(path: str) -> str:
    """The row of the budget table a test file counts against."""
    name = path.rsplit("/", 1)[-1]
    return SAMPLE_MODULES if name.endswith("_sample.py") else name
