"""A Spark standalone cluster on loopback, from the Spark that pyspark ships.

One master and workers started with `spark-class org.apache.spark.deploy.master.Master` /
`...worker.Worker`, each waited for (bounded by `start_seconds`) and always stopped by
`stop()`. Used by tests/python/test_standalone_cluster.py and benchmarks.cluster.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

START_SECONDS = 120


def spark_home() -> Path:
    """The Spark distribution inside the installed pyspark package."""
    import pyspark

    return Path(pyspark.__file__).parent


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """A master and its workers: processes, logs (`<logs>/<name>.log`) and the workers' folder."""

    def __init__(
        self, master_url: str, work_dir: Path, logs: Path, start_seconds: float = START_SECONDS
    ) -> None:
        self.master_url, self.work_dir, self.logs = master_url, work_dir, logs
        self.start_seconds = start_seconds
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, *args: str) -> None:
        command = spark_home() / "bin" / "spark-class"
        assert command.is_file(), f"pyspark ships no spark-class at {command}"
        env = {**os.environ, "SPARK_HOME": str(spark_home()), "SPARK_LOCAL_IP": "127.0.0.1"}
        with (self.logs / f"{name}.log").open("wb") as out:
            self.processes.append(
                subprocess.Popen(
                    [str(command), *args], env=env, stdout=out, stderr=subprocess.STDOUT
                )
            )

    def wait_for(self, name: str, text: str) -> None:
        log = self.logs / f"{name}.log"
        deadline = time.monotonic() + self.start_seconds
        while text not in log.read_text(errors="replace"):
            for process in self.processes:
                assert process.poll() is None, f"{name} exited:\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"{name}: no {text!r}:\n{log.read_text()[-3000:]}"
            time.sleep(0.5)

    def start_master(self, port: int) -> None:
        self.start(
            "master",
            "org.apache.spark.deploy.master.Master",
            "--host", "127.0.0.1", "--port", str(port), "--webui-port", "0",
        )  # fmt: skip
        self.wait_for("master", "I have been elected leader")

    def start_worker(self, cores: int, memory: str, name: str = "worker") -> None:
        self.start(
            name,
            "org.apache.spark.deploy.worker.Worker",
            "--host", "127.0.0.1", "--webui-port", "0", "--cores", str(cores),
            "--memory", memory, "--work-dir", str(self.work_dir), self.master_url,
        )  # fmt: skip
        self.wait_for(name, "Successfully registered with master")

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def executor_logs(self) -> str:
        """Every executor's stderr of every application the workers ran."""
        return "".join(
            path.read_text(errors="replace")
            for application in sorted(self.work_dir.glob("app-*"))
            for path in sorted(application.glob("*/stderr"))
        )
