# SPDX-License-Identifier: MIT
"""What the client reports: per-job progress (frames done, solver seconds per frame, retries,
failures) as one line per completed task, ``summary.csv`` with every job's outcome and stats
when the batch ends, and the :class:`BatchResult` a batch returns."""

import csv
import time
from dataclasses import dataclass, field

from .jobs import Job

#: Job states, in the order a job goes through them.
PENDING, RUNNING, DONE, FAILED, CANCELLED = "pending", "running", "done", "failed", "cancelled"


@dataclass
class JobState:
    """Where one job stands. ``frames`` is its last frame; ``frames_done`` the last frame
    checkpointed; ``seconds``, ``substeps``, ``newton_iterations`` and ``fallbacks`` its totals
    over the frames done (from ``stats.csv``, seconds being the solver's wall-clock time); ``retries`` counts
    chunks run again after their worker died, ``recomputed`` finished chunks run again because
    their result was lost; ``resumed_from`` lists the frames retries went on from; ``error`` is
    grip's message when the job failed, ``error_kind`` the grip exception's name;
    ``wall_seconds`` the time from the batch's start to the job's end."""

    job: Job
    frames: int
    out: str
    status: str = PENDING
    frames_done: int = 0
    seconds: float = 0.0
    substeps: int = 0
    newton_iterations: int = 0
    fallbacks: int = 0
    retries: int = 0
    recomputed: int = 0
    resumed_from: list = field(default_factory=list)
    error: str = ""
    error_kind: str = ""
    wall_seconds: float = 0.0

    @property
    def seconds_per_frame(self):
        """Solver seconds per frame done (0 before the first frame)."""
        return self.seconds / self.frames_done if self.frames_done else 0.0


def fallback_note(fallbacks):
    """", N substeps fell back (see stats.csv)" for a job with fallbacks, else ""."""
    return f", {fallbacks} substeps fell back (see stats.csv)" if fallbacks else ""


class Progress:
    """The states of a batch's jobs, updated from task results, with a line per update written
    to ``log`` (a callable taking a str; None: silent)."""

    def __init__(self, states, log=print):
        self.states = {s.job.name: s for s in states}
        self.log = log or (lambda _line: None)
        self.start = time.monotonic()

    @property
    def total_frames(self):
        """Frames of all jobs."""
        return sum(s.frames for s in self.states.values())

    @property
    def frames_done(self):
        """Frames done over all jobs."""
        return sum(s.frames_done for s in self.states.values())

    def _prefix(self):
        total = self.total_frames
        percent = 100.0 * self.frames_done / total if total else 100.0
        return f"[{self.frames_done}/{total} frames {percent:3.0f}%, {time.monotonic() - self.start:6.1f} s]"

    def chunk_done(self, result):
        """Takes a task's :class:`~grip.batch.worker.ChunkResult`; returns the job's state."""
        s = self.states[result.job]
        if s.status in (DONE, FAILED):
            return s
        s.status = RUNNING
        if result.retry:
            s.retries += 1
            s.resumed_from.append(result.resumed_from)
            self.log(f"{self._prefix()} {s.job.name}: frames to {result.end} run again after their "
                     f"worker died, resumed after frame {result.resumed_from}")
        if result.recomputed:
            s.recomputed += 1
        if result.frames_done >= s.frames_done:
            s.frames_done = result.frames_done
            s.seconds, s.substeps = result.seconds, result.substeps
            s.newton_iterations, s.fallbacks = result.newton_iterations, result.fallbacks
        if s.frames_done >= s.frames:
            s.status = DONE
            s.wall_seconds = time.monotonic() - self.start
            self.log(f"{self._prefix()} {s.job.name}: done, {s.frames_done} frames, "
                     f"{s.seconds:.2f} s ({s.seconds_per_frame:.3f} s/frame), "
                     f"{s.newton_iterations} Newton iterations in {s.substeps} substeps"
                     f"{fallback_note(s.fallbacks)}")
        else:
            self.log(f"{self._prefix()} {s.job.name}: frame {s.frames_done}/{s.frames}, "
                     f"{s.seconds_per_frame:.3f} s/frame{fallback_note(s.fallbacks)}")
        return s

    def failed(self, name, message, kind=""):
        """Marks job ``name`` failed with grip's ``message`` (the first failure counts: its
        later chunks fail with the same error)."""
        s = self.states[name]
        if s.status in (DONE, FAILED):
            return s
        s.status, s.error, s.error_kind = FAILED, message, kind
        s.wall_seconds = time.monotonic() - self.start
        self.log(f"{self._prefix()} {name}: FAILED after frame {s.frames_done}: {message}")
        return s

    def cancel_unfinished(self):
        """Marks every job not done or failed as cancelled (the batch was interrupted)."""
        for s in self.states.values():
            if s.status not in (DONE, FAILED):
                s.status = CANCELLED

#: The columns of ``summary.csv``, in order (docs/batch.md describes each).
COLUMNS = (
    "job", "scene", "overrides", "out", "status", "frames_done", "frames", "seconds",
    "seconds_per_frame", "wall_seconds", "substeps", "newton_iterations", "fallbacks", "retries",
    "recomputed", "resumed_from", "error_kind", "error",
)


def row(state):
    """The ``summary.csv`` row of a :class:`~grip.batch.report.JobState`, as a dict."""
    return {
        "job": state.job.name,
        "scene": state.job.scene,
        "overrides": " ".join(state.job.assignments()),
        "out": state.out,
        "status": state.status,
        "frames_done": state.frames_done,
        "frames": state.frames,
        "seconds": f"{state.seconds:.6f}",
        "seconds_per_frame": f"{state.seconds_per_frame:.6f}",
        "wall_seconds": f"{state.wall_seconds:.3f}",
        "substeps": state.substeps,
        "newton_iterations": state.newton_iterations,
        "fallbacks": state.fallbacks,
        "retries": state.retries,
        "recomputed": state.recomputed,
        "resumed_from": " ".join(str(f) for f in state.resumed_from),
        "error_kind": state.error_kind,
        "error": state.error,
    }


def write_summary(states, path):
    """Writes ``summary.csv`` at ``path``: the header :data:`COLUMNS`, then a row per job."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        for state in states:
            writer.writerow(row(state))


def read_summary(path):
    """The rows of a ``summary.csv`` as dicts of str."""
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@dataclass
class BatchResult:
    """A finished batch: ``jobs`` maps job names to their
    :class:`~grip.batch.report.JobState`, in batch order; ``out`` is the batch directory,
    ``summary`` the path of its ``summary.csv``, ``seconds`` the batch's wall-clock time."""

    jobs: dict
    out: str
    summary: str
    seconds: float

    @property
    def ok(self):
        """True when every job is done."""
        return all(s.status == DONE for s in self.jobs.values())

    @property
    def failed(self):
        """The states of the jobs that did not finish (failed or cancelled)."""
        return [s for s in self.jobs.values() if s.status != DONE]
