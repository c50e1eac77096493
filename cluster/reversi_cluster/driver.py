"""Fans a sharded `reversi` command out as Ray tasks: one task per shard, failed tasks
submitted again, progress on standard error, and the shard files gathered on the driver.

Gathering: each task sends the files its shard wrote back through Ray's object store, and
the driver writes them into its own output folder. No shared file system is needed; the
limit is that every shard file passes through the driver's memory and the object store,
which suits the training commands (a shard file is 18 bytes a position: a million
positions is 18 MB) and not outputs of gigabytes.

Resuming: a shard is done when the driver has written its files and then a marker
`.done-K-of-N` beside them. Running the same command again skips the shards done, so a
failure (the driver's or the cluster's) costs only the shards that were running.
"""

import hashlib
import os
import sys
import time

import ray

from . import shardfile, tasks


def log(message):
    print(message, file=sys.stderr, flush=True)


def _sha256(chunks):
    h = hashlib.sha256()
    for c in chunks:
        h.update(c)
    return h.hexdigest()


class Shipped:
    """Files put into the object store once, for every task of the run."""

    def __init__(self):
        self._by_path = {}

    def ship(self, path):
        """(sha, name, [reference]) of a file, or of a folder's files (not its subfolders)."""
        path = os.path.abspath(path)
        if path in self._by_path:
            return self._by_path[path]
        name = os.path.basename(path.rstrip("/"))
        if os.path.isdir(path):
            value = {}
            for entry in sorted(os.listdir(path)):
                full = os.path.join(path, entry)
                if os.path.isfile(full):
                    with open(full, "rb") as f:
                        value[entry] = f.read()
            sha = _sha256(n.encode() + b"\0" + d for n, d in value.items())
        elif os.path.isfile(path):
            with open(path, "rb") as f:
                value = f.read()
            sha = _sha256([value])
        else:
            raise FileNotFoundError(f"{path}: no such file or folder to send to the workers")
        shipped = (sha, name, [ray.put(value)])
        self._by_path[path] = shipped
        return shipped


class StageFailed(RuntimeError):
    """A shard failed more often than the retries allow."""


class Driver:
    def __init__(self, binary, retries=3, heartbeat=15.0):
        self.shipped = Shipped()
        self.binary = self.shipped.ship(binary)
        self.retries = retries
        self.heartbeat = heartbeat
        # Registered by value: the workers need not have this package installed.
        ray.cloudpickle.register_pickle_by_value(tasks)

    def fan_out(self, label, args, count, out_dir, files=None):
        """Runs `reversi ARGS --shard K/N` for K in 0..count as Ray tasks and writes every
        file they make into `out_dir`. Returns the statistics of the run."""
        os.makedirs(out_dir, exist_ok=True)
        shipped_files = {key: self.shipped.ship(p) for key, p in (files or {}).items()}
        base = {
            "binary_sha": self.binary[0],
            "binary": self.binary[2],
            "files": shipped_files,
            "args": list(args),
        }
        todo = [k for k in range(count) if not self._done(out_dir, k, count)]
        if len(todo) < count:
            log(f"{label}: {count - len(todo)} of {count} shards done before, skipped")
        attempts = {}
        running = {}

        def submit(k):
            attempts[k] = attempts.get(k, 0) + 1
            spec = dict(base, shard=(k, count))
            running[tasks.run_shard.remote(spec)] = k

        for k in todo:
            submit(k)
        started = time.monotonic()
        stats = {"shards": len(todo), "positions": 0, "task_seconds": 0.0, "retries": 0}
        done = 0
        last_report = started
        while running:
            ready, _ = ray.wait(list(running), num_returns=1, timeout=self.heartbeat)
            now = time.monotonic()
            for ref in ready:
                k = running.pop(ref)
                try:
                    written, seconds, node = ray.get(ref)
                except (ray.exceptions.RayError, tasks.ShardFailed) as e:
                    reason = _reason(e)
                    if attempts[k] > self.retries:
                        raise StageFailed(
                            f"{label}: shard {k}/{count} failed {attempts[k]} times, last: {reason}"
                        ) from e
                    stats["retries"] += 1
                    log(
                        f"{label}: shard {k}/{count} failed ({type(e).__name__}: {reason}); "
                        f"retry {attempts[k]} of {self.retries}"
                    )
                    submit(k)
                    continue
                positions = self._gather(out_dir, k, count, written)
                done += 1
                stats["positions"] += positions
                stats["task_seconds"] += seconds
                elapsed = now - started
                left = (len(todo) - done) * elapsed / done
                log(
                    f"{label}: shard {k}/{count} done on {node} in {seconds:.1f} s; "
                    f"{done}/{len(todo)} shards, {stats['positions']} positions, "
                    f"{stats['positions'] / max(elapsed, 1e-9):.1f} positions/s, "
                    f"about {left:.0f} s left"
                )
                last_report = now
            if not ready and now - last_report >= self.heartbeat:
                log(
                    f"{label}: {done}/{len(todo)} shards done, {len(running)} running, "
                    f"{now - started:.0f} s"
                )
                last_report = now
        stats["seconds"] = time.monotonic() - started
        return stats

    @staticmethod
    def _marker(out_dir, k, count):
        return os.path.join(out_dir, f".done-{k}-of-{count}")

    def _done(self, out_dir, k, count):
        marker = self._marker(out_dir, k, count)
        if not os.path.exists(marker):
            return False
        with open(marker, encoding="utf-8") as f:
            names = [n for n in f.read().splitlines() if n]
        return all(os.path.exists(os.path.join(out_dir, n)) for n in names)

    def _gather(self, out_dir, k, count, written):
        """Writes a shard's files (each renamed into place), then its marker; returns the
        positions its shard files hold."""
        positions = 0
        for name, data in written.items():
            if data.startswith(shardfile.MAGIC):
                fields, n = shardfile.describe(data, name)
                if fields.get("shard") != f"{k}/{count}":
                    raise StageFailed(f"{name} says shard {fields.get('shard')}, not {k}/{count}")
                positions += n
            _write(os.path.join(out_dir, name), data)
        _write(self._marker(out_dir, k, count), "".join(n + "\n" for n in written).encode())
        return positions


def _reason(error):
    """A failure in one line: the binary's own error for a shard that exited with one (Ray
    wraps it with a traceback), else Ray's message (a worker or node that died)."""
    cause = getattr(error, "cause", None) or error
    if isinstance(cause, tasks.ShardFailed):
        return str(cause)[:400]
    lines = [line for line in str(cause).splitlines() if line.strip()]
    return lines[0][:300] if lines else type(cause).__name__


def _write(path, data):
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
