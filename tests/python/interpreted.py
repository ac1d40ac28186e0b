"""Java options that start a `cdc-dbt` subprocess's Spark without Java code generation.

The in-process test session turns code generation off (conftest.py): on the tests' tiny
data, compiling each query stage costs more than running it interpreted (BENCHMARKS.md
section 11; the kill test ran 9 % faster without it). A subprocess scenario whose subject is
not the query plans (killed runs, a shared metastore, the local build the standalone
cluster's is compared with) passes these as CDC_DRIVER_JAVA_OPTIONS:
Spark reads `spark.*` Java system properties into its settings when the JVM starts, and the
profile sets neither, so dbt's per-statement settings leave them. The profile's default
option (`-XX:CompileThresholdScaling=4`, which CDC_DRIVER_JAVA_OPTIONS replaces) is kept.
The scenarios about how `cdc-dbt` runs for a user (entry point, SQL endpoint, the cluster
build, benchmarks) keep Spark's defaults; what code generation makes of every model is
`test_plans_sample.py`'s.
"""

NO_CODEGEN_JAVA_OPTIONS = " ".join(
    (
        "-XX:CompileThresholdScaling=4",
        "-Dspark.sql.codegen.wholeStage=false",
        "-Dspark.sql.codegen.factoryMode=NO_CODEGEN",
    )
)
