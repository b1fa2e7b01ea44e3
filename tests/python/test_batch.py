#!/usr/bin/env python3
"""grip.batch without killing anything: wedge expansion and job names, override parsing and
formatting, jobs.csv, chunks and task keys (no Dask needed), then a batch on a 2-worker
LocalCluster where one job's override is refused by grip: that job is reported with grip's own
message and the others finish; run again, the finished jobs simulate nothing. Run by
tests/batch.rs with GRIP_LIBRARY set; prints unittest's summary."""

import csv
import os
import subprocess
import sys
import tempfile
import unittest
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "plugins", "python"))
import grip  # noqa: E402
from grip import batch  # noqa: E402
from grip.batch import overrides as ov  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCENE = os.path.join(ROOT, "examples", "scenes", "cloth-on-sphere.toml")
HANGING = os.path.join(ROOT, "examples", "scenes", "hanging-cloth.toml")


class Overrides(unittest.TestCase):
    def test_values_split_outside_brackets_and_quotes(self):
        self.assertEqual(ov.split_values("0.1,0.3"), ["0.1", "0.3"])
        self.assertEqual(ov.split_values("[0,0,-9.81],[0,0,-1.62]"), ["[0,0,-9.81]", "[0,0,-1.62]"])
        self.assertEqual(ov.split_values('"a,b",lagged'), ['"a,b"', "lagged"])
        self.assertEqual(ov.parse_wedge_assignment(" solver.integrator = 0, 7 "),
                         ("solver.integrator", ["0", "7"]))

    def test_python_values_become_toml_text(self):
        self.assertEqual(ov.value_text(True), "true")
        self.assertEqual(ov.value_text(3), "3")
        self.assertEqual(ov.value_text(0.1), "0.1")
        self.assertEqual(ov.value_text(1e-6), "1e-06")
        self.assertEqual(ov.value_text(float("-inf")), "-inf")
        self.assertEqual(ov.value_text("lagged"), '"lagged"')
        self.assertEqual(ov.value_text([0, 0, -9.81]), "[0, 0, -9.81]")
        self.assertEqual(float(ov.value_text(0.1 + 0.2)), 0.1 + 0.2)  # repr round-trips

    def test_bad_overrides_are_refused_before_any_job_runs(self):
        for bad in ["solver.default_friction", "=0.3", "solver..mu=1", "solver.gravity=[0,0",
                    'output.name="open', "solver.mu=", "solver.mu=1,,2"]:
            with self.subTest(bad=bad), self.assertRaises(ValueError):
                ov.parse_wedge_assignment(bad)
        with self.assertRaises(ValueError):
            ov.normalise(["solver.mu=1", "solver.mu=2"])
        with self.assertRaises(TypeError):
            ov.value_text(object())
        self.assertEqual(ov.normalise({"solver.friction_coupling": "lagged"}),
                         (("solver.friction_coupling", '"lagged"'),))
        self.assertEqual(ov.normalise(["solver.friction_coupling=lagged"]),
                         (("solver.friction_coupling", "lagged"),))


class Jobs(unittest.TestCase):
    def test_wedge_is_the_product_with_the_last_list_fastest(self):
        jobs = batch.wedge(SCENE, ["collider.ball.mu=0.1,0.5", "object.cloth.density=200,300",
                                   "solver.integrator=0"])
        self.assertEqual([j.name for j in jobs], [f"cloth-on-sphere-{k}" for k in range(4)])
        self.assertEqual([j.assignments() for j in jobs][1],
                         ["collider.ball.mu=0.1", "object.cloth.density=300", "solver.integrator=0"])
        self.assertEqual(jobs[2].overrides[0], ("collider.ball.mu", "0.5"))
        self.assertEqual(jobs, batch.wedge(SCENE, {"collider.ball.mu": [0.1, 0.5],
                                                   "object.cloth.density": [200, 300],
                                                   "solver.integrator": 0}))
        many = batch.wedge(SCENE, {"collider.ball.mu": [k / 10 for k in range(11)]}, name="mu")
        self.assertEqual((many[0].name, many[10].name), ("mu-00", "mu-10"))
        self.assertEqual([j.name for j in batch.wedge(SCENE, ["collider.ball.mu=0.2"])], ["cloth-on-sphere"])

    def test_shots_of_one_name_get_their_own_directories(self):
        jobs = batch.shots([SCENE, HANGING, SCENE], ["output.frames=2"])
        self.assertEqual([j.name for j in jobs], ["cloth-on-sphere", "hanging-cloth", "cloth-on-sphere_2"])
        self.assertEqual([j.frames() for j in jobs], [2, 2, 2])
        self.assertEqual(batch.shots([SCENE])[0].frames(), 48)
        self.assertEqual(batch.shots([SCENE])[0].frames(5), 5)

    def test_jobs_csv_round_trips(self):
        jobs = batch.wedge(SCENE, ["collider.ball.mu=0.1,0.5", "solver.gravity=[0,0,-9.81],[0,0,-1.62]"])
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "jobs.csv")
            batch.write_jobs_csv(jobs, path)
            with open(path, newline="") as f:
                rows = list(csv.reader(f))
            self.assertEqual(rows[0], ["job", "scene", "collider.ball.mu", "solver.gravity"])
            self.assertEqual(rows[4], ["cloth-on-sphere-3", SCENE, "0.5", "[0,0,-1.62]"])
            self.assertEqual(batch.read_jobs_csv(path), jobs)

    def test_chunks_and_task_keys_group_per_job_in_the_dashboard(self):
        from dask.utils import key_split

        self.assertEqual(batch.chunk_ends(7, 1), [1, 2, 3, 4, 5, 6, 7])
        self.assertEqual(batch.chunk_ends(7, 3), [3, 6, 7])
        self.assertEqual(batch.chunk_ends(6, 3), [3, 6])
        keys = {key_split(batch.task_key(f"cloth-on-sphere-{k}", f, "a1b2c3", k)) for k in range(3) for f in (1, 24)}
        self.assertEqual(keys, {f"grip:cloth_on_sphere_{k}" for k in range(3)})
        # Names that differ only by - and _ still get their own keys.
        self.assertNotEqual(batch.task_key("cloth-a", 1, "a1b2c3", 0), batch.task_key("cloth_a", 1, "a1b2c3", 1))

    def test_import_grip_does_not_import_dask(self):
        code = "import sys, grip, grip.batch; grip.batch.wedge(sys.argv[1], ['collider.ball.mu=0,1']); " \
               "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
        out = subprocess.run([sys.executable, "-c", code, SCENE], capture_output=True, text=True, check=True,
                             env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "plugins", "python")))
        self.assertEqual(out.stdout.strip(), "[]")


class FailingJob(unittest.TestCase):
    """Three jobs of 3 frames; the middle one has a density grip refuses."""

    def test_a_failed_job_carries_grips_message_and_the_others_finish(self):
        jobs = batch.wedge(SCENE, {"object.cloth.density": [200, -5, 300]})
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(grip.InvalidArgumentError) as direct:
                grip.bake(SCENE, os.path.join(tmp, "direct"), overrides={"object.cloth.density": -5}, frames=3)
            out = os.path.join(tmp, "batch")
            lines = []
            result = batch.run(jobs, out, workers=2, dashboard=None, frames=3, log=lines.append)
            print("\n".join(lines))
            self.assertFalse(result.ok)
            states = result.jobs
            self.assertEqual([s.status for s in states.values()], ["done", "failed", "done"])
            self.assertEqual(states["cloth-on-sphere-1"].error, direct.exception.message)
            self.assertEqual(states["cloth-on-sphere-1"].error_kind, "InvalidArgumentError")
            self.assertTrue(any("cloth-on-sphere-1: FAILED" in line for line in lines), lines)
            rows = batch.read_summary(result.summary)
            self.assertEqual(tuple(rows[0].keys()), batch.COLUMNS)
            self.assertEqual([r["status"] for r in rows], ["done", "failed", "done"])
            self.assertEqual(rows[1]["error"], direct.exception.message)
            self.assertEqual(rows[1]["overrides"], "object.cloth.density=-5")
            for row in (rows[0], rows[2]):
                self.assertEqual((row["frames_done"], row["frames"], row["retries"]), ("3", "3", "0"))
                self.assertEqual(row["fallbacks"], "0")  # no hard substep in this scene
                self.assertGreater(int(row["newton_iterations"]), 0)
                self.assertGreater(float(row["seconds_per_frame"]), 0)
                self.assertTrue(os.path.isfile(os.path.join(row["out"], "cloth_0003.obj")))
            # The same batch again goes on from the checkpoints: the done jobs simulate nothing.
            again = batch.run(jobs, out, workers=2, dashboard=None, frames=3, log=None)
            self.assertEqual([s.status for s in again.jobs.values()], ["done", "failed", "done"])
            for name in ("cloth-on-sphere-0", "cloth-on-sphere-2"):
                events = [r["event"] for r in batch.worker.read_attempts(os.path.join(out, name))]
                self.assertEqual(events, ["start", "done"] * 3 + ["skip"] * 3)
                self.assertEqual(again.jobs[name].newton_iterations, states[name].newton_iterations)
            # With fewer frames the finished bakes stay whole, simulating nothing.
            with open(os.path.join(out, "cloth-on-sphere-0", "cloth_0003.obj"), "rb") as f:
                frame3 = f.read()
            fewer = batch.run(jobs[:1], out, workers=1, dashboard=None, frames=2, log=None)
            self.assertTrue(fewer.ok)
            events = [r["event"] for r in batch.worker.read_attempts(os.path.join(out, "cloth-on-sphere-0"))]
            self.assertEqual(events[-2:], ["skip", "skip"])
            with open(os.path.join(out, "cloth-on-sphere-0", "cloth_0003.obj"), "rb") as f:
                self.assertEqual(f.read(), frame3)
            self.assertEqual(grip.run_checkpoint_frame(os.path.join(out, "cloth-on-sphere-0")), 3)

    def test_an_edited_mesh_makes_another_job(self):
        """``job.json`` holds the SHA-256 of every mesh the scene reads, so a checkpoint of the
        old mesh is never resumed onto a new one."""
        from grip.batch.worker import job_record

        with tempfile.TemporaryDirectory() as tmp:
            scene = os.path.join(tmp, "scene.toml")
            with open(SCENE, encoding="utf-8") as f:
                text = f.read()
            with open(scene, "w", encoding="utf-8") as f:
                f.write(text)
            mesh = os.path.join(os.path.dirname(SCENE), "cloth.obj")
            with open(mesh, "rb") as f, open(os.path.join(tmp, "cloth.obj"), "wb") as g:
                g.write(f.read())
            job = batch.wedge(scene)[0]
            before = job_record(job)
            self.assertIn("cloth.obj", before["inputs_sha256"])
            with open(os.path.join(tmp, "cloth.obj"), "a", encoding="utf-8") as f:
                f.write("# edited\n")
            self.assertNotEqual(job_record(job), before)
            moved = batch.Job(job.name, scene, (("object.cloth.mesh", '"other.obj"'),))
            self.assertIn("other.obj", job_record(moved)["inputs_sha256"])


class CommandLine(unittest.TestCase):
    def run_cli(self, *args):
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "plugins", "python"))
        return subprocess.run([sys.executable, "-m", "grip.batch", *args], capture_output=True, text=True, env=env)

    def test_help_names_the_commands_and_options(self):
        out = self.run_cli("--help")
        self.assertEqual(out.returncode, 0, out.stderr)
        for word in ("wedge", "shots", "jobs"):
            self.assertIn(word, out.stdout)
        out = self.run_cli("wedge", "--help")
        for option in ("--set", "--scheduler", "--workers", "--chunk", "--dashboard", "--usd", "--solver-threads"):
            self.assertIn(option, out.stdout)
        self.assertEqual(self.run_cli("wedge", SCENE, "--set", "solver.gravity=[0,0").returncode, 2)

    def test_shots_from_the_command_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = self.run_cli("shots", SCENE, HANGING, "--set", "solver.integrator=0,7", "--frames", "2",
                               "--workers", "2", "--dashboard", "none", "--out", tmp)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            self.assertIn("4 of 4 jobs done", out.stdout)
            rows = batch.read_summary(os.path.join(tmp, "summary.csv"))
            self.assertEqual([r["job"] for r in rows],
                             ["cloth-on-sphere-0", "cloth-on-sphere-1", "hanging-cloth-0", "hanging-cloth-1"])
            self.assertEqual({r["status"] for r in rows}, {"done"})
            self.assertTrue(os.path.isfile(os.path.join(tmp, "hanging-cloth-1", "cloth_0002.obj")))
            bad = self.run_cli("wedge", SCENE, "--set", "object.cloth.no_such_key=1,2", "--frames", "1",
                               "--workers", "1", "--dashboard", "none", "--quiet", "--out", os.path.join(tmp, "bad"))
            self.assertEqual(bad.returncode, 1, bad.stdout + bad.stderr)
            self.assertIn("no_such_key", bad.stderr)

    def test_a_running_scheduler_by_its_address(self):
        """``--scheduler ADDRESS`` sends the jobs to a scheduler started elsewhere (here a
        LocalCluster of this process, reached over TCP) instead of starting a cluster."""
        from distributed import LocalCluster

        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                          protocol="tcp") as cluster, tempfile.TemporaryDirectory() as tmp:
            self.assertTrue(cluster.scheduler_address.startswith("tcp://"), cluster.scheduler_address)
            out = self.run_cli("wedge", HANGING, "--set", "solver.default_friction=0.1,0.2", "--frames", "2",
                               "--scheduler", cluster.scheduler_address, "--out", tmp)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            self.assertIn("2 of 2 jobs done", out.stdout)
            self.assertIn(f"scheduler {cluster.scheduler_address}, dashboard {cluster.dashboard_link}", out.stdout)
            rows = batch.read_summary(os.path.join(tmp, "summary.csv"))
            self.assertEqual({r["status"] for r in rows}, {"done"})
            # The frames were baked by that cluster's worker process.
            from distributed import Client

            with Client(cluster) as client:
                pids = {str(p) for p in client.run(os.getpid).values()}
                # The dashboard's Progress panel groups tasks by prefix: one per job.
                prefixes = client.run_on_scheduler(lambda dask_scheduler: sorted(dask_scheduler.task_prefixes))
            self.assertEqual([p for p in prefixes if p.startswith("grip")],
                             ["grip:hanging_cloth_0", "grip:hanging_cloth_1"])
            with urllib.request.urlopen(cluster.dashboard_link, timeout=30) as page:
                self.assertEqual(page.status, 200)
            from grip.batch.worker import read_attempts

            for job in ("hanging-cloth-0", "hanging-cloth-1"):
                self.assertEqual({r["pid"] for r in read_attempts(os.path.join(tmp, job))}, pids, job)


if __name__ == "__main__":
    unittest.main(verbosity=2)
