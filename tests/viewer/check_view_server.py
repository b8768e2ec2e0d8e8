"""`tendril view` serves only the viewer and the given run's files, on loopback, and reports
damaged runs (a real HTTP client against the real server process).

Checks: the page, /api/runs and every listed run file are served byte for byte (and one byte range
of a file, 206; past the end, 416); path traversal
("..", percent-encoded "%2e%2e" and "%2f", absolute paths, a file in the run directory that
run.json does not list) gets 404/400 and never file content; a foreign Host header gets 403
(DNS rebinding); only GET/HEAD; the server listens on 127.0.0.1 only; a truncated .npy and an
unparsable run.json are reported on stderr and in /api/runs, and the exit code is then 2.
Usage: check_view_server.py TENDRIL RUN_DIR WORK_DIR
"""
import http.client
import json
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


class Viewer:
    def __init__(self, tendril, *runs):
        self.process = subprocess.Popen([tendril, "view", *map(str, runs), "--port", "0"], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert "http://127.0.0.1:" in line, line
        self.port = int(line.split("http://127.0.0.1:")[1].split("/")[0])

    def get(self, path, method="GET", host=None, range_=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        c.putrequest(method, path, skip_host=host is not None, skip_accept_encoding=True)
        if host is not None:
            c.putheader("Host", host)
        if range_ is not None:
            c.putheader("Range", range_)
        c.endheaders()
        r = c.getresponse()
        body = r.read()
        c.close()
        return r.status, body

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        _, err = self.process.communicate(timeout=30)
        return self.process.returncode, err


def main(tendril, run_dir, work):
    run_dir, work = Path(run_dir), Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        good = work / "good"
        shutil.copytree(run_dir, good)
        (good / "secret.txt").write_text("not listed in run.json\n")
        check_serving(tendril, good)
        check_damaged(tendril, run_dir, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_serving(tendril, run):
    v = Viewer(tendril, run)
    try:
        status, body = v.get("/")
        assert status == 200 and b"viewer.js" in body
        status, body = v.get("/api/runs")
        assert status == 200 and json.loads(body) == {"runs": [{"name": "good", "error": None}]}, body
        meta = json.loads((run / "run.json").read_text())
        for name in ["run.json"] + [a["file"] for a in meta["arrays"]]:
            status, body = v.get(f"/run/0/{name}")
            assert status == 200 and body == (run / name).read_bytes(), name
        status, body = v.get("/run/0/positions.npy", range_="bytes=3-12")
        assert status == 206 and body == (run / "positions.npy").read_bytes()[3:13], status
        assert v.get("/run/0/positions.npy", range_="bytes=999999999-")[0] == 416
        assert v.get("/../../etc/passwd", range_="bytes=0-9")[0] == 404
        status, body = v.get("/run/0/run.json", method="HEAD")
        assert status == 200 and body == b""

        secret = Path("/etc/passwd").read_bytes()[:20]
        attacks = ["/../../../../etc/passwd", "/run/0/../../../../etc/passwd", "/run/0/..%2f..%2f..%2fetc%2fpasswd",
                   "/run/0/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/etc/passwd",
                   "//etc/passwd", "/run/0//etc/passwd", "/run/0/%2fetc%2fpasswd", "/run/0/secret.txt",
                   "/run/0/", "/run/0/.", "/run/0/..", "/run/1/run.json", "/run/-1/run.json", "/run//run.json",
                   f"/run/0/{Path(run).resolve()}/run.json", "/%00", "/run/0/run.json%00.png", "/%zz",
                   "/viewer.js/../../../../etc/passwd", "http://127.0.0.1/etc/passwd", "/node_modules/three/package.json"]
        for path in attacks:
            status, body = v.get(path)
            assert status in (400, 404), (path, status)
            assert secret not in body and b"not listed" not in body, path
        assert v.get("/run/0/run.json", host="evil.example")[0] == 403
        assert v.get("/run/0/run.json", host=f"localhost:{v.port}")[0] == 200
        assert v.get("/run/0/run.json", method="POST")[0] == 405
        # listening on loopback only: another address of this machine is refused
        others = [a for a in subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
                  if "." in a and not a.startswith("127.")]
        for address in others:
            with socket.socket() as s:
                s.settimeout(5)
                assert s.connect_ex((address, v.port)) != 0, address
        print(f"served the run; {len(attacks)} traversal attempts refused; checked non-loopback {others}")
    finally:
        code, err = v.stop()
    assert code == 0, (code, err)


def check_damaged(tendril, run_dir, work):
    truncated, bad_json = work / "truncated", work / "bad_json"
    shutil.copytree(run_dir, truncated)
    data = (truncated / "positions.npy").read_bytes()
    (truncated / "positions.npy").write_bytes(data[: len(data) // 2])
    shutil.copytree(run_dir, bad_json)
    (bad_json / "run.json").write_text((bad_json / "run.json").read_text()[:200])
    v = Viewer(tendril, truncated, bad_json)
    try:
        runs = json.loads(v.get("/api/runs")[1])["runs"]
        assert "positions.npy" in runs[0]["error"] and "truncated" in runs[0]["error"], runs[0]
        assert "run.json" in runs[1]["error"] and "JSON" in runs[1]["error"], runs[1]
        assert v.get("/run/0/positions.npy")[0] == 404  # a damaged run serves only its run.json
    finally:
        code, err = v.stop()
    assert code == 2, code
    assert f"cannot show run {truncated}: {truncated}/positions.npy" in err and "truncated" in err, err
    assert f"cannot show run {bad_json}: {bad_json}/run.json" in err, err
    print("damaged runs reported:\n" + err)


if __name__ == "__main__":
    main(*sys.argv[1:])
