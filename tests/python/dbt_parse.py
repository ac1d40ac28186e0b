"""`dbt parse` of a project in-process (no Spark session), its manifest read back: shared by
the modules that check the project's shape without building it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PROFILES_DIR = Path(__file__).resolve().parents[2] / "profiles"


def parse_project(
    project: Path,
    target: Path,
    variables: dict[str, Any] | None = None,
    warnings: list[str] | None = None,
) -> dict[str, Any]:
    """manifest.json of `dbt parse` of `project` (with `--vars variables`), written under
    `target`; fails the test when dbt fails. Every warning dbt gives while parsing (its event
    name and message, as `--quiet` would not print it) is appended to `warnings` if given."""
    from dbt.cli.main import dbtRunner
    from dbt_common.events.base_types import EventMsg

    def keep_warning(event: EventMsg) -> None:
        if warnings is not None and event.info.level == "warn":
            # the message is a field of dbt's EventInfo its Protocol type leaves out
            warnings.append(f"{event.info.name}: {getattr(event.info, 'msg', '')}")

    args = [
        "parse",
        "--project-dir",
        str(project),
        "--profiles-dir",
        str(PROFILES_DIR),
        "--target-path",
        str(target),
        "--log-path",
        str(target / "logs"),
        "--no-partial-parse",
        "--quiet",
    ]
    if variables is not None:
        args += ["--vars", json.dumps(variables)]
    result = dbtRunner(callbacks=[keep_warning]).invoke(args)
    assert result.success, f"dbt parse of {project} failed: {result.exception}"
    manifest: dict[str, Any] = json.loads((target / "manifest.json").read_text())
    return manifest
