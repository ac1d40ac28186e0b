"""The package's var defaults macro (python_udfs/var_defaults.py): current with
dbt_project.yml, and every value written as a Jinja literal that reads back equal; each
format's settings, in its registry entry, read by the var names that override them, a var
named like a setting that names none stopping cdc-dbt, and the defaults YAML files write
where they read a setting equal to the registry's. Pure Python, no Spark (time budget 5 s)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from python_udfs import cli, var_defaults

JINJA = jinja2.Environment()


def read_back(literal: str) -> Any:
    return JINJA.compile_expression(literal)()


def test_macro_is_current() -> None:
    assert var_defaults.main(["--check"]) == 0, "run python -m python_udfs.var_defaults"


def test_every_default_reads_back_equal() -> None:
    defaults = var_defaults.package_defaults()
    assert defaults["cdc_tables"] == {}, "the samples are no default"
    assert "cdc_source_systems" in defaults and "as_of" in defaults
    for name, value in defaults.items():
        assert read_back(var_defaults.jinja_literal(value, indent=8)) == value, name


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)


@given(values, st.integers(min_value=0, max_value=40))
def test_any_value_reads_back_equal(value: Any, indent: int) -> None:
    assert read_back(var_defaults.jinja_literal(value, indent=indent, width=40)) == value


REGISTRY = var_defaults.package_vars()["cdc_source_systems"]
REPOSITORY = Path(__file__).resolve().parents[2]


def test_every_format_setting_is_a_default_by_its_var_name() -> None:
    """A format's settings are in its registry entry, not vars of their own; the scaffold and
    cdc-dbt read them by the var names that override them, as cdc_var does in dbt."""
    defaults = var_defaults.package_defaults()
    top_level = yaml.safe_load((REPOSITORY / "dbt_project.yml").read_text())["vars"]
    for system, entry in REGISTRY.items():
        assert entry["settings"], system
        for setting, value in entry["settings"].items():
            assert defaults[f"{system}_{setting}"] == value
            assert f"{system}_{setting}" not in top_level, "a setting is not a var of its own"
    assert defaults["qlik_ct_landing"] == "seeds"
    assert defaults["goldengate_json_pos_sequence_digits"] == 10


def test_a_projects_registry_gives_its_settings_defaults() -> None:
    """A project's own registry (a format of its own) gives its settings' defaults; a var set
    overrides one."""
    registry = {**REGISTRY, "toyfeed": {"settings": {"landing": "seeds", "feed": "f1"}}}
    found = var_defaults.with_format_settings(
        {"cdc_source_systems": registry, "toyfeed_feed": "f2"}
    )
    assert found["toyfeed_landing"] == "seeds"
    assert found["toyfeed_feed"] == "f2"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("qlik_ct_landing", None),
        ("qlik_kafka_reload", None),
        ("as_of", None),
        ("qlik_ct_landng", "var qlik_ct_landng: the format qlik_ct has no setting 'landng'"),
        # the longest registered name decides: qlik_kafka, not a qlik_ct setting
        ("qlik_kafka_landng", "var qlik_kafka_landng: the format qlik_kafka has no setting"),
        ("goldengate_trail", "var goldengate_trail: the format goldengate has no setting 'trail'"),
    ],
)
def test_a_var_named_like_a_setting_must_name_one(name: str, expected: str | None) -> None:
    problems = var_defaults.unknown_format_settings({"cdc_source_systems": REGISTRY, name: "x"})
    if expected is None:
        assert problems == []
    else:
        assert len(problems) == 1 and problems[0].startswith(expected), problems
        assert "landing, schema, landing_root" in problems[0]


def test_cdc_dbt_stops_on_a_misnamed_setting_before_dbt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """From the project's dbt_project.yml or from --vars, before any dbt or Spark work."""
    (tmp_path / "dbt_project.yml").write_text(
        yaml.safe_dump({"name": "mine", "vars": {"idm_jdbc_driver_acount": "X"}})
    )
    assert cli._misnamed_setting(tmp_path, ["parse"]) is not None
    (tmp_path / "dbt_project.yml").write_text(yaml.safe_dump({"name": "mine", "vars": {}}))
    assert cli._misnamed_setting(tmp_path, ["build"]) is None
    args = ["parse", "--project-dir", str(tmp_path), "--vars", "{goldengate_landng: files}"]
    assert cli._run_dbt(tmp_path, args, callbacks=()) == 2  # dbt itself would parse
    assert "var goldengate_landng: the format goldengate has no setting" in (
        capsys.readouterr().err
    )


# var('<name>', '<default>') in a YAML file: YAML cannot call cdc_var, so the default is written
VAR_WITH_DEFAULT = re.compile(r"""\bvar\('(?P<name>\w+)', '(?P<default>[^']*)'\)""")


def test_every_default_written_in_yaml_is_the_packages() -> None:
    """The package's and the sample project's YAML (sources, seeds) write a setting's
    default where they read it: each is the registry's."""
    defaults = var_defaults.package_defaults()
    checked = 0
    for folder in ("models", "samples/seeds", "samples/models"):
        for path in sorted((REPOSITORY / folder).rglob("*.yml")):
            for match in VAR_WITH_DEFAULT.finditer(path.read_text()):
                assert match["name"] in defaults, (path, match["name"])
                assert str(defaults[match["name"]]) == match["default"], (path, match[0])
                checked += 1
    assert checked > 20, checked
