"""What `bin/lint --sql` gives sqlfluff (python_udfs/lint_files.py), and the premise that makes one
generated file per scaffold template enough: sqlfluff reports no rule violation inside what a
macro writes, only in a file's literal text. No Spark; sqlfluff's Jinja templater."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
import yaml
from sqlfluff.core import FluffConfig, Linter

from python_udfs.lint_files import main, sql_files_to_lint, write_lint_project
from python_udfs.scaffold import HEADER_TEXT, template_of

PROJECT_DIR = Path(__file__).resolve().parent.parent.parent
# a statement breaking several of the project's rules: capitals, trailing spaces, a leading comma
BAD_SQL = "SELECT a   \n    , 1 AS B\nFROM t\n"


@pytest.fixture(scope="module")
def lint_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_lint_project(PROJECT_DIR, tmp_path_factory.mktemp("lint") / "project")


def test_the_lint_project_holds_the_package_and_the_sample_project(lint_project: Path) -> None:
    """Every SQL file of the package's models and tests, and of the sample project's models,
    at the path it has in its own project, and the sample tables configured."""

    def sql_files(root: Path, folders: tuple[str, ...]) -> set[str]:
        return {
            path.relative_to(root).as_posix()
            for folder in folders
            for path in (root / folder).rglob("*.sql")
            if "python" not in path.relative_to(root).parts
        }

    package = sql_files(PROJECT_DIR, ("models", "tests"))
    samples = sql_files(PROJECT_DIR / "samples", ("models",))
    assert package and samples and not package & samples
    assert sql_files(lint_project, ("models", "tests")) == package | samples
    for name in package:
        assert (lint_project / name).read_bytes() == (PROJECT_DIR / name).read_bytes()
    variables = yaml.safe_load((lint_project / "dbt_project.yml").read_text())["vars"]
    assert "employees" in variables["cdc_tables"]
    assert variables["cdc_source_systems"]  # the package's settings


def test_every_hand_written_file_and_one_file_per_template_of_the_repository(
    lint_project: Path,
) -> None:
    chosen = set(sql_files_to_lint(lint_project))
    by_template: defaultdict[str, list[str]] = defaultdict(list)
    for folder in ("models", "tests"):
        for path in (lint_project / folder).rglob("*.sql"):
            relative = path.relative_to(lint_project).as_posix()
            # .sqlfluffignore: generic tests (macros that need their arguments) and the toy
            # source format of test_toy_format.py (models of a project copy, not of this one)
            if relative.startswith(("tests/generic/", "tests/python/data/")):
                assert relative not in chosen, relative
                continue
            template = template_of(path)
            if template is None:
                assert relative in chosen, f"hand-written {relative} left out"
            else:
                by_template[template].append(relative)
    assert len(by_template) >= 10, "the scaffold's templates were not found"
    for template, files in by_template.items():
        linted = sorted(chosen.intersection(files))
        assert linted == [min(files)], f"{template}: {linted} of {len(files)} files"
    assert any(len(files) > 1 for files in by_template.values()), "nothing left out"


def test_a_project_folder_of_generated_and_hand_written_files(tmp_path: Path) -> None:
    def write(relative: str, text: str) -> None:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")

    header = "{# " + HEADER_TEXT + " _all/dim_live.sql.j2 #}\n"
    write("models/marts/b/dim_b_live.sql", header + "{{ live_state('b') }}\n")
    write("models/marts/a/dim_a_live.sql", header + "{{ live_state('a') }}\n")
    write("models/staging/stg_x.sql", "select 1 as x\n")
    write("tests/singular.sql", "select 1 as y\n")
    write("tests/generic/test_g.sql", "{% test g(model) %}select 1{% endtest %}\n")
    write("models/notes.md", "not SQL\n")
    write(".sqlfluffignore", "target/\ntests/generic/\n")
    assert sql_files_to_lint(tmp_path) == [
        "models/marts/a/dim_a_live.sql",
        "models/staging/stg_x.sql",
        "tests/singular.sql",
    ]


def test_the_command_prints_one_path_a_line_and_fails_on_an_empty_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lint-project", str(tmp_path / "lint"), str(PROJECT_DIR)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == sql_files_to_lint(tmp_path / "lint")
    assert main([str(tmp_path / "lint")]) == 0
    assert capsys.readouterr().out.splitlines() == printed
    assert main([str(tmp_path)]) == 1
    assert "no SQL files" in capsys.readouterr().err


def linter(tmp_path: Path) -> Linter:
    """The project's .sqlfluff with the Jinja templater and no macro folder (the dbt
    templater needs Spark; what it does with templated areas is sqlfluff's, not the
    templater's)."""
    config_lines = (PROJECT_DIR / ".sqlfluff").read_text(encoding="utf-8").splitlines()
    (tmp_path / ".sqlfluff").write_text(
        "\n".join(line for line in config_lines if not line.startswith("load_macros_from_path")),
        encoding="utf-8",
    )
    return Linter(config=FluffConfig.from_path(str(tmp_path), overrides={"templater": "jinja"}))


def test_sqlfluff_reports_violations_in_literal_text_only(tmp_path: Path) -> None:
    lint = linter(tmp_path)
    literal = lint.lint_string(BAD_SQL, fname=str(tmp_path / "literal.sql"))
    assert {"CP01", "LT01", "LT04"} <= {v.rule_code() for v in literal.violations}
    macro_output = "{% macro bad() %}" + BAD_SQL + "{% endmacro %}\n{{ bad() }}\n"
    templated = lint.lint_string(macro_output, fname=str(tmp_path / "templated.sql"))
    assert templated.violations == [], [v.desc() for v in templated.violations]
