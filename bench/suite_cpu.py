"""Where a command's CPU goes, process by process: Chromium's renderers, its browser and GPU
processes, Playwright's driver, the test servers, pytest. For "the browser tier is bound by the
CPU: whose?" (#51), and to compare two commits' tiers run back to back.

    .venv/bin/python bench/suite_cpu.py -- .venv/bin/pytest -m browser -n 2 --dist load -q
    .venv/bin/python bench/suite_cpu.py --every 0.25 -- .venv/bin/pytest tests/browser/test_share.py

The command runs as a child; it and every process descended from it are looked at every
`--every` s (Linux's /proc), and each one's CPU (user + system) is the last value seen while it
lived, so a process that starts and ends between two looks is missed, and one that lives longer
is counted but for its last fraction of a look. Nothing else on the machine is counted.
Processes are sorted into kinds by their command line; what fits no kind is not counted. Prints
the kinds, most CPU first, their share, and the command's wall time and exit status (which it
exits with).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter

TICKS = os.sysconf("SC_CLK_TCK")


def kind(command: str, name: str) -> str | None:
    """What a process is, from its command line and name (None: not one of ours)."""
    if "chrom" in name or "/chromium" in command:
        for part in ("renderer", "gpu-process"):
            if f"--type={part}" in command:
                return f"Chromium {part}"
        if "--type=utility" in command:
            return "Chromium network" if "NetworkService" in command else "Chromium utility"
        return "Chromium other" if "--type=" in command else "Chromium browser"
    if name == "node" or "playwright" in command and "driver" in command:
        return "Playwright driver"
    if "manage.py" in command or "config.server" in command or "uvicorn" in command:
        return "test servers"
    if "pytest" in command or "execnet" in command or "sys.stdin" in command:
        return "pytest (and its workers)"
    if "python" in name:
        return "other Python"
    return None


def looked(seen: dict[int, tuple[str, float]], ours: set[int]) -> None:
    """The CPU so far of every process in `ours` or descended from one (added to `ours`), into
    `seen` (pid: kind, CPU-s); kinds found once per pid."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    stats[int(entry)] = stat.read().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                pass
    grew = True
    while grew:  # a child's child born since the last look
        grown = {pid for pid, fields in stats.items() if int(fields[1]) in ours} - ours
        ours |= grown
        grew = bool(grown)
    for pid in ours & stats.keys():
        fields = stats[pid]
        cpu = (int(fields[11]) + int(fields[12])) / TICKS
        if pid in seen:
            seen[pid] = (seen[pid][0], cpu)
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/comm") as f:
                name = f.read().strip()
        except OSError:  # gone meanwhile
            continue
        what = kind(command, name)
        if what is not None:
            seen[pid] = (what, cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=float, default=0.5, help="seconds between looks")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    seen: dict[int, tuple[str, float]] = {}
    start = time.monotonic()
    child = subprocess.Popen(command)
    ours = {child.pid}
    while child.poll() is None:
        looked(seen, ours)
        time.sleep(args.every)
    wall = time.monotonic() - start
    kinds: Counter[str] = Counter()
    for what, cpu in seen.values():
        kinds[what] += cpu
    total = sum(kinds.values())
    print(f"\nCPU by kind of process ({' '.join(command)[:80]}):")
    for what, cpu in kinds.most_common():
        print(f"  {what:26} {cpu:8.1f} CPU-s  {100 * cpu / total:5.1f} %")
    print(f"  {'all':26} {total:8.1f} CPU-s in {wall:.0f} s of wall time "
          f"on {os.cpu_count()} cores; exit {child.returncode}")
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
