"""Run a command and measure it: wall time, exit code, peak memory of its whole process tree.

A dbt or PySpark run is a tree of processes: the Python driver, the JVM it starts (the bulk of
the memory), and Python workers the JVM forks for UDFs. Every `interval` seconds the tree is
walked from the child's pid (`/proc/<pid>/task/*/children`, or the parent pids in
`/proc/*/stat` where the kernel lacks that file) and each process's `VmRSS` is read from
`/proc/<pid>/status`. Reported are the peak of the tree's summed RSS and the peak RSS of the
largest single process (the JVM, for Spark). Processes that live shorter than one interval can
be missed, so both figures are lower bounds. The child's stdout and stderr go to a log file.

A process that was forked but has not exec'd yet and shares its parent's address space (the
JVM starts every subprocess, e.g. Hadoop's `chmod` without the native library, through
posix_spawn, i.e. clone(CLONE_VM | CLONE_VFORK)) reports its parent's RSS as its own; it is
not counted, or a sample would see the JVM twice. Shared address spaces are recognised with
kcmp(2) (KCMP_VM) where available, else by identical VmRSS and VmSize. Ordinary forks (Python
workers forked by PySpark's daemon) are counted with their full RSS, as RSS always counts
pages shared copy-on-write in each process.

Linux only (reads /proc); standard library only.

    python -m benchmarks.process_memory --log run.log [--interval 0.2] -- COMMAND [ARG ...]
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import json
import os
import platform
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple

PROC = Path("/proc")
KIB_PER_MIB = 1024
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PF_FORKNOEXEC = 0x40  # task flag: forked but has not exec'd (include/linux/sched.h)
KCMP_VM = 1
# kcmp(2) syscall numbers (x86_64, and the asm-generic table); elsewhere the RSS heuristic.
_KCMP_SYSCALLS = {"x86_64": 312, "amd64": 312, "aarch64": 272, "arm64": 272, "riscv64": 272}


@dataclass(frozen=True)
class Measurement:
    """What one measured command did.

    `peak_total_rss_mib` is the highest sum of RSS over the process tree at one sample;
    `peak_largest_rss_mib` the highest RSS of any one process, `peak_largest_name` its name.
    `cpu_seconds` is the user+system time of the tree's processes as last sampled (a lower
    bound: the final interval and processes shorter than an interval are missed).
    """

    command: list[str]
    exit_code: int
    wall_seconds: float
    peak_total_rss_mib: float
    peak_largest_rss_mib: float
    peak_largest_name: str
    peak_processes: int
    cpu_seconds: float
    samples: int
    log_path: str
    extra_env: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """The measurement as JSON-ready values, floats rounded."""
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, float):
                data[key] = round(value, 3)
        return data


class StatFields(NamedTuple):
    """The fields of `/proc/<pid>/stat` used here."""

    name: str
    ppid: int
    flags: int
    start_ticks: int
    cpu_ticks: int


@dataclass(frozen=True)
class ProcessSample:
    """One process at one sample: RSS and address-space size in KiB, and its stat fields."""

    pid: int
    rss_kib: int
    vm_size_kib: int
    stat: StatFields

    @property
    def name(self) -> str:
        return self.stat.name

    @property
    def forked_not_execed(self) -> bool:
        return bool(self.stat.flags & PF_FORKNOEXEC)


def _children_files_supported() -> bool:
    """Whether this kernel exposes `/proc/<pid>/task/<tid>/children` (CONFIG_PROC_CHILDREN)."""
    return (PROC / "self" / "task" / str(os.getpid()) / "children").exists()


def _read_children(pid: int) -> list[int]:
    """The direct children of `pid` from its threads' `children` files (empty if it is gone)."""
    children: list[int] = []
    try:
        tasks = list((PROC / str(pid) / "task").iterdir())
    except OSError:
        return children
    for task in tasks:
        try:
            text = (task / "children").read_text()
        except OSError:
            continue
        children.extend(int(item) for item in text.split())
    return children


def parse_stat(text: str) -> StatFields:
    """Name, parent pid, flags, start time and user+system ticks from a `/proc/<pid>/stat`.

    The name is in parentheses and may hold spaces or parentheses itself, so the fields are
    split after its last closing parenthesis.
    """
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    # fields[0] is field 3 (state): ppid is field 4, flags 9, utime 14, stime 15, starttime 22.
    return StatFields(
        name=name,
        ppid=int(fields[1]),
        flags=int(fields[6]),
        start_ticks=int(fields[19]),
        cpu_ticks=int(fields[11]) + int(fields[12]),
    )


def _parent_map() -> dict[int, list[int]]:
    """Children per parent pid for every process, from `/proc/*/stat` (the slow fallback)."""
    children: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = parse_stat((entry / "stat").read_text()).ppid
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    return children


def descendants(root: int, *, use_children_files: bool | None = None) -> list[int]:
    """`root` and every live descendant of it, parents before children."""
    if use_children_files is None:
        use_children_files = _children_files_supported()
    parent_map = None if use_children_files else _parent_map()
    found, queue, seen = [], [root], {root}
    while queue:
        pid = queue.pop(0)
        found.append(pid)
        kids = _read_children(pid) if parent_map is None else parent_map.get(pid, [])
        for kid in kids:
            if kid not in seen:
                seen.add(kid)
                queue.append(kid)
    return found


def sample_process(pid: int) -> ProcessSample | None:
    """RSS, size and stat fields of one process; None if it has gone (a zombie has RSS 0)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
        status = (PROC / str(pid) / "status").read_text()
        fields = parse_stat(stat)
    except (OSError, ValueError, IndexError):
        return None
    values = {"VmRSS:": 0, "VmSize:": 0}
    for line in status.splitlines():
        key = line.split(maxsplit=1)[0] if line else ""
        if key in values:
            values[key] = int(line.split()[1])
    return ProcessSample(
        pid=pid, rss_kib=values["VmRSS:"], vm_size_kib=values["VmSize:"], stat=fields
    )


def _kcmp_same_vm(first: int, second: int) -> bool | None:
    """Whether two processes share one address space, by kcmp(2); None if it cannot tell."""
    number = _KCMP_SYSCALLS.get(platform.machine().lower())
    libc = _libc()
    if number is None or libc is None:
        return None
    answer = libc.syscall(number, first, second, KCMP_VM, 0, 0)
    return None if answer < 0 else answer == 0


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library of this process, for syscall(2); None if it cannot be loaded."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall  # noqa: B018  (fails here, not later, if there is no syscall())
    except (OSError, AttributeError):
        return None
    return libc


def shares_parent_memory(process: ProcessSample, parent: ProcessSample) -> bool:
    """Whether `process` is a not-yet-exec'd clone of `parent` sharing its address space."""
    if not process.forked_not_execed:
        return False
    same = _kcmp_same_vm(process.pid, parent.pid)
    if same is not None:
        return same
    return (process.rss_kib, process.vm_size_kib) == (parent.rss_kib, parent.vm_size_kib)


def sample_tree(root: int, *, use_children_files: bool | None = None) -> list[ProcessSample]:
    """A sample of `root` and each live descendant with an address space of its own.

    Processes sharing their parent's address space (see the module docstring) are left out.
    """
    tree: dict[int, ProcessSample] = {}
    for pid in descendants(root, use_children_files=use_children_files):
        sample = sample_process(pid)
        if sample is None:
            continue
        parent = tree.get(sample.stat.ppid)
        if parent is not None and shares_parent_memory(sample, parent):
            continue
        tree[pid] = sample
    return list(tree.values())


def measure(
    command: Sequence[str],
    *,
    log_path: str | os.PathLike[str],
    extra_env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    interval: float = 0.2,
) -> Measurement:
    """Run `command` (environment inherited, `extra_env` added), sampling its tree's memory.

    The child gets its own session (process group) so that an interrupt of the measuring
    process ends the child's whole tree, and nothing else. Its stdout and stderr are written
    to `log_path` (replaced), headed by the command line.
    """
    env = dict(os.environ)
    env.update(extra_env or {})
    log = Path(log_path)
    log.parent.mkdir(parents=True, exist_ok=True)
    use_children_files = _children_files_supported()
    peak_total = peak_largest = 0
    peak_name = ""
    peak_processes = samples = 0
    cpu_by_process: dict[tuple[int, int], int] = {}
    with log.open("w") as out:
        out.write(f"$ {shlex.join(command)}\n")
        out.flush()
        started = time.perf_counter()
        child = subprocess.Popen(
            list(command),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
        try:
            while True:
                tree = sample_tree(child.pid, use_children_files=use_children_files)
                samples += 1
                total = sum(process.rss_kib for process in tree)
                peak_total = max(peak_total, total)
                peak_processes = max(peak_processes, len(tree))
                for process in tree:
                    cpu_by_process[(process.pid, process.stat.start_ticks)] = process.stat.cpu_ticks
                    if process.rss_kib > peak_largest:
                        peak_largest, peak_name = process.rss_kib, process.name
                try:
                    child.wait(timeout=interval)
                    break
                except subprocess.TimeoutExpired:
                    continue
        except BaseException:
            _end_group(child)
            raise
        wall = time.perf_counter() - started
    return Measurement(
        command=list(command),
        exit_code=child.returncode,
        wall_seconds=wall,
        peak_total_rss_mib=peak_total / KIB_PER_MIB,
        peak_largest_rss_mib=peak_largest / KIB_PER_MIB,
        peak_largest_name=peak_name,
        peak_processes=peak_processes,
        cpu_seconds=sum(cpu_by_process.values()) / CLOCK_TICKS,
        samples=samples,
        log_path=str(log),
        extra_env=dict(extra_env or {}),
    )


def _end_group(child: subprocess.Popen[bytes]) -> None:
    """Stop the child's process group (ours: it was started in its own session)."""
    if child.poll() is not None:
        return
    try:
        os.killpg(child.pid, signal.SIGTERM)
        child.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        child.wait()


def interrupt_on_sigterm() -> None:
    """Make SIGTERM raise KeyboardInterrupt, so that `measure` ends the child's tree too.

    The child runs in its own session, so a signal to this process alone would orphan it.
    """

    def handler(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure the command after `--`; print the measurement as JSON; exit with its code."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.process_memory", description=__doc__
    )
    parser.add_argument("--log", required=True, help="file for the command's stdout and stderr")
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between samples")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARG ...]")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    interrupt_on_sigterm()
    result = measure(command, log_path=args.log, interval=args.interval)
    print(json.dumps(result.to_json(), indent=2))
    return result.exit_code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
