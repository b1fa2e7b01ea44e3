#!/usr/bin/env python3
"""The acceptance test of grip.batch: a 2-worker LocalCluster (processes, 1 thread each) runs a
4-job wedge of the cloth-on-sphere scene, 24 frames each, one frame per task. While a job's frame
is being simulated, that worker's process is killed with SIGKILL. Every job must still finish,
the killed job must have resumed from its checkpoint (a retry in summary.csv and in its
attempts.csv), and every job's frames must equal the serial bake's: ``grip diff --tolerance 0``
against ``grip run SCENE --set ...`` (the CLI at $GRIP_BIN) and against :func:`grip.bake` in this
process without checkpoints, the same ``stats.csv`` apart from wall-clock times, and the same
bytes of the USD file (``--usd``), which usd-core opens with a time sample per frame.

Run by tests/batch.rs with GRIP_LIBRARY and GRIP_BIN set; prints the measured numbers and
unittest's summary."""

import csv
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "plugins", "python"))
import grip  # noqa: E402
from grip import batch  # noqa: E402
from grip.batch.worker import read_attempts  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCENE = os.path.join(ROOT, "examples", "scenes", "cloth-on-sphere.toml")
GRIP_BIN = os.environ["GRIP_BIN"]
FRAMES = 24
#: stats.csv columns that are wall-clock times, the only ones that may differ between runs.
CLOCK_COLUMNS = ("seconds", "seconds_contact_search")


class Killer:
    """``on_update`` of the batch: once a job is 6 frames in, waits for a task on a frame in the
    middle third of its job that logged its start half of that job's seconds per frame ago (it
    is inside :func:`grip.bake`, simulating the frame) and SIGKILLs that worker's process,
    once."""

    def __init__(self, out):
        self.out = out
        self.killed = None  # (job, chunk end, pid, seconds into the batch)
        self.start = time.monotonic()

    def __call__(self, progress, client):
        running = [s for s in progress.states.values() if s.status == "running"]
        if self.killed or not running or max(s.frames_done for s in running) < 6:
            return
        pids = set(client.run(os.getpid).values())
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for name in progress.states:
                rows = read_attempts(os.path.join(self.out, name))
                if not rows or rows[-1]["event"] != "start":
                    continue
                last = rows[-1]
                pid, end = int(last["pid"]), int(last["chunk_end"])
                # Half way through the frame's simulation: the task started (loaded the scene,
                # restored the checkpoint) about half a frame's solver time ago.
                per_frame = progress.states[name].seconds_per_frame or 0.1
                age = time.time() - float(last["time"])
                if pid in pids and FRAMES // 3 <= end <= 2 * FRAMES // 3 and 0.5 * per_frame <= age <= 0.8 * per_frame:
                    os.kill(pid, signal.SIGKILL)
                    self.killed = (name, end, pid, time.monotonic() - self.start)
                    self.age, self.per_frame = age, per_frame
                    return
            time.sleep(0.003)
        raise AssertionError("no task was caught in the middle of a frame within 30 s")


def diff(a, b):
    """Exit status and output of ``grip diff A B --tolerance 0``."""
    out = subprocess.run([GRIP_BIN, "diff", a, b, "--tolerance", "0"], capture_output=True, text=True)
    return out.returncode, out.stdout + out.stderr


def stats_without_clocks(out):
    """The rows of ``<out>/stats.csv`` without the wall-clock columns."""
    with open(os.path.join(out, "stats.csv"), newline="") as f:
        return [{k: v for k, v in row.items() if k not in CLOCK_COLUMNS} for row in csv.DictReader(f)]


class KillAWorker(unittest.TestCase):
    def test_jobs_survive_a_killed_worker_bit_for_bit(self):
        from distributed import Client, LocalCluster

        jobs = batch.wedge(SCENE, ["collider.ball.mu=0.1,0.5", "object.cloth.density=200,300"])
        self.assertEqual(len(jobs), 4)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "batch")
            killer = Killer(out)
            lines = []
            started = time.monotonic()
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
                    Client(cluster) as client:
                result = batch.run(jobs, out, client=client, frames=FRAMES, usd=True, log=lines.append,
                                   on_update=killer)
            batch_seconds = time.monotonic() - started
            print("\n".join(lines))
            self.assertIsNotNone(killer.killed, "no worker was killed")
            name, end, pid, when = killer.killed
            print(f"killed worker pid {pid} at {when:.1f} s, while {name} simulated frame {end} "
                  f"({killer.age:.3f} s after its task started; {killer.per_frame:.3f} s/frame)")
            self.assertTrue(result.ok, [(s.job.name, s.status, s.error) for s in result.failed])

            rows = {r["job"]: r for r in batch.read_summary(result.summary)}
            self.assertEqual(sorted(rows), [j.name for j in jobs])
            for row in rows.values():
                self.assertEqual((row["status"], row["frames_done"], row["frames"]), ("done", "24", "24"))
            self.assertGreaterEqual(int(rows[name]["retries"]), 1, rows[name])
            self.assertIn(str(end - 1), rows[name]["resumed_from"].split(), rows[name])
            events = [(r["chunk_end"], r["event"], r["pid"]) for r in read_attempts(os.path.join(out, name))]
            self.assertIn((str(end), "start", str(pid)), events)
            self.assertNotIn((str(end), "done", str(pid)), events)
            self.assertIn((str(end), "done"), [(e, ev) for e, ev, p in events if p != str(pid)])
            retries = sum(int(r["retries"]) for r in rows.values())

            serial_started = time.monotonic()
            for job in jobs:
                batch_dir = os.path.join(out, job.name)
                cli_dir = os.path.join(tmp, "serial-cli", job.name)
                sets = [a for assignment in job.assignments() for a in ("--set", assignment)]
                run = subprocess.run([GRIP_BIN, "run", SCENE, *sets, "--frames", str(FRAMES), "--usd",
                                      "--out", cli_dir], capture_output=True, text=True)
                self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
                code, text = diff(batch_dir, cli_dir)
                self.assertEqual(code, 0, f"{job.name}: batch and grip run differ\n{text}")
                bake_dir = os.path.join(tmp, "serial-bake", job.name)
                grip.bake(SCENE, bake_dir, overrides=job.assignments(), frames=FRAMES)
                code, text = diff(batch_dir, bake_dir)
                self.assertEqual(code, 0, f"{job.name}: batch and grip.bake differ\n{text}")
                self.assertEqual(stats_without_clocks(batch_dir), stats_without_clocks(cli_dir), job.name)
                self.assertEqual(len(stats_without_clocks(batch_dir)), FRAMES + 1)
                usd = [os.path.join(d, "cloth-on-sphere.usda") for d in (batch_dir, cli_dir)]
                with open(usd[0], "rb") as a, open(usd[1], "rb") as b:
                    self.assertEqual(a.read(), b.read(), f"{job.name}: the USD files differ")
                self.assert_usd_frames(usd[0])
            serial_seconds = time.monotonic() - serial_started
            print(f"measured: {len(jobs)} jobs x {FRAMES} frames, batch {batch_seconds:.1f} s "
                  f"(kill at {when:.1f} s, {retries} retried tasks), serial bakes {serial_seconds:.1f} s")

    def assert_usd_frames(self, path):
        """The USD file opens in usd-core with the cloth's points sampled at frames 0..FRAMES."""
        from pxr import Usd, UsdGeom

        stage = Usd.Stage.Open(path)
        self.assertEqual(UsdGeom.GetStageMetersPerUnit(stage), 1.0)
        meshes = [UsdGeom.Mesh(p) for p in stage.Traverse() if p.IsA(UsdGeom.Mesh)]
        self.assertEqual(len(meshes), 1, path)
        self.assertEqual(meshes[0].GetPointsAttr().GetTimeSamples(), [float(k) for k in range(FRAMES + 1)])


if __name__ == "__main__":
    unittest.main(verbosity=2)
