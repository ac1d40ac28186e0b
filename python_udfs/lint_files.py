"""The SQL files `bin/lint --sql` gives sqlfluff: every hand-written model and singular test, and
one file per scaffold template (BENCHMARKS.md section 32).

    python -m python_udfs.lint_files          # one path a line, relative to the project

sqlfluff reports rule violations only in a file's literal text: through the dbt templater,
whatever a macro writes is templated, and its violations are dropped (`ignore_templated_areas`,
sqlfluff's default; docs/testing.md, "SQL lint coverage"). A file `cdc-dbt scaffold` generates
is its header comment and one macro call: its literal text is its template's, the same for every
table (`cdc-dbt scaffold --check` keeps each file equal to its template's output). Linting one
table's file per template finds what linting every table's would; the others are left out
(88 of 151 files on the shipped samples, about half of the lint's CPU). What they would still
add, sqlfluff's own grammar parsing each table's macro output, Spark's parse of every sample
table's models in the test suite's build does in earnest.
"""

from __future__ import annotations

import sys
from pathlib import Path

from python_udfs.scaffold import template_of

# the folders sqlfluff lints, less the folders .sqlfluffignore names (tests/generic: macros that
# need their arguments)
LINTED_FOLDERS = ("models", "tests")


def ignored_folders(project_dir: Path) -> list[str]:
    """The folder entries of `.sqlfluffignore` (`name/`), relative to the project."""
    ignore_file = project_dir / ".sqlfluffignore"
    if not ignore_file.exists():
        return []
    return [
        line.strip().strip("/") + "/"
        for line in ignore_file.read_text(encoding="utf-8").splitlines()
        if line.strip().endswith("/") and not line.strip().startswith("#")
    ]


def sql_files_to_lint(project_dir: Path) -> list[str]:
    """Every `.sql` file under `models/` and `tests/` outside the folders `.sqlfluffignore`
    names, less the generated files of a template whose first file (in path order) is already
    in; paths relative to the project, sorted."""
    ignored = ignored_folders(project_dir)
    chosen: list[str] = []
    templates_seen: set[str] = set()
    for folder in LINTED_FOLDERS:
        for path in sorted((project_dir / folder).rglob("*.sql")):
            relative = path.relative_to(project_dir).as_posix()
            if any(relative.startswith(prefix) for prefix in ignored):
                continue
            template = template_of(path)
            if template is not None:
                if template in templates_seen:
                    continue
                templates_seen.add(template)
            chosen.append(relative)
    return sorted(chosen)


def main(argv: list[str] | None = None) -> int:
    """Print the files, one a line; exit 1 when there are none (a wrong project folder)."""
    project_dir = Path(argv[0] if argv else ".").resolve()
    files = sql_files_to_lint(project_dir)
    if not files:
        print(f"no SQL files under {project_dir}/models or /tests", file=sys.stderr)
        return 1
    print("\n".join(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
