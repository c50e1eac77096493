"""The Ray driver on a local cluster of two one-CPU nodes: a small pipeline (self-play,
labels, merges, fit) gives the bytes of the same commands run on one machine, and a worker
killed in the middle of a shard is retried, leaving complete output with nothing doubled.

Run by scripts/test with the virtual environment scripts/setup makes (target/ray-venv);
REVERSI_BIN names the binary (default: target/release/reversi)."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import ray.cluster_utils

HERE = os.path.dirname(os.path.abspath(__file__))
CLUSTER = os.path.dirname(HERE)
REPO = os.path.dirname(CLUSTER)
BIN = os.environ.get("REVERSI_BIN") or os.path.join(REPO, "target", "release", "reversi")
OPENINGS = os.path.join(
    os.environ.get("REVERSI_DATA") or os.path.join(REPO, "data", "reference"), "xot-large.txt"
)

# Six games at depth 3, labelled again at depth 9 (a few seconds a shard, so that a worker
# can be killed in the middle of one), exact from 10 empties; a one-epoch fit.
GAMES, SEED, PLAY, PLAY_EXACT, LABEL, LABEL_EXACT = 6, 4, 3, 8, 9, 10
FIT = ["--epochs", "1", "--stages", "2"]
OUTPUTS = ["selfplay/selfplay-4.bin", "labelled/selfplay-4.bin", "weights.bin"]


def reversi(*args):
    subprocess.run([BIN, *args], check=True, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


def read(path):
    with open(path, "rb") as f:
        return f.read()


class LocalCluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="reversi-ray-test-")
        # The workers inherit it: the test finds the binary's processes by this folder.
        cls.cache = os.path.join(cls.tmp, "cache")
        os.environ["REVERSI_CLUSTER_CACHE"] = cls.cache
        cls.cluster = ray.cluster_utils.Cluster(
            initialize_head=True,
            head_node_args={"num_cpus": 1, "include_dashboard": False},
        )
        cls.cluster.add_node(num_cpus=1)
        cls.cluster.wait_for_nodes()
        # The same commands on one machine, no Ray.
        ref = os.path.join(cls.tmp, "one-machine")
        reversi("train", "selfplay", "--out", f"{ref}/selfplay", "--games", str(GAMES),
                "--depth", str(PLAY), "--exact-empties", str(PLAY_EXACT), "--seed", str(SEED),
                "--openings", OPENINGS)
        reversi("train", "label", "--data", f"{ref}/selfplay/selfplay-4.bin",
                "--out", f"{ref}/labelled", "--depth", str(LABEL),
                "--exact-empties", str(LABEL_EXACT))
        reversi("train", "fit", "--data", f"{ref}/labelled", "--out", f"{ref}/weights.bin", *FIT)
        cls.reference = {name: read(os.path.join(ref, name)) for name in OUTPUTS}

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def driver(self, out, shards):
        return subprocess.Popen(
            [sys.executable, "-m", "reversi_cluster", "--address", self.cluster.address,
             "--binary", BIN, "pipeline", "--out", out, "--games", str(GAMES),
             "--seed", str(SEED), "--shards", str(shards), "--play-depth", str(PLAY),
             "--play-exact", str(PLAY_EXACT), "--label-depth", str(LABEL),
             "--label-exact", str(LABEL_EXACT), "--openings", OPENINGS,
             "--fit-args", " ".join(FIT)],
            cwd=CLUSTER, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )

    def assert_same_as_one_machine(self, out):
        for name in OUTPUTS:
            self.assertEqual(read(os.path.join(out, name)), self.reference[name], name)

    def test_pipeline_gives_the_bytes_of_one_machine(self):
        out = os.path.join(self.tmp, "pipeline")
        driver = self.driver(out, shards=3)
        stdout, stderr = driver.communicate(timeout=600)
        self.assertEqual(driver.returncode, 0, stderr)
        self.assert_same_as_one_machine(out)
        self.assertIn("positions/s", stderr)
        nodes = {line.split(" done on ")[1].split()[0] for line in stderr.splitlines()
                 if " done on " in line}
        self.assertTrue(nodes, stderr)
        # Run again: every shard is found done and skipped.
        again = self.driver(out, shards=3)
        _, stderr = again.communicate(timeout=600)
        self.assertEqual(again.returncode, 0, stderr)
        self.assertIn("selfplay: 3 of 3 shards done before, skipped", stderr)
        self.assertIn("label: 3 of 3 shards done before, skipped", stderr)
        self.assert_same_as_one_machine(out)

    def test_a_killed_worker_is_retried(self):
        out = os.path.join(self.tmp, "killed")
        driver = self.driver(out, shards=4)
        killed = None
        deadline = time.monotonic() + 300
        while killed is None and driver.poll() is None and time.monotonic() < deadline:
            victim = self.labelling_binary()
            if victim is not None:
                # Kill the Ray worker process running the shard (the binary's parent).
                worker = parent_of(victim)
                os.kill(worker, signal.SIGKILL)
                killed = worker
            time.sleep(0.05)
        stdout, stderr = driver.communicate(timeout=600)
        self.assertIsNotNone(killed, "no labelling shard was seen running:\n" + stderr)
        self.assertEqual(driver.returncode, 0, stderr)
        self.assertIn("retry 1 of 3", stderr)
        self.assert_same_as_one_machine(out)
        shards = sorted(n for n in os.listdir(os.path.join(out, "label-shards"))
                        if n.endswith(".bin"))
        self.assertEqual(shards, [f"selfplay-4-{k}-of-4.bin" for k in range(4)])

    def labelling_binary(self):
        """A process of the shipped binary labelling a shard, running for half a second."""
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    args = f.read().split(b"\0")
                with open(f"/proc/{pid}/stat") as f:
                    started = int(f.read().rsplit(")", 1)[1].split()[19])
            except OSError:
                continue
            running = time.monotonic() - started / os.sysconf("SC_CLK_TCK")
            if (args[0].decode(errors="replace").startswith(self.cache)
                    and b"label" in args and running > 0.5):
                return int(pid)
        return None


def parent_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


if __name__ == "__main__":
    unittest.main()
