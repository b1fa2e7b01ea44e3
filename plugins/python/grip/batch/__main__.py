# SPDX-License-Identifier: MIT
"""``python -m grip.batch``: run wedges and shot batches of grip scene files on Dask.

Exit status: 0 when every job is done, 1 when a job failed (the others still ran; see
``summary.csv``), 2 for a usage error (bad option, bad ``--set``, unreadable jobs file)."""

import argparse
import os
import sys

EPILOG = """\
examples:
  python -m grip.batch wedge scene.toml --set solver.default_friction=0.1,0.3 \\
      --set object.cloth.density=200,300 --out out/wedge          # 4 jobs: scene-0 .. scene-3
  python -m grip.batch shots a.toml b.toml --set output.frames=96 --out out/shots
  python -m grip.batch jobs out/wedge/jobs.csv --out out/wedge     # any list of jobs
  python -m grip.batch wedge scene.toml --set collider.ball.mu=0,0.2,0.4 \\
      --scheduler tcp://head:8786 --out /shared/bake                # a running Dask scheduler

--set KEY=V1,V2,...: KEY is a dotted scene key (solver.integrator, object.cloth.youngs_modulus,
collider.1.mu); each value a TOML value or a bare word; commas inside [...] or quotes do not
split. A wedge runs every combination, the last --set varying fastest.

Output: OUT/jobs.csv (job -> overrides), OUT/<job>/ (grip's output, as `grip run` writes it,
plus checkpoint.grip, job.json, attempts.csv), OUT/summary.csv at the end. Running the same
command again goes on from the jobs' checkpoints. docs/batch.md has the details."""


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m grip.batch", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run wedges and batches of grip scene files on Dask: a local cluster of worker "
                    "processes by default, or any Dask scheduler. Each job checkpoints every frame; "
                    "a job whose worker dies resumes from its last checkpoint, bit for bit.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    wedge = commands.add_parser("wedge", help="one scene over the product of override lists",
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    wedge.add_argument("scene", metavar="SCENE.toml")
    wedge.add_argument("--name", help="job name stem (default: the scene's [output] name or file stem)")
    shots = commands.add_parser("shots", help="several scene files, each over the same override lists",
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    shots.add_argument("scenes", nargs="+", metavar="SCENE.toml")
    listed = commands.add_parser("jobs", help="the jobs of a jobs.csv (columns job, scene, one per key)",
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    listed.add_argument("jobs_csv", metavar="JOBS.csv")
    for sub in (wedge, shots):
        sub.add_argument("--set", action="append", default=[], metavar="KEY=V1,V2",
                         help="override KEY with each value in turn (repeatable)")
    for sub in (wedge, shots, listed):
        _common(sub)
    return parser


def _common(p):
    p.add_argument("-o", "--out", default="out/batch", metavar="DIR",
                   help="batch directory, on storage every worker shares (default: out/batch)")
    p.add_argument("-f", "--frames", type=_positive, metavar="N",
                   help="every job's last frame (default: each scene's)")
    p.add_argument("--chunk", type=_positive, default=1, metavar="N",
                   help="frames per Dask task; a retried task redoes at most its chunk's frames since "
                        "the last checkpoint (default: 1)")
    p.add_argument("--usd", action="store_true", help="write each job's USD file after its last frame")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="a running Dask scheduler (tcp://host:8786) instead of a local cluster")
    p.add_argument("--workers", type=_positive, metavar="N",
                   help="local cluster: worker processes (default: cores / threads per worker)")
    p.add_argument("--threads-per-worker", type=_positive, default=1, metavar="N",
                   help="local cluster: tasks each worker runs at once (default: 1)")
    p.add_argument("--solver-threads", type=_positive, metavar="N",
                   help="solver.worker_count of jobs that do not set it (default: cores per task slot "
                        "locally, 1 on a scheduler); results do not depend on it")
    p.add_argument("--dashboard", default=":8787", metavar="ADDRESS",
                   help="local cluster: dashboard address (default :8787; :0 any free port; none: off)")
    p.add_argument("--allowed-failures", type=int, metavar="N",
                   help="local cluster: times a task may lose its worker before it fails (Dask's default: 3)")
    p.add_argument("--library", metavar="PATH",
                   help="the grip library on the workers (default: GRIP_LIBRARY or beside the package)")
    p.add_argument("--dry-run", action="store_true",
                   help="write jobs.csv and list the jobs without running them")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")


def _positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def main(argv=None):
    """Runs the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    from . import jobs as batch_jobs
    from .runner import run

    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "wedge":
            jobs = batch_jobs.wedge(args.scene, args.set, name=args.name)
        elif args.command == "shots":
            jobs = batch_jobs.shots(args.scenes, args.set)
        else:
            jobs = batch_jobs.read_jobs_csv(args.jobs_csv)
    except (OSError, ValueError, TypeError) as e:
        parser.error(str(e))
    for job in jobs:
        if not os.path.isfile(job.scene):
            parser.error(f"{job.name}: no scene file {job.scene}")
    if args.dry_run:
        os.makedirs(args.out, exist_ok=True)
        batch_jobs.write_jobs_csv(jobs, os.path.join(args.out, "jobs.csv"))
        for job in jobs:
            print(f"{job.name}: {job.scene} {' '.join(job.assignments())} ({job.frames(args.frames)} frames)")
        return 0
    dashboard = None if args.dashboard.lower() == "none" else args.dashboard
    result = run(jobs, args.out, scheduler=args.scheduler, workers=args.workers,
                 threads_per_worker=args.threads_per_worker, dashboard=dashboard, frames=args.frames,
                 chunk=args.chunk, usd=args.usd, solver_threads=args.solver_threads,
                 library=args.library, allowed_failures=args.allowed_failures,
                 log=None if args.quiet else _print)
    for state in result.failed:
        print(f"grip.batch: {state.job.name} {state.status}: {state.error}", file=sys.stderr)
    return 0 if result.ok else 1


def _print(line):
    print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
