"""Peak resident memory of one `tendril` command in a fresh process (for the memory-scaling scripts)."""
import os
import resource
import subprocess
import sys


def peak_rss_kib(command, what):
    """Peak RSS [KiB] of `command` (a list) run in a fresh process: a forked helper runs it, so
    getrusage(RUSAGE_CHILDREN) counts that run alone. Exits with a message naming `what` if it fails."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        code = subprocess.run(command, stdout=subprocess.DEVNULL).returncode
        if code == 0:
            os.write(write, str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss).encode())
        os._exit(code)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    if status != 0:
        sys.exit(f"{what} failed")
    return int(os.read(read, 64).decode())


def print_per_node(sizes, rss_kib, label="nodes"):
    """Peak RSS per size and the memory above the smallest run per added node: linear growth shows as
    a constant last column."""
    print(f"{label:>8} {'peak RSS [MiB]':>15} {'extra KiB per node':>19}")
    for n, r in zip(sizes, rss_kib):
        extra = (r - rss_kib[0]) / (n - sizes[0]) if n != sizes[0] else float("nan")
        print(f"{n:>8} {r / 1024:>15.1f} {extra:>19.2f}")
