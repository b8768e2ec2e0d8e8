"""Peak resident memory of one `tendril` command in a fresh process (for the memory-scaling scripts)."""
import os
import resource
import subprocess
import sys


def peak_rss_kib(command, what):
    """Peak RSS [KiB] of `command` (a list) run in a fresh process: a forked helper runs it, so
    getrusage(RUSAGE_CHILDREN) counts that run alone. Exits with a message naming `what` if it fails."""
    return peak_rss_and_output(command, what)[0]


def peak_rss_and_output(command, what):
    """peak_rss_kib(command, what) and what the command wrote to stdout (text)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        done = subprocess.run(command, stdout=subprocess.PIPE)
        if done.returncode == 0:
            usage = str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss).encode()
            os.write(write, usage + b"\n" + done.stdout)
        os._exit(done.returncode)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        text = f.read().decode()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        sys.exit(f"{what} failed")
    usage, output = text.split("\n", 1)
    return int(usage), output


def print_per_node(sizes, rss_kib, label="nodes"):
    """Peak RSS per size and the memory above the smallest run per added node: linear growth shows as
    a constant last column."""
    print(f"{label:>8} {'peak RSS [MiB]':>15} {'extra KiB per node':>19}")
    for n, r in zip(sizes, rss_kib):
        extra = (r - rss_kib[0]) / (n - sizes[0]) if n != sizes[0] else float("nan")
        print(f"{n:>8} {r / 1024:>15.1f} {extra:>19.2f}")
