"""Java options that start a `cdc-dbt` subprocess's Spark without Java code generation.

The in-process test session turns code generation off (conftest.py): on the tests' tiny
data, compiling each query stage costs more than running it interpreted (BENCHMARKS.md
section 11; the kill test ran 9 % faster without it). A subprocess scenario whose subject is
not the query plans (killed runs, a shared metastore, the local build the standalone
cluster's is compared with) passes these as CDC_DRIVER_JAVA_OPTIONS:
Spark reads `spark.*` Java system properties into its settings when the JVM starts, and the
profile sets neither, so dbt's per-statement settings leave them. The profile's own default
options (PROFILE_JAVA_OPTIONS, read from profiles/profiles.yml: CDC_DRIVER_JAVA_OPTIONS
replaces them) are kept. The scenarios about how `cdc-dbt` runs for a user (entry point, SQL
endpoint, the cluster build, benchmarks) keep Spark's defaults; what code generation makes
of every model is `test_plans_sample.py`'s.
"""

import re
from pathlib import Path

PROFILES = Path(__file__).resolve().parents[2] / "profiles" / "profiles.yml"


def profile_java_options() -> str:
    """The default of CDC_DRIVER_JAVA_OPTIONS in the profile (one value for every target)."""
    defaults = set(
        re.findall(r"env_var\('CDC_DRIVER_JAVA_OPTIONS', '([^']*)'\)", PROFILES.read_text())
    )
    assert len(defaults) == 1, f"CDC_DRIVER_JAVA_OPTIONS defaults in {PROFILES}: {defaults}"
    return defaults.pop()


PROFILE_JAVA_OPTIONS = profile_java_options()
NO_CODEGEN_JAVA_OPTIONS = " ".join(
    (
        PROFILE_JAVA_OPTIONS,
        "-Dspark.sql.codegen.wholeStage=false",
        "-Dspark.sql.codegen.factoryMode=NO_CODEGEN",
    )
)
