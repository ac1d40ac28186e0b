"""Markdown table rows for BENCHMARKS.md from two results of `benchmarks.pipeline`, side by side.

    python -m benchmarks.report --old benchmarks/results/pipeline.json \
        --new benchmarks/results/pipeline_issue8.json

One row per volume found in either file; each cell reads `old -> new` (`-` where a file lacks
the figure: results written before the no-op rerun and the empty-input run have neither).
Times are medians of the repeats, with the change in percent when both are known. The
empty-input fixed cost is measured once per invocation, so every row shows the same value;
the lines under the table say where each file's figures come from.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

JsonDict = dict[str, Any]
# A figure of one volume: (that volume's entry, the whole results) -> value, or None.
Figure = Callable[[JsonDict, JsonDict], Any]


def _median(phase: str) -> Figure:
    """The median seconds of one phase of a volume."""
    return lambda entry, _results: (entry.get(phase) or {}).get("median_seconds")


def _ratio(name: str) -> Figure:
    """One of a volume's ratios (`full_over_baseline`, `incremental_over_full`, ...)."""
    return lambda entry, _results: (entry.get("ratios") or {}).get(name)


def _empty_input(_entry: JsonDict, results: JsonDict) -> float | None:
    """The empty-input build's seconds: one per results file, not per volume."""
    return ((results.get("empty_input") or {}).get("pipeline_full") or {}).get("median_seconds")


def _peak_full(entry: JsonDict, _results: JsonDict) -> tuple[float, float] | None:
    """Peak RSS MiB of the full build: whole process tree and largest process."""
    series = entry.get("pipeline_full") or {}
    if series.get("peak_total_rss_mib") is None:
        return None
    return series["peak_total_rss_mib"], series["peak_largest_rss_mib"]


def seconds(value: float) -> str:
    """`62.0 s`."""
    return f"{value:.1f} s"


def times(value: float) -> str:
    """`3.52x`."""
    return f"{value:.2f}x"


def fraction(value: float) -> str:
    """`1.07`."""
    return f"{value:.2f}"


def mebibytes(value: tuple[float, float]) -> str:
    """`3,422 / 2,860` (process tree / largest process)."""
    return f"{value[0]:,.0f} / {value[1]:,.0f}"


# (header, figure, format, whether to add the change in percent)
COLUMNS: tuple[tuple[str, Figure, Callable[[Any], str], bool], ...] = (
    ("pipeline, full build", _median("pipeline_full"), seconds, True),
    ("baseline job", _median("baseline"), seconds, True),
    ("full / baseline", _ratio("full_over_baseline"), times, False),
    ("incremental ({fraction})", _median("pipeline_incremental"), seconds, True),
    ("incremental / full", _ratio("incremental_over_full"), fraction, False),
    ("no-op rerun", _median("pipeline_noop"), seconds, True),
    ("empty-input fixed cost", _empty_input, seconds, True),
    ("peak MiB full", _peak_full, mebibytes, False),
)


def volume_label(changes: int) -> str:
    """`10 k`, `100 k`, `1 M`, `2.5 M`, as BENCHMARKS.md writes volumes."""
    for size, suffix in ((1_000_000, "M"), (1_000, "k")):
        if changes >= size:
            return f"{changes / size:g} {suffix}"
    return str(changes)


def side_by_side(old: Any, new: Any, form: Callable[[Any], str], change: bool) -> str:
    """`old -> new`, `-` for a missing side, `(+x%)` after when asked and both are known."""
    if old is None and new is None:
        return "-"
    cell = f"{'-' if old is None else form(old)} -> {'-' if new is None else form(new)}"
    if change and old and new is not None:
        cell += f" ({(new - old) / old:+.0%})"
    return cell


def _volumes(results: JsonDict) -> dict[int, JsonDict]:
    return {int(entry["changes"]): entry for entry in results.get("volumes", [])}


def _fraction_label(old: JsonDict, new: JsonDict) -> str:
    """The later batch's share, e.g. `+1%`, from the settings (new first)."""
    for results in (new, old):
        value = (results.get("settings") or {}).get("append_fraction")
        if value is not None:
            return f"+{value:.0%}"
    return "later batch"


def _source(label: str, path: Path, results: JsonDict) -> str:
    """Where one side's figures come from: file, commit, date, repeats."""
    machine = results.get("machine") or {}
    commit = (machine.get("git_commit") or "?")[:7]
    dirty = " (uncommitted changes)" if machine.get("git_dirty") else ""
    started = results.get("started_at", "?")
    return (
        f"- {label}: `{path}`, commit `{commit}`{dirty}, started {started}, "
        f"medians of {repeats_label(results)}"
    )


def repeats_label(results: JsonDict) -> str:
    """How many repeats the medians are over: `3 repeats`, `3 repeats (1 at 5 M)`."""
    default = (results.get("settings") or {}).get("repeats", "?")
    fewer = [
        f"{entry['repeats']} at {volume_label(int(entry['changes']))}"
        for entry in results.get("volumes", [])
        if entry.get("repeats", default) != default
    ]
    label = f"{default} repeat{'' if default == 1 else 's'}"
    return f"{label} ({', '.join(fewer)})" if fewer else label


def report(old: JsonDict, new: JsonDict, old_path: Path, new_path: Path) -> str:
    """The markdown table (header, rows) and the lines naming both sources."""
    headers = ["changes"] + [
        header.format(fraction=_fraction_label(old, new)) for header, *_ in COLUMNS
    ]
    lines = [
        "| " + " | ".join(headers) + " |",
        "|" + "---|" * len(headers),
    ]
    old_volumes, new_volumes = _volumes(old), _volumes(new)
    for changes in sorted(old_volumes.keys() | new_volumes.keys()):
        old_entry, new_entry = old_volumes.get(changes, {}), new_volumes.get(changes, {})
        cells = [volume_label(changes)]
        for _header, figure, form, change in COLUMNS:
            cells.append(side_by_side(figure(old_entry, old), figure(new_entry, new), form, change))
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        "Cells read `old -> new`; times are medians; peak MiB is resident memory, process tree "
        "/ largest process. The empty-input fixed cost is one full build on a landing of no "
        "rows, once per benchmark run.",
        "",
        _source("old", old_path, old),
        _source("new", new_path, new),
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Read both results files, print the markdown."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.report",
        description="Print BENCHMARKS.md table rows comparing two benchmarks.pipeline results.",
    )
    parser.add_argument("--old", type=Path, default=Path("benchmarks/results/pipeline.json"))
    parser.add_argument("--new", type=Path, required=True)
    args = parser.parse_args(argv)
    old, new = (json.loads(path.read_text()) for path in (args.old, args.new))
    print(report(old, new, args.old, args.new))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
