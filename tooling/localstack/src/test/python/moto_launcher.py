"""Starts Redrive's moto launcher (moto_serialized.py) as MotoServer does, for the benchmarks in this folder."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCHER = os.path.join(
    HERE, "..", "..", "..", "..", "..", "platform", "redrive-testing", "src", "main", "resources",
    "dev", "redrive", "testing", "localaws", "internal", "moto_serialized.py")


def start(launcher=LAUNCHER, stderr=None, **environment):
    """Starts `python3 -u launcher` with these variables added to the environment and waits for its ready line.

    Returns (process, port, reported): reported maps each REDRIVE_MOTO_<NAME> line it printed before it was ready to
    the rest of that line (reported["TRANSACTIONS"] == "rollback=undo-log moto=5.2.1"). Closing the process's stdin
    stops it. stderr: where its stderr goes (a file; this process's by default)."""
    process = spawn(launcher, stderr, **environment)
    port, reported = ready(process, launcher, environment)
    return process, port, reported


def spawn(launcher=LAUNCHER, stderr=None, **environment):
    """Starts the launcher as start() does without waiting for it: several can import moto (seconds each) at once."""
    env = dict(os.environ, **environment)
    return subprocess.Popen(
        [sys.executable, "-u", launcher], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env)


def ready(process, launcher=LAUNCHER, environment=None):
    """Waits for the ready line of a spawned launcher; returns (port, reported) as start() does."""
    reported = {}
    for line in process.stdout:
        line = line.decode().strip()
        if line.startswith("REDRIVE_MOTO_READY port="):
            return int(line.split("=")[1]), reported
        if line.startswith("REDRIVE_MOTO_") and " " in line:
            name, rest = line[len("REDRIVE_MOTO_"):].split(" ", 1)
            reported[name] = rest
    raise SystemExit("the launcher %s (%s) exited before it was ready" % (launcher, environment or "as it runs"))
