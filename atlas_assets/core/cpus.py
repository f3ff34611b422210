"""How many CPUs this process may run on."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """CPUs in this process's affinity mask (taskset, cgroup cpusets, container limits set
    that way), not os.cpu_count(), which counts the whole machine; at least 1."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1
