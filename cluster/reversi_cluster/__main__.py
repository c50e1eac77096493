"""python -m reversi_cluster: the self-play → label → merge → fit pipeline, or any sharded
`reversi` command, on a Ray cluster (see docs/cluster.md)."""

import argparse
import os
import shlex
import shutil
import subprocess
import sys

import ray

from .driver import Driver, StageFailed, log

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def default_binary():
    built = os.path.join(REPO, "target", "release", "reversi")
    if os.path.isfile(built):
        return built
    return shutil.which("reversi") or built


def default_openings():
    data = os.environ.get("REVERSI_DATA") or os.path.join(REPO, "data", "reference")
    return os.path.join(data, "xot-large.txt")


def local(binary, args):
    """Runs the binary on the driver's machine (merges, the fit)."""
    log("$ reversi " + " ".join(shlex.quote(a) for a in args))
    done = subprocess.run([binary] + args, check=False)
    if done.returncode != 0:
        raise StageFailed(f"reversi {' '.join(args)} exited with {done.returncode}")


def pipeline(a, driver):
    out = os.path.abspath(a.out)
    stem = f"selfplay-{a.seed}"
    play = driver.fan_out(
        "selfplay",
        ["train", "selfplay", "--out", "{out}", "--games", str(a.games),
         "--depth", str(a.play_depth), "--exact-empties", str(a.play_exact),
         "--seed", str(a.seed), "--random-moves", str(a.random_moves),
         "--openings", "{file:openings}"]
        + (["--weights", "{file:weights}"] if a.weights else []),
        a.shards,
        os.path.join(out, "selfplay-shards"),
        files=dict(openings=a.openings, **({"weights": a.weights} if a.weights else {})),
    )
    report("selfplay", play)
    played = os.path.join(out, "selfplay")
    local(a.binary, ["train", "merge", "--out", played, os.path.join(out, "selfplay-shards")])
    label = driver.fan_out(
        "label",
        ["train", "label", "--data", "{file:played}", "--out", "{out}",
         "--depth", str(a.label_depth), "--exact-empties", str(a.label_exact)]
        + (["--weights", "{file:weights}"] if a.weights else []),
        a.label_shards or a.shards,
        os.path.join(out, "label-shards"),
        files=dict(played=os.path.join(played, stem + ".bin"),
                   **({"weights": a.weights} if a.weights else {})),
    )
    report("label", label)
    labelled = os.path.join(out, "labelled")
    local(a.binary, ["train", "merge", "--out", labelled, os.path.join(out, "label-shards")])
    if a.no_fit:
        return
    weights = os.path.join(out, "weights.bin")
    local(a.binary, ["train", "fit", "--data", labelled, "--out", weights]
          + shlex.split(a.fit_args))


def run(a, driver):
    files = {}
    for item in a.file:
        key, sep, path = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"--file {item!r}: give KEY=PATH")
        files[key] = path
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    if not args:
        raise SystemExit("give the reversi command after --, as: -- train data --out {out}")
    stats = driver.fan_out(args[0] + " " + (args[1] if len(args) > 1 else ""), args,
                           a.shards, os.path.abspath(a.out), files=files)
    report("run", stats)


def report(label, s):
    if s["shards"] == 0:
        return
    per_task = s["task_seconds"] / s["shards"]
    log(
        f"{label}: {s['shards']} shards in {s['seconds']:.1f} s, {s['positions']} positions, "
        f"{s['positions'] / max(s['seconds'], 1e-9):.1f} positions/s "
        f"(the binary ran {s['task_seconds']:.1f} s, {per_task:.2f} s a shard), "
        f"{s['retries']} retries"
    )


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m reversi_cluster", description=__doc__)
    p.add_argument("--address", default=os.environ.get("RAY_ADDRESS", "auto"),
                   help="the Ray cluster (default: RAY_ADDRESS, else the one this node is in)")
    p.add_argument("--binary", default=default_binary(),
                   help="the reversi binary to send to the workers "
                        "(default: target/release/reversi, else reversi on PATH)")
    p.add_argument("--retries", type=int, default=3, help="times a failed shard is run again")
    sub = p.add_subparsers(dest="command", required=True)

    pp = sub.add_parser("pipeline", help="self-play, label, merge, fit")
    pp.add_argument("--out", required=True, help="output folder on the driver's machine")
    pp.add_argument("--games", type=int, required=True)
    pp.add_argument("--seed", type=int, default=1)
    pp.add_argument("--shards", type=int, required=True, help="self-play shards (tasks)")
    pp.add_argument("--label-shards", type=int, default=0, help="label shards [default: --shards]")
    pp.add_argument("--play-depth", type=int, default=8)
    pp.add_argument("--play-exact", type=int, default=14)
    pp.add_argument("--random-moves", type=int, default=0,
                    help="random legal moves after each XOT opening (train selfplay --random-moves)")
    pp.add_argument("--label-depth", type=int, default=12)
    pp.add_argument("--label-exact", type=int, default=18)
    pp.add_argument("--weights", help="weights of the playing and labelling engine")
    pp.add_argument("--openings", default=default_openings())
    pp.add_argument("--fit-args", default="", help="options of `reversi train fit`, quoted")
    pp.add_argument("--no-fit", action="store_true", help="stop after the labels are merged")

    pr = sub.add_parser("run", help="any command that takes --shard K/N, e.g. train data")
    pr.add_argument("--out", required=True, help="folder the shard files are gathered into")
    pr.add_argument("--shards", type=int, required=True)
    pr.add_argument("--file", action="append", default=[],
                    help="KEY=PATH: a file or folder sent to the workers, named {file:KEY}")
    pr.add_argument("args", nargs=argparse.REMAINDER,
                    help="the reversi command; {out} is the task's output folder")

    a = p.parse_args(argv)
    if not os.path.isfile(a.binary):
        raise SystemExit(f"{a.binary}: no reversi binary there (cargo build --release, or --binary)")
    a.binary = os.path.abspath(a.binary)
    ray.init(address=a.address, logging_level="WARNING", log_to_driver=False)
    driver = Driver(a.binary, retries=a.retries)
    try:
        if a.command == "pipeline":
            if a.shards < 1 or a.label_shards < 0:
                raise SystemExit("--shards must be at least 1")
            pipeline(a, driver)
        else:
            run(a, driver)
    except StageFailed as e:
        log(f"failed: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
