"""Plot median wall time against volume from the results of `benchmarks.pipeline`.

Log-log axes: the pipeline's full build, its incremental build (the later batch, a fixed
fraction of the volume), and the hand-written baseline job, each point labelled with its
median and bars from the fastest to the slowest repeat. The dashed line is linear growth
from the smallest volume's full build: a series flatter than it grows sublinearly (fixed
costs such as JVM start-up and dbt's per-model overhead dominate small volumes).

    python -m benchmarks.plot --json benchmarks/results/pipeline.json \
        --out benchmarks/results/time_vs_volume.png
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # after choosing the backend
from matplotlib.axes import Axes
from matplotlib.ticker import LogLocator, NullFormatter

JsonDict = dict[str, Any]

# (results key, legend label, colour, marker, label offset in points)
SERIES = (
    ("pipeline_full", "pipeline: full build", "tab:blue", "o", (6, 4)),
    (
        "pipeline_incremental",
        "pipeline: incremental build ({fraction})",
        "tab:green",
        "s",
        (6, -11),
    ),
    ("baseline", "hand-written PySpark job", "tab:orange", "^", (6, 4)),
)


def repeats_label(results: JsonDict) -> str:
    """How many runs each median is over, e.g. '3' or '3 (1 at 5,000,000)'."""
    default = results.get("settings", {}).get("repeats", "?")
    fewer = [
        f"{entry['repeats']} at {entry['changes']:,}"
        for entry in results.get("volumes", [])
        if entry.get("repeats", default) != default
    ]
    return f"{default} ({', '.join(fewer)})" if fewer else str(default)


def points(results: JsonDict, key: str) -> list[tuple[int, float, float, float]]:
    """(changes, median, min, max seconds) of one series, for the volumes that have it."""
    found = []
    for entry in results.get("volumes", []):
        series = entry.get(key) or {}
        if series.get("median_seconds") is not None:
            found.append(
                (
                    int(entry["changes"]),
                    float(series["median_seconds"]),
                    float(series["min_seconds"]),
                    float(series["max_seconds"]),
                )
            )
    return sorted(found)


def _seconds_label(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 10 else f"{seconds:.0f} s"


def _volume_label(changes: float, _position: object = None) -> str:
    for size, suffix in ((1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")):
        if changes >= size:
            return f"{changes / size:g}{suffix}"
    return f"{changes:g}"


def draw_series(
    axes: Axes,
    data: list[tuple[int, float, float, float]],
    offset: tuple[int, int] = (6, 4),
    **style: Any,
) -> None:
    """One series: line through the medians, min-max bars, each median labelled (`offset`)."""
    x = [point[0] for point in data]
    median = [point[1] for point in data]
    below = [point[1] - point[2] for point in data]
    above = [point[3] - point[1] for point in data]
    axes.errorbar(x, median, yerr=[below, above], capsize=3, linewidth=1.5, **style)
    for changes, seconds, _low, _high in data:
        axes.annotate(
            _seconds_label(seconds),
            (changes, seconds),
            textcoords="offset points",
            xytext=offset,
            fontsize=8,
            color=style.get("color"),
        )


def plot(results: JsonDict, out: Path) -> None:
    """Draw the figure for `results` and save it as `out` (PNG, or what the suffix says)."""
    machine = results.get("machine", {})
    settings = results.get("settings", {})
    fraction = settings.get("append_fraction")
    fraction_label = f"{fraction:.0%} more changes" if fraction is not None else "later batch"
    figure, axes = plt.subplots(figsize=(9, 6), layout="constrained")
    drawn = False
    for key, label, colour, marker, offset in SERIES:
        data = points(results, key)
        if data:
            draw_series(
                axes,
                data,
                offset,
                color=colour,
                marker=marker,
                label=label.format(fraction=fraction_label),
            )
            drawn = True
    if not drawn:
        raise SystemExit("no timings in the results: nothing to plot")

    reference = points(results, "pipeline_full") or points(results, "baseline")
    volumes = sorted({entry["changes"] for entry in results.get("volumes", [])})
    if reference and len(volumes) > 1:
        first_volume, first_seconds = reference[0][0], reference[0][1]
        axes.plot(
            volumes,
            [first_seconds * volume / first_volume for volume in volumes],
            linestyle="--",
            color="grey",
            linewidth=1,
            label="linear growth from the smallest full build",
        )

    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.xaxis.set_major_formatter(_volume_label)
    axes.xaxis.set_minor_formatter(lambda _value, _position: "")
    axes.set_xticks(volumes)
    axes.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    axes.yaxis.set_major_formatter(lambda value, _position: f"{value:g}")
    axes.yaxis.set_minor_formatter(NullFormatter())
    keys_ratio = settings.get("keys_ratio", 0.1)
    axes.set_xlabel(f"changes generated (keys per table = max(1000, {keys_ratio:g} x changes))")
    axes.set_ylabel("median wall time, seconds (bars: min-max of repeats)")
    axes.grid(True, which="both", linestyle=":", linewidth=0.5)
    axes.legend(loc="upper left", fontsize=9)
    cores = machine.get("cpu_count", "?")
    memory = machine.get("mem_total_gib")
    memory_label = f"{memory:.1f} GiB" if isinstance(memory, (int, float)) else "? GiB"
    axes.set_title(
        f"CDC history: dbt pipeline vs hand-written PySpark job\n"
        f"{cores} cores, {memory_label} RAM, {machine.get('cpu_model') or 'unknown CPU'}; "
        f"Spark {machine.get('pyspark', '?')} local mode; "
        f"median of {repeats_label(results)} runs",
        fontsize=10,
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=120)
    plt.close(figure)


def main(argv: Sequence[str] | None = None) -> int:
    """Read the results JSON, write the figure."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.plot", description=__doc__)
    parser.add_argument("--json", type=Path, default=Path("benchmarks/results/pipeline.json"))
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/time_vs_volume.png"))
    args = parser.parse_args(argv)
    plot(json.loads(args.json.read_text()), args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
