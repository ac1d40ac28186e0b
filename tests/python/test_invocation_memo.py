"""What one dbt command keeps of its configuration (cdc_invocation_memo): the package's var
defaults built once, and each cdc_source_systems and cdc_tables entry checked once, reused
only while the var value is the very object it was checked as, and never carried into
another command.

The macros run as dbt runs them (dbt's own Jinja environment; `return(...)` is a macro's
value) in a small context of their own: `graph`, `invocation_id`, `var` and `modules`, with
the whole configuration marked checked for the command (cdc_validate_config's mark in the
memo) so only the entry checks under test run. Pure Python, no dbt project, no Spark (time
budget 5 s)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dbt_common.clients.jinja import get_environment
from dbt_common.exceptions.macros import MacroReturn

MACROS = Path(__file__).resolve().parents[2] / "macros"
NAMES = (
    "cdc/cdc_invocation_memo.sql",
    "cdc/cdc_var.sql",
    "cdc/cdc_var_defaults.sql",
    "cdc/cdc_format_setting_default.sql",
    "cdc/cdc_validate_config.sql",
    "cdc/cdc_table_config.sql",
    "cdc/cdc_source_system_config.sql",
    "cdc/cdc_format_hook_names.sql",
    "cdc/cdc_is_table_name.sql",
    "cdc/cdc_is_identifier.sql",
)
NO_DEFAULT = object()


class CompilerError(Exception):
    """exceptions.raise_compiler_error's exception here."""


class Exceptions:
    @staticmethod
    def raise_compiler_error(message: str) -> None:
        raise CompilerError(message)


class Command:
    """One dbt command's macros: `vars` is what `var(name)` returns (the objects themselves,
    as dbt returns a var's value), `graph` the command's graph."""

    def __init__(self, vars: dict[str, Any], graph: Any, invocation_id: str) -> None:
        self.vars = vars
        self.calls: dict[str, int] = {}
        environment = get_environment()
        context: dict[str, Any] = {
            "graph": graph,
            "invocation_id": invocation_id,
            "var": self.var,
            "modules": {"re": re},
            "exceptions": Exceptions,
            "return": self.return_,
            "execute": False,
            "cdc_history": self,
        }
        if isinstance(graph, dict):
            # the whole configuration checked for this command (cdc_validate_config's mark in
            # the memo): only the entry checks run
            graph["cdc_invocation_memo"] = {
                "invocation_id": invocation_id,
                "config_validated": True,
            }
        self.macros: dict[str, Any] = {}
        for name in NAMES:
            module = environment.from_string((MACROS / name).read_text()).make_module(context)
            macro = Path(name).stem
            self.macros[macro] = getattr(module, f"dbt_macro__{macro}")  # dbt's macro names

    @staticmethod
    def return_(value: Any) -> None:
        raise MacroReturn(value)

    def var(self, name: str, default: Any = NO_DEFAULT) -> Any:
        if name in self.vars:
            return self.vars[name]
        if default is NO_DEFAULT:
            raise CompilerError(f"var {name} is not set")
        return default

    def __getattr__(self, name: str) -> Callable[..., Any]:
        macro = self.macros[name]

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] = self.calls.get(name, 0) + 1
            try:
                return macro(*args, **kwargs)
            except MacroReturn as returned:
                return returned.value

        return call


def configuration() -> dict[str, Any]:
    """A registry of one format (the package's qlik_ct entry) and one table of it."""
    registry = Command({}, None, "probe").cdc_var_defaults()["cdc_source_systems"]
    return {
        "cdc_source_systems": {"qlik_ct": registry["qlik_ct"]},
        "cdc_tables": {"employees": {"source_system": "qlik_ct", "key_columns": ["id"]}},
    }


def test_the_var_defaults_are_built_once_a_command() -> None:
    graph: dict[str, Any] = {}
    command = Command({}, graph, "first")
    defaults = command.cdc_var_defaults()
    assert command.cdc_var_defaults() is defaults
    assert command.cdc_var("as_of") == "latest"
    assert command.cdc_var("cdc_tables") is defaults["cdc_tables"]

    later = Command({}, graph, "second").cdc_var_defaults()
    assert later is not defaults and later == defaults, "a new command builds its own"
    assert Command({}, None, "no graph").cdc_var_defaults() is not later, "nothing kept"


def test_the_memo_is_one_entry_of_the_graph_replaced_by_each_command() -> None:
    """A saved manifest's graph (partial parsing) brings an older command's memo: it is
    replaced, so the graph never grows from command to command."""
    graph: dict[str, Any] = {}
    for invocation in ("first", "second", "third"):
        command = Command(configuration(), graph, invocation)
        command.cdc_table_config("employees")
        assert sorted(graph) == ["cdc_invocation_memo"]
        memo = graph["cdc_invocation_memo"]
        assert memo["invocation_id"] == invocation
        assert sorted(memo) == [
            "config_validated",
            "invocation_id",
            "source_system_configs",
            "table_configs",
            "var_defaults",
        ]


def test_an_entry_is_checked_once_while_its_var_value_is_the_same_object() -> None:
    vars = configuration()
    command = Command(vars, {}, "build")
    table = vars["cdc_tables"]["employees"]
    assert command.cdc_table_config("employees") is table
    checks = command.calls["cdc_is_identifier"]
    assert checks > 0
    assert command.cdc_table_config("employees") is table
    assert command.cdc_source_system_config("qlik_ct") is vars["cdc_source_systems"]["qlik_ct"]
    assert command.calls["cdc_is_identifier"] == checks, "the entry was checked again"


@pytest.mark.parametrize("replaced", ["cdc_tables", "cdc_source_systems"])
def test_another_var_object_is_checked_again(replaced: str) -> None:
    """A unit test's `overrides: vars` gives the same names other objects: a mistake in
    them stops the command though the project's own entry was checked before."""
    vars = configuration()
    command = Command(vars, {}, "build")
    command.cdc_table_config("employees")
    command.cdc_source_system_config("qlik_ct")
    if replaced == "cdc_tables":
        vars["cdc_tables"] = {"employees": {"source_system": "qlik_ct", "key_columns": ["a b"]}}
        message = "key_columns name 'a b' is not an identifier"
    else:
        entry = {**vars["cdc_source_systems"]["qlik_ct"], "images_complete": "yes"}
        vars["cdc_source_systems"] = {"qlik_ct": entry}
        message = "images_complete must be true or false"
    with pytest.raises(CompilerError, match=message):
        command.cdc_table_config("employees")


def test_a_checked_entry_is_checked_again_in_the_next_command() -> None:
    """The memo keeps objects, not their checks' results for ever: the same (here changed in
    place) entry is checked again by a new command."""
    vars = configuration()
    graph: dict[str, Any] = {}
    Command(vars, graph, "first").cdc_table_config("employees")
    vars["cdc_tables"]["employees"]["key_columns"] = []
    with pytest.raises(CompilerError, match="key_columns must be a non-empty list"):
        Command(vars, graph, "second").cdc_table_config("employees")


@pytest.mark.parametrize("entry", [None, "qlik_ct", []])
def test_an_entry_never_checked_is_checked_whatever_it_is(entry: Any) -> None:
    """The memo holds nothing for an entry not checked yet, not even a value equal to it."""
    vars = configuration()
    vars["cdc_source_systems"] = {"qlik_ct": entry}
    with pytest.raises(CompilerError, match="must be a mapping"):
        Command(vars, {}, "build").cdc_source_system_config("qlik_ct")
