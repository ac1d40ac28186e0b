"""The side-by-side report of two benchmark results, and the plot, read both the results written
before issue 8 (`benchmarks/results/pipeline.json`, no no-op rerun, no empty input) and those
of the driver now (`data/pipeline_small_run.json`: a real 10 k run, one repeat, no tests; made
with the project's whole var cdc_tables, since a build of the Qlik tables alone did not parse
yet at the time: the acct and usr marts ask for their cdc_tables entries)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import plot, report
from benchmarks.report import fraction, seconds, side_by_side, volume_label

PROJECT_DIR = Path(__file__).resolve().parents[2]
OLD = PROJECT_DIR / "benchmarks" / "results" / "pipeline.json"
NEW = Path(__file__).resolve().parent / "data" / "pipeline_small_run.json"


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def test_report_puts_old_and_new_side_by_side() -> None:
    """One row per volume of either file, every row as wide as the header; figures a file
    lacks read `-`; the empty-input cost (once per file) shows in every row."""
    old, new = json.loads(OLD.read_text()), json.loads(NEW.read_text())
    text = report.report(old, new, OLD, NEW)
    lines = text.splitlines()
    header = _cells(lines[0])
    assert header == [
        "changes",
        "pipeline, full build",
        "baseline job",
        "full / baseline",
        "incremental (+1%)",
        "incremental / full",
        "no-op rerun",
        "empty-input fixed cost",
        "peak MiB full",
    ]
    rows = {cells[0]: dict(zip(header, cells, strict=True)) for cells in map(_cells, lines[2:6])}
    assert list(rows) == ["10 k", "100 k", "1 M", "5 M"]
    [small] = new["volumes"]
    empty = new["empty_input"]["pipeline_full"]["median_seconds"]
    assert rows["10 k"]["no-op rerun"] == f"- -> {small['pipeline_noop']['median_seconds']:.1f} s"
    assert rows["10 k"]["pipeline, full build"].startswith("- -> ")
    assert rows["100 k"]["pipeline, full build"] == "62.0 s -> -"
    assert rows["100 k"]["full / baseline"] == "3.52x -> -"
    assert rows["1 M"]["incremental / full"] == "0.68 -> -"
    assert rows["5 M"]["peak MiB full"] == "5,529 / 4,973 -> -"
    assert rows["5 M"]["no-op rerun"] == "-"
    assert {row["empty-input fixed cost"] for row in rows.values()} == {f"- -> {empty:.1f} s"}
    assert "medians of 3 repeats (1 at 5 M)" in text
    assert "medians of 1 repeat" in text


def test_report_of_a_file_against_itself_shows_no_change(capsys: pytest.CaptureFixture) -> None:
    """Through the command line: the same figures on both sides, +0% for the times."""
    assert report.main(["--old", str(NEW), "--new", str(NEW)]) == 0
    row = _cells(capsys.readouterr().out.splitlines()[2])
    assert row[0] == "10 k"
    assert all(cell.endswith("(+0%)") for cell in (row[1], row[2], row[4], row[6], row[7]))


@pytest.mark.parametrize(
    ("old", "new", "form", "change", "cell"),
    [
        pytest.param(62.0, 48.06, seconds, True, "62.0 s -> 48.1 s (-22%)", id="time with change"),
        pytest.param(1.0658, 0.5, fraction, False, "1.07 -> 0.50", id="ratio without change"),
        pytest.param(None, 3.0, seconds, True, "- -> 3.0 s", id="old lacks it"),
        pytest.param(3.0, None, seconds, True, "3.0 s -> -", id="new lacks it"),
        pytest.param(None, None, seconds, True, "-", id="neither has it"),
    ],
)
def test_side_by_side_cells(old: Any, new: Any, form: Any, change: bool, cell: str) -> None:
    assert side_by_side(old, new, form, change) == cell


@pytest.mark.parametrize(
    ("changes", "label"),
    [(10_000, "10 k"), (100_000, "100 k"), (1_000_000, "1 M"), (2_500_000, "2.5 M"), (900, "900")],
)
def test_volume_labels(changes: int, label: str) -> None:
    assert volume_label(changes) == label


@pytest.mark.parametrize("results", [OLD, NEW], ids=["before issue 8", "small run now"])
def test_plot_reads_old_and_new_results(tmp_path: Path, results: Path) -> None:
    out = tmp_path / "plot.png"
    assert plot.main(["--json", str(results), "--out", str(out)]) == 0
    assert out.stat().st_size > 10_000
