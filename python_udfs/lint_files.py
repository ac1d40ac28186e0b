"""The SQL files `bin/lint --sql` gives sqlfluff: every hand-written model and singular test, and
one file per scaffold template (BENCHMARKS.md section 32).

    python -m python_udfs.lint_files [DIR]    # one path a line, relative to the project DIR
    python -m python_udfs.lint_files --lint-project DEST [REPO]
                                              # the lint project written to DEST, its files

The package's models are nodes of the sample project (samples/) only through its installed
package, where sqlfluff's dbt templater does not find them by path (it looks a file up under
the project's own folder), and the package alone (cdc_tables empty) enables no format's
models. So `bin/lint` lints one project that holds both, written afresh under .local/lint/
(`write_lint_project`): the package's dbt folders with the sample project's tables, seeds and
generated files in them, as one project, laid out as the package is; a finding's path names
the package's file, or for a generated file the sample project's (under samples/).

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

import shutil
import sys
from pathlib import Path

import yaml

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


# what the lint project copies of the package and of the sample project
PACKAGE_COPIED = ("macros", "models", "tests", "profiles")
PACKAGE_FILES_COPIED = (".sqlfluff", ".sqlfluffignore")
SAMPLES_COPIED = ("models", "seeds")


def write_lint_project(repo_root: Path, dest: Path) -> Path:
    """The package and its sample project as one dbt project in `dest` (emptied first): the
    package's dbt_project.yml with the samples' cdc_tables and seed settings, its folders, and
    the sample project's models (the generated per-table files) and seeds merged into them."""
    samples = repo_root / "samples"
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for folder in PACKAGE_COPIED:
        shutil.copytree(repo_root / folder, dest / folder, ignore=shutil.ignore_patterns("python"))
    for name in PACKAGE_FILES_COPIED:
        shutil.copy2(repo_root / name, dest / name)
    for folder in SAMPLES_COPIED:
        shutil.copytree(samples / folder, dest / folder, dirs_exist_ok=True)
    project = yaml.safe_load((repo_root / "dbt_project.yml").read_text(encoding="utf-8"))
    sample_project = yaml.safe_load((samples / "dbt_project.yml").read_text(encoding="utf-8"))
    project["vars"]["cdc_tables"] = sample_project["vars"]["cdc_tables"]
    project["seeds"] = {project["name"]: sample_project["seeds"][sample_project["name"]]}
    text = yaml.safe_dump(project, sort_keys=False, allow_unicode=True)
    (dest / "dbt_project.yml").write_text(text, encoding="utf-8")
    return dest


def main(argv: list[str] | None = None) -> int:
    """Print the files, one a line; exit 1 when there are none (a wrong project folder)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--lint-project"] and len(args) >= 2:
        repo_root = Path(args[2] if len(args) > 2 else ".").resolve()
        project_dir = write_lint_project(repo_root, Path(args[1]).resolve())
    else:
        project_dir = Path(args[0] if args else ".").resolve()
    files = sql_files_to_lint(project_dir)
    if not files:
        print(f"no SQL files under {project_dir}/models or /tests", file=sys.stderr)
        return 1
    print("\n".join(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
