"""The work of one Ray task: run the `reversi` binary on one shard, on whatever node Ray
picked, and hand back the files it wrote.

Nothing needs to be installed on the nodes but Ray: the driver puts the binary and the
input files into Ray's object store once, and each node keeps a copy in a cache folder
named by their SHA-256 (REVERSI_CLUSTER_CACHE, or reversi-cluster/ in the node's temporary
folder), so a node fetches each file once however many tasks it runs. The binary must run
on the nodes: the project builds it for any x86-64 Linux.
"""

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import ray

# What a task's arguments may name: {out} (the task's output folder), {k}, {n} (its shard)
# and {file:KEY} (an input file or folder shipped by the driver).


def cache_root():
    return os.environ.get("REVERSI_CLUSTER_CACHE") or os.path.join(
        tempfile.gettempdir(), "reversi-cluster"
    )


def _materialize(sha, name, ref_box, executable=False):
    """The node-local path of a shipped file or folder, fetched from the object store the
    first time this node needs it. `ref_box` is a one-item list so Ray hands the task the
    reference, not the (large) value."""
    folder = os.path.join(cache_root(), sha)
    path = os.path.join(folder, name)
    if os.path.exists(path):
        return path
    value = ray.get(ref_box[0])
    os.makedirs(folder, exist_ok=True)
    staging = tempfile.mkdtemp(dir=folder, prefix=".part-")
    staged = os.path.join(staging, name)
    if isinstance(value, dict):
        os.makedirs(staged)
        for file_name, data in value.items():
            with open(os.path.join(staged, file_name), "wb") as f:
                f.write(data)
    else:
        with open(staged, "wb") as f:
            f.write(value)
        if executable:
            os.chmod(staged, 0o755)
    try:
        os.rename(staged, path)
    except OSError:
        # Another task on this node got there first with the same content.
        pass
    shutil.rmtree(staging, ignore_errors=True)
    return path


def _die_with_parent():
    """Run in the child before exec: the binary is killed when the Ray worker running it
    dies, so a killed task leaves no process behind to compete with its retry."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)


class ShardFailed(RuntimeError):
    """The binary exited with an error on a shard."""


@ray.remote(num_cpus=1, max_retries=0)
def run_shard(spec):
    """Runs `reversi ARGS --shard K/N` with the arguments' placeholders filled in; returns
    the files it wrote (name → bytes), the seconds it took and the node's address."""
    binary = _materialize(spec["binary_sha"], "reversi", spec["binary"], executable=True)
    files = {
        key: _materialize(sha, name, box) for key, (sha, name, box) in spec["files"].items()
    }
    k, n = spec["shard"]
    work = tempfile.mkdtemp(prefix="reversi-shard-")
    try:
        out = os.path.join(work, "out")
        os.makedirs(out)

        def fill(arg):
            arg = arg.replace("{out}", out).replace("{k}", str(k)).replace("{n}", str(n))
            for key, path in files.items():
                arg = arg.replace("{file:" + key + "}", path)
            return arg

        args = [binary] + [fill(a) for a in spec["args"]] + ["--shard", f"{k}/{n}"]
        started = time.monotonic()
        done = subprocess.run(
            args,
            cwd=work,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=_die_with_parent,
            check=False,
        )
        seconds = time.monotonic() - started
        if done.returncode != 0:
            lines = [l for l in done.stderr.decode("utf-8", "replace").splitlines() if l.strip()]
            raise ShardFailed(
                f"shard {k}/{n}: reversi exited with {done.returncode}: " + " | ".join(lines[-3:])
            )
        written = {}
        for name in sorted(os.listdir(out)):
            path = os.path.join(out, name)
            if os.path.isfile(path) and not name.endswith(".part"):
                with open(path, "rb") as f:
                    written[name] = f.read()
        return written, seconds, ray.util.get_node_ip_address()
    finally:
        shutil.rmtree(work, ignore_errors=True)
