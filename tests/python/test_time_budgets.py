"""The README's table of per-module time budgets lists every test module, and only those
(no Spark, under a second)."""

from __future__ import annotations

from pathlib import Path

from time_budgets import SAMPLE_MODULES, budget_unit, budgets

TESTS_DIR = Path(__file__).resolve().parent


def test_every_test_module_has_a_time_budget() -> None:
    table = budgets()
    modules = {budget_unit(str(path)) for path in TESTS_DIR.glob("test_*.py")}
    assert SAMPLE_MODULES in modules
    missing = sorted(modules - set(table))
    unknown = sorted(set(table) - modules)
    assert not missing, f"add these modules to the README's time budgets table: {missing}"
    assert not unknown, f"the README lists budgets of modules that do not exist: {unknown}"
    assert all(seconds > 0 for seconds in table.values()), table


def test_the_budget_rows_are_read_from_the_table(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(
        "| module | budget (s) |\n|---|---|\n| `test_a.py` | 30 | x |\n"
        "| `*_sample.py` | 600 | y |\nnot a row `test_b.py` | 5 |\n"
    )
    assert budgets(readme) == {"test_a.py": 30, SAMPLE_MODULES: 600}
    assert budget_unit("tests/python/test_goldengate_sample.py") == SAMPLE_MODULES
    assert budget_unit("tests/python/test_a.py") == "test_a.py"
