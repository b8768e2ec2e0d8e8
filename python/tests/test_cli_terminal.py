"""`tendril run` on a terminal: the progress bar, redrawn in place, leaves one clean line on an
80-column screen (a pseudo-terminal, its output replayed through a small VT100 screen model)."""
import fcntl
import os
import pty
import re
import struct
import subprocess
import termios

COLUMNS, ROWS = 80, 24


def screen_lines(data, columns=COLUMNS):
    """The lines a VT100-style terminal shows for `data`: printable characters with automatic wrap at
    the right margin (deferred, as xterm does), CR, LF, BS and ESC [ K (erase to the end of the line);
    other escape sequences are ignored."""
    lines, row, col, pending_wrap = [[]], 0, 0, False
    text = data.decode("utf-8", "replace")
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\x1b":
            m = re.match(r"\x1b\[([0-9;?]*)([A-Za-z])", text[i:])
            if m and m.group(2) == "K" and m.group(1) in ("", "0"):
                del lines[row][col:]
            i += m.end() if m else 1
            continue
        if c == "\r":
            col, pending_wrap = 0, False
        elif c == "\n":
            row, pending_wrap = row + 1, False
        elif c == "\b":
            col = max(0, col - 1)
        elif c.isprintable():
            if pending_wrap:
                row, col, pending_wrap = row + 1, 0, False
            while len(lines) <= row:
                lines.append([])
            line = lines[row]
            line.extend(" " * (col + 1 - len(line)))
            line[col] = c
            if col == columns - 1:
                pending_wrap = True
            else:
                col += 1
        while len(lines) <= row:
            lines.append([])
        i += 1
    return ["".join(line).rstrip() for line in lines]


def run_on_terminal(argv):
    main, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    proc = subprocess.Popen(argv, stdin=secondary, stdout=secondary, stderr=secondary)
    os.close(secondary)
    data = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not chunk:
            break
        data += chunk
    os.close(main)
    return proc.wait(timeout=120), data


def test_progress_bar_leaves_one_clean_line(repo, cli, tmp_dir):
    scene = repo / "examples/cantilever_gravity.yaml"
    code, data = run_on_terminal([cli, "run", str(scene), "--set", "duration=0.3", "--out", str(tmp_dir / "run")])
    assert code == 0, data
    lines = [line for line in screen_lines(data) if line]
    # the screen: the bar at 100 % on one line and nothing else of it (no pieces of longer, earlier lines),
    # then the run's summary, printed once (wrapped by the terminal when longer than a line)
    summary = f"{scene}: 300 steps, 31 frames written to {tmp_dir / 'run'}"
    assert "".join(lines[1:]).replace(" ", "") == summary.replace(" ", ""), lines
    assert re.fullmatch(r"\[#{10,40}\] 100%  t = 0\.3 / 0\.3 s  \d+ Newton iterations  ETA 0s", lines[0]), lines
    assert len(lines[0]) < COLUMNS
