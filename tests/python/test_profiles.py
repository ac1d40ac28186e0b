"""The shipped profile must leave the session's partition overwrite mode alone.

dbt-spark's session cursor re-applies a target's `server_side_parameters` (builder
`.config(...).getOrCreate()`) before every statement. The project's own partition
overwrites (the histories, the Qlik change log) set the mode as their table's option
(`cdc_partition_overwrite_mode`), which Spark reads before the session's; but an
`insert_overwrite` model a user adds gets the session's, and a profile that sets
`spark.sql.sources.partitionOverwriteMode` would silently turn its dynamic overwrite into a
static one that empties every other partition.
"""

from pathlib import Path

import yaml

PROFILES = Path(__file__).resolve().parents[2] / "profiles" / "profiles.yml"


def _targets():
    profiles = yaml.safe_load(PROFILES.read_text())
    for profile in profiles.values():
        yield from profile["outputs"].items()


def test_every_target_is_checked():
    assert {name for name, _ in _targets()} >= {"local", "cluster"}


def test_no_target_sets_the_partition_overwrite_mode():
    for name, output in _targets():
        settings = {k.lower() for k in output.get("server_side_parameters") or {}}
        assert "spark.sql.sources.partitionoverwritemode" not in settings, name


def test_dbt_spark_still_reapplies_settings_per_statement():
    """The reason for the rule: if dbt-spark stops re-applying, the rule can be relaxed."""
    import inspect

    from dbt.adapters.spark import session

    source = inspect.getsource(session.Cursor.execute)
    assert "server_side_parameters" in source and "getOrCreate" in source
