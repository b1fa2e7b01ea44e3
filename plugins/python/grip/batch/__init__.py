# SPDX-License-Identifier: MIT
"""grip.batch: wedges and shot batches of grip scene files on Dask distributed, resumable.

A job is a scene file plus overrides (``KEY=VALUE``, any scene key); a wedge is the product of
override lists over one scene; a batch of shots is a list of scene files. Each job runs as a
chain of Dask tasks, one per chunk of frames, each a :func:`grip.bake` that checkpoints every
frame into the job's directory: a task whose worker dies runs again elsewhere and resumes from
the last checkpoint, and the job's frames are bit for bit those of an uninterrupted bake::

    from grip import batch
    jobs = batch.wedge("scene.toml", {"solver.default_friction": [0.1, 0.3],
                                      "object.cloth.density": [200, 300]})
    result = batch.run(jobs, "out/wedge", workers=2)       # a LocalCluster; or scheduler=...
    print(result.ok, result.summary)                       # out/wedge/summary.csv

The command line is ``python -m grip.batch`` (``--help``); docs/batch.md describes both. Dask
(``plugins/python/requirements-batch.txt``) is imported only when a batch runs: ``import grip``
never needs it, and neither do the job lists here."""

from .jobs import Job, read_jobs_csv, shots, wedge, write_jobs_csv
from .report import CANCELLED, COLUMNS, DONE, FAILED, BatchResult, JobState, Progress, read_summary, write_summary
from .runner import chunk_ends, client_for, run, task_key
from .worker import BakeFailed, Chunk, ChunkResult, run_chunk

__all__ = [
    "Job", "read_jobs_csv", "shots", "wedge", "write_jobs_csv", "CANCELLED", "DONE", "FAILED",
    "JobState", "Progress", "chunk_ends", "run", "task_key", "COLUMNS", "BatchResult",
    "read_summary", "write_summary", "client_for", "BakeFailed", "Chunk", "ChunkResult", "run_chunk",
]
