# SPDX-License-Identifier: MIT
"""The worker side: one Dask task bakes one chunk of one job's frames with :func:`grip.bake`.

A task is stateless: it reads where the job stands from the job's output directory on shared
storage (``checkpoint.grip``) and goes on from there, so any worker can run it, and a task run
again after its worker died resumes from the last frame that worker checkpointed. It is also
idempotent: a chunk whose frames are already checkpointed simulates nothing and returns the
recorded stats (Dask recomputes the lost results of finished tasks when a worker dies).

Next to grip's output each job directory holds ``job.json`` (the scene file, its SHA-256 and the
overrides: a checkpoint is only taken up by the job that wrote it; another job there starts
afresh) and ``attempts.csv`` (one row per task attempt: batch run, chunk, event, frame, host,
process), from which a task knows whether it is a retry."""

import csv
import glob
import hashlib
import json
import os
import socket
import time
import tomllib
from dataclasses import dataclass

from .jobs import Job

#: grip's files in an output directory, removed when a different job takes the directory over.
_GRIP_OUTPUT = ("*.obj", "*.usda", "stats.csv", "stats.csv.partial", "checkpoint.grip",
                "checkpoint.grip.partial")


@dataclass(frozen=True)
class Chunk:
    """One task: bake ``job`` into ``out`` up to frame ``end`` (of ``frames``, the job's last).
    ``run`` identifies the batch run in ``attempts.csv``; ``usd`` asks for the USD file after
    the last frame; ``solver_threads`` sets ``solver.worker_count`` unless the job overrides it
    (None: the scene's); ``library`` is the grip library path (None: grip's default lookup)."""

    job: Job
    out: str
    run: str
    end: int
    frames: int
    usd: bool = False
    solver_threads: int = None
    library: str = None


@dataclass(frozen=True)
class ChunkResult:
    """What a task reports: the job's state after frame ``end``. ``frames_done`` is the
    checkpointed frame; ``simulated`` the frames this attempt simulated (0 when it found them
    done), starting after ``resumed_from`` (0 for a fresh start); ``seconds``, ``substeps``,
    ``newton_iterations`` and ``fallbacks`` (substeps a fallback took, scene files going on past a
    hard substep by default) are the job's totals over frames 1 to ``frames_done`` from its
    ``stats.csv`` (seconds: the solver's wall-clock time). ``retry``: an earlier attempt of this
    chunk in this run started and never finished (its worker died); ``recomputed``: one finished
    (its result was lost with its worker)."""

    job: str
    end: int
    frames_done: int
    simulated: int
    resumed_from: int
    seconds: float
    substeps: int
    newton_iterations: int
    fallbacks: int
    retry: bool
    recomputed: bool
    host: str
    pid: int


class BakeFailed(Exception):
    """A job's bake failed in grip: ``job`` name, ``kind`` (the :class:`grip.GripError` subclass
    name, e.g. ``NotConvergedError``) and grip's ``message``. Kept in ``args`` so it pickles
    across processes unchanged."""

    def __init__(self, job, kind, message):
        super().__init__(job, kind, message)

    @property
    def job(self):
        """The job's name."""
        return self.args[0]

    @property
    def kind(self):
        """The name of the grip exception class."""
        return self.args[1]

    @property
    def message(self):
        """grip's error message."""
        return self.args[2]

    def __str__(self):
        return self.message


def run_chunk(chunk, previous=None):
    """Bakes ``chunk`` (a :class:`Chunk`) and returns its :class:`ChunkResult`. ``previous`` is
    the result of the job's chunk before it: unused, it makes Dask run the chunks in order.
    Raises :class:`BakeFailed` when grip fails."""
    import grip

    os.makedirs(chunk.out, exist_ok=True)
    history = _events(chunk.out, chunk.run, chunk.end)
    retry = "start" in history and "done" not in history
    recomputed = "done" in history
    done = _claim(chunk)
    usd_missing = chunk.usd and chunk.end == chunk.frames and not glob.glob(os.path.join(chunk.out, "*.usda"))
    if done is not None and (done > chunk.end or (done == chunk.end and not usd_missing)):
        _log(chunk, "skip", done)
        return _result(chunk, done, 0, done, retry, recomputed)
    _log(chunk, "start", done or 0)
    overrides = chunk.job.assignments()
    if chunk.solver_threads is not None and "solver.worker_count" not in dict(chunk.job.overrides):
        overrides.append(f"solver.worker_count={int(chunk.solver_threads)}")
    try:
        summary = grip.bake(chunk.job.scene, chunk.out, overrides=overrides, frames=chunk.end,
                            checkpoint=True, resume=done is not None,
                            usd=chunk.usd and chunk.end == chunk.frames, library=chunk.library)
    except grip.GripError as e:
        _log(chunk, "failed", done or 0)
        raise BakeFailed(chunk.job.name, type(e).__name__, e.message) from None
    _log(chunk, "done", summary.frames)
    return _result(chunk, summary.frames, summary.frames - (done or 0), done or 0, retry, recomputed)


def _result(chunk, frames_done, simulated, resumed_from, retry, recomputed):
    seconds, substeps, newton, fallbacks = stats_totals(chunk.out, frames_done)
    return ChunkResult(chunk.job.name, chunk.end, frames_done, simulated, resumed_from, seconds,
                       substeps, newton, fallbacks, retry, recomputed, socket.gethostname(), os.getpid())


#: Scene-file keys naming an input file, relative to the scene file (docs/scene-file.md).
_INPUT_KEYS = ("mesh", "rest_mesh", "point_cache")


def _sha256(path):
    """The SHA-256 of the file at ``path``, or None when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def _inputs(scene, overrides):
    """The files the scene reads (meshes, rest meshes, point caches), as paths relative to it,
    with the paths that ``overrides`` put in those keys; sorted, without repeats."""
    try:
        with open(scene, "rb") as f:
            tables = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return []
    names = {t[k] for t in tables.get("object", []) if isinstance(t, dict) for k in _INPUT_KEYS
             if isinstance(t.get(k), str)}
    for key, value in overrides:
        if key.rsplit(".", 1)[-1] in _INPUT_KEYS:
            try:
                names.add(tomllib.loads(f"v = {value}")["v"])
            except tomllib.TOMLDecodeError:
                names.add(value)
    return sorted(n for n in names if isinstance(n, str))


def job_record(job):
    """What ``job.json`` holds for ``job``: the scene file, the SHA-256 of its bytes and of every
    mesh and point cache it reads (an edited scene or mesh makes another job, whose checkpoint
    would not fit) and the overrides."""
    base = os.path.dirname(job.scene)
    inputs = {name: _sha256(os.path.join(base, name)) for name in _inputs(job.scene, job.overrides)}
    return {"scene": job.scene, "scene_sha256": _sha256(job.scene), "inputs_sha256": inputs,
            "overrides": [list(p) for p in job.overrides]}


def _claim(chunk):
    """The frame ``chunk.out`` is checkpointed at for this job (None: start afresh). When
    ``job.json`` is missing or names another job, grip's old files there are removed first and
    then ``job.json`` written, in that order, so a task killed in between finds no stale
    checkpoint."""
    import grip

    record = job_record(chunk.job)
    path = os.path.join(chunk.out, "job.json")
    try:
        with open(path, encoding="utf-8") as f:
            mine = json.load(f) == record
    except (OSError, ValueError):
        mine = False
    if mine:
        try:
            # A bake that already went past this batch's last frame (a rerun with fewer
            # --frames) is kept as it is: its chunks find their frames done.
            return grip.run_checkpoint_frame(chunk.out)
        except ValueError:  # not a run checkpoint: start afresh
            pass
    for pattern in _GRIP_OUTPUT:
        for stale in glob.glob(os.path.join(chunk.out, pattern)):
            os.remove(stale)
    partial = path + ".partial"
    with open(partial, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1)
    os.replace(partial, path)
    return None


#: The ``stats.csv`` columns counting the substeps each fallback took.
FALLBACK_COLUMNS = ("fallbacks_lagged", "fallbacks_frictionless", "fallbacks_best_iterate")


def stats_totals(out, last):
    """``(seconds, substeps, newton_iterations, fallbacks)`` summed over frames 1 to ``last`` of
    ``<out>/stats.csv`` ((0.0, 0, 0, 0) when it is missing)."""
    seconds, substeps, newton, fallbacks = 0.0, 0, 0, 0
    try:
        with open(os.path.join(out, "stats.csv"), newline="") as f:
            for row in csv.DictReader(f):
                if 1 <= int(row["frame"]) <= last:
                    seconds += float(row["seconds"])
                    substeps += int(row["substeps"])
                    newton += int(row["newton_iterations"])
                    fallbacks += sum(int(row[k]) for k in FALLBACK_COLUMNS)
    except OSError:
        pass
    return seconds, substeps, newton, fallbacks


_LOG_HEADER = "run,chunk_end,event,frame,host,pid,time\n"


def _log(chunk, event, frame):
    """Appends one row to ``<out>/attempts.csv`` (one write, so rows never interleave)."""
    path = os.path.join(chunk.out, "attempts.csv")
    row = f"{chunk.run},{chunk.end},{event},{frame},{socket.gethostname()},{os.getpid()},{time.time():.3f}\n"
    new = not os.path.exists(path)
    with open(path, "a", encoding="utf-8") as f:
        f.write((_LOG_HEADER if new else "") + row)
        f.flush()
        os.fsync(f.fileno())


def _events(out, run, end):
    """The events logged so far for chunk ``end`` of batch run ``run`` in ``out``."""
    return [row["event"] for row in read_attempts(out) if row["run"] == run and int(row["chunk_end"]) == end]


def read_attempts(out):
    """The rows of ``<out>/attempts.csv`` as dicts ([] when there is none)."""
    try:
        with open(os.path.join(out, "attempts.csv"), newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except OSError:
        return []
