"""What a run costs per captured table when the data costs nothing (issue 24).

    python -m benchmarks.tables [--counts 1 10 50 100] [--no-mixed] [--skip-test]
        [--work .local/bench_tables] [--json benchmarks/results/tables.json]

For each N of --counts (ascending): a fresh copy of the project (cdc_simulator.project_copy)
configured for N Qlik change tables of tiny data (cdc_simulator.tiny_qlik_tables: one
full-load row and four change-table rows each, Parquet files landing), its own Derby
metastore and warehouse (`<work>/qlik_<N>`), and in it, one after the other:

1. `cdc-dbt run`       the first build of every model;
2. `cdc-dbt test --exclude test_type:unit`   every data test (the unit tests are fixed
                       fixtures, and some of a shared model's name shipped tables);
3. `cdc-dbt run`       again at once, nothing new landed (the no-op run).

--skip-test leaves step 2 out (the run and the no-op run only: at 100 tables the data tests
take about six minutes), and the test slope with it.

The landing settings are written into the copy's dbt_project.yml, not passed as --vars, so
the three commands share dbt's partial parse, as a user's scheduled runs do. Each command is
timed from the outside (wall seconds, including Python, Spark and dbt start) and its
run_results.json summed per node kind (model materialization, test, hook). Between the N's,
the marginal cost per table of each command is the slope (seconds(N2) - seconds(N1)) /
(N2 - N1).

Unless --no-mixed: the same three commands on a copy of the shipped project reduced to one
table of each format (employees, usr, oe_customer, customer, ogg_order) on the shipped
sample landing (seeds; `cdc-dbt seed` first, untimed): the fixed cost of every format's
chain at once.

The results JSON is rewritten after every command. Exit status 0 when every command
succeeded, 1 when a test failed, 2 when a run failed (the benchmark stops there).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import yaml

from benchmarks.pipeline import (
    PROJECT_FILE,
    cdc_dbt,
    dbt_env,
    machine_info,
    seconds_by_resource_type,
    test_summary,
    wait_for_metastore,
)
from benchmarks.process_memory import measure
from cdc_simulator import tiny_qlik_tables
from cdc_simulator.project_copy import project_with_tables

JsonDict = dict[str, Any]
# data tests only: the unit tests are fixed fixtures (no per-table cost), and some of a
# shared model's name the shipped tables, which a copy with other tables does not have
COMMANDS = (
    ("run", ["run"]),
    ("test", ["test", "--exclude", "test_type:unit"]),
    ("noop_run", ["run"]),
)
MIXED_TABLES = ("employees", "usr", "oe_customer", "customer", "ogg_order")
# a per-table node's name with the table's name taken out: stg_qlik_ct__table_007 ->
# stg_qlik_ct__<table>, so a node kind's seconds add up over the tables
_TABLE_NAME = re.compile(r"table_\d{3}")
_TEST_HASH = re.compile(r"\.[0-9a-f]{10}$")


class BenchmarkError(RuntimeError):
    """A benchmark command failed; the message says which and where its log is."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1, 10, 50, 100])
    parser.add_argument("--no-mixed", action="store_true", help="skip the one-of-each set")
    parser.add_argument(
        "--skip-test", action="store_true", help="the run and the no-op run only, no `test`"
    )
    parser.add_argument("--work", type=Path, default=Path(".local/bench_tables"))
    parser.add_argument("--json", type=Path, default=Path("benchmarks/results/tables.json"))
    return parser.parse_args(argv)


def node_kind(unique_id: str) -> str:
    """`model.cdc_history.dim_table_007_history` -> `model dim_<table>_history`;
    `test.cdc_history.unique_dim_table_007_live_pk_string.0123456789` ->
    `test unique_dim_<table>_live_pk_string` (a generic test's hash suffix left out)."""
    kind, _, rest = unique_id.partition(".")
    name = _TEST_HASH.sub("", rest.split(".", 1)[-1])
    return f"{kind} {_TABLE_NAME.sub('<table>', name)}"


def seconds_by_node_kind(run_results: JsonDict | None) -> dict[str, JsonDict]:
    """execution_time summed per node kind (tables' nodes together), slowest first."""
    totals: dict[str, JsonDict] = {}
    for node in (run_results or {}).get("results", []):
        entry = totals.setdefault(node_kind(node["unique_id"]), {"nodes": 0, "seconds": 0.0})
        entry["nodes"] += 1
        entry["seconds"] = round(entry["seconds"] + (node.get("execution_time") or 0.0), 3)
    return dict(sorted(totals.items(), key=lambda item: -float(item[1]["seconds"])))


def skipped_models(run_results: JsonDict | None) -> int:
    """Models the run skipped because they found nothing new (cdc_nothing_new)."""
    return sum(
        1
        for node in (run_results or {}).get("results", [])
        if node["unique_id"].startswith("model.") and node.get("message") == "nothing new"
    )


def run_command(name: str, arguments: list[str], project: Path, run_dir: Path) -> JsonDict:
    """`cdc-dbt <arguments>` in the project copy, timed; its run_results summarised."""
    wait_for_metastore(run_dir / "metastore_db")
    results_path = run_dir / "target" / "run_results.json"
    results_path.unlink(missing_ok=True)
    log = run_dir / "logs" / f"{name}.log"
    result = measure([cdc_dbt(), *arguments], log_path=log, extra_env=dbt_env(run_dir), cwd=project)
    run_results = json.loads(results_path.read_text()) if results_path.is_file() else None
    if run_results is not None:
        shutil.copyfile(results_path, run_dir / "logs" / f"{name}_run_results.json")
    record: JsonDict = {
        "command": arguments,
        "exit_code": result.exit_code,
        "seconds": round(result.wall_seconds, 1),
        "peak_total_rss_mib": result.peak_total_rss_mib,
        "log": str(log),
    }
    if run_results is not None:
        record.update(
            {
                "dbt_elapsed_seconds": round(run_results.get("elapsed_time") or 0.0, 1),
                "nodes": len(run_results.get("results", [])),
                "models_skipped_nothing_new": skipped_models(run_results),
                "seconds_by_resource_type": seconds_by_resource_type(run_results),
                "seconds_by_node_kind": dict(list(seconds_by_node_kind(run_results).items())[:25]),
                "tests": test_summary(run_results)["status_counts"] if name == "test" else None,
            }
        )
    return record


def run_set(
    name: str,
    project: Path,
    run_dir: Path,
    results: JsonDict,
    save: Any,
    skip_test: bool = False,
) -> int:
    """The three commands (two with skip_test) on one project copy; 0, 1 (a test failed) or
    2 (a run failed)."""
    status = 0
    entry = results["sets"].setdefault(name, {"tables": None, "commands": {}})
    for command_name, arguments in COMMANDS:
        if skip_test and command_name == "test":
            continue
        record = run_command(command_name, arguments, project, run_dir)
        entry["commands"][command_name] = record
        save()
        print(f"{name} {command_name}: {record['seconds']} s (exit {record['exit_code']})")
        if record["exit_code"] != 0:
            if command_name != "test":
                raise BenchmarkError(f"{name}: cdc-dbt {command_name} failed, see {record['log']}")
            status = 1
    return status


def qlik_project(work: Path, count: int) -> tuple[Path, Path]:
    """A fresh copy for `count` tiny Qlik tables, its landing written; (project, run folder)."""
    run_dir = work / f"qlik_{count}"
    if run_dir.exists():
        shutil.rmtree(run_dir)
    specs = tiny_qlik_tables.specs(count)
    landing = run_dir / "landing"
    tiny_qlik_tables.write_landing(landing, specs)
    project = project_with_tables(
        run_dir / "project",
        tiny_qlik_tables.cdc_tables(specs),
        {
            "qlik_ct_landing": "files",
            "qlik_ct_landing_root": str(landing.resolve()),
            "qlik_ct_landing_format": "parquet",
        },
    )
    return project, run_dir


def mixed_project(work: Path) -> tuple[Path, Path]:
    """A fresh copy of the shipped project with one table of each format (sample landing)."""
    run_dir = work / "mixed"
    if run_dir.exists():
        shutil.rmtree(run_dir)
    shipped = yaml.safe_load(PROJECT_FILE.read_text())["vars"]["cdc_tables"]
    tables = {name: shipped[name] for name in MIXED_TABLES}
    return project_with_tables(run_dir / "project", tables), run_dir


def slopes(sets: JsonDict, counts: list[int]) -> list[JsonDict]:
    """Marginal seconds per table of each command between consecutive table counts."""
    rows = []
    for low, high in pairwise(counts):
        row: JsonDict = {"from": low, "to": high}
        for command_name, _ in COMMANDS:
            a = sets.get(f"qlik_{low}", {}).get("commands", {}).get(command_name)
            b = sets.get(f"qlik_{high}", {}).get("commands", {}).get(command_name)
            if a and b:
                row[f"{command_name}_seconds_per_table"] = round(
                    (b["seconds"] - a["seconds"]) / (high - low), 2
                )
        rows.append(row)
    return rows


def summary_table(results: JsonDict) -> str:
    """The Markdown table BENCHMARKS.md records."""
    lines = [
        "| set | tables | run | test | no-op run | nodes (run / test) |",
        "|---|---|---|---|---|---|",
    ]
    for name, entry in results["sets"].items():
        commands = entry["commands"]

        def seconds(command: str, commands: JsonDict = commands) -> str:
            record = commands.get(command)
            return f"{record['seconds']:.1f} s" if record else "-"

        nodes = " / ".join(
            str(commands[c].get("nodes", "-")) if c in commands else "-" for c in ("run", "test")
        )
        lines.append(
            f"| {name} | {entry['tables']} | {seconds('run')} | {seconds('test')} "
            f"| {seconds('noop_run')} | {nodes} |"
        )
    lines += [
        "",
        "| from | to | run s/table | test s/table | no-op run s/table |",
        "|---|---|---|---|---|",
    ]
    for row in results.get("slopes", []):
        lines.append(
            f"| {row['from']} | {row['to']} | {row.get('run_seconds_per_table', '-')} "
            f"| {row.get('test_seconds_per_table', '-')} "
            f"| {row.get('noop_run_seconds_per_table', '-')} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    counts = sorted(set(args.counts))
    results: JsonDict = {"machine": machine_info(), "counts": counts, "sets": {}, "slopes": []}

    def save() -> None:
        results["slopes"] = slopes(results["sets"], counts)
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n")

    status = 0
    try:
        for count in counts:
            project, run_dir = qlik_project(work, count)
            results["sets"][f"qlik_{count}"] = {"tables": count, "commands": {}}
            status = max(
                status,
                run_set(f"qlik_{count}", project, run_dir, results, save, args.skip_test),
            )
        if not args.no_mixed:
            project, run_dir = mixed_project(work)
            results["sets"]["mixed"] = {"tables": len(MIXED_TABLES), "commands": {}}
            seed = run_command("seed", ["seed"], project, run_dir)
            if seed["exit_code"] != 0:
                raise BenchmarkError(f"mixed: cdc-dbt seed failed, see {seed['log']}")
            status = max(status, run_set("mixed", project, run_dir, results, save, args.skip_test))
    except BenchmarkError as error:
        save()
        print(f"benchmarks.tables: {error}", file=sys.stderr)
        return 2
    save()
    print(summary_table(results))
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
