"""The package's var defaults macro (python_udfs/var_defaults.py): current with
dbt_project.yml, and every value written as a Jinja literal that reads back equal.
Pure Python, no Spark."""

from __future__ import annotations

from typing import Any

import jinja2
from hypothesis import given
from hypothesis import strategies as st

from python_udfs import var_defaults

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
