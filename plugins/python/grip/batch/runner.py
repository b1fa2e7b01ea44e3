# SPDX-License-Identifier: MIT
"""The client side of a batch: every job becomes a chain of Dask tasks, one per chunk of frames
(:func:`grip.batch.worker.run_chunk`), submitted at once; results are taken as they complete,
progress is reported per job, and ``summary.csv`` is written at the end.

Task keys read ``grip:<job>-<last frame>-<run>`` with the job's ``-`` written ``_``: Dask's
dashboard groups keys by their leading words (``dask.utils.key_split``), so its Progress panel
shows one bar per job. A job's later chunks have a higher priority than first chunks, so a free
worker carries a started job on before it starts a new one. Solver failures are deterministic
and never retried; a task whose worker died is Dask's to run again (``allowed_failures``), and
it resumes from the job's last checkpoint.

The cluster is a ``LocalCluster`` of worker processes on this machine, or any running scheduler
by address (``tcp://host:8786``), which is how the same batch reaches a SLURM/PBS cluster
(dask-jobqueue) or Kubernetes (dask-kubernetes): start that cluster and pass its scheduler's
address or a client of it (docs/batch.md)."""

import contextlib
import os
import secrets
import time

from .jobs import check_unique, write_jobs_csv
from .report import BatchResult, JobState, Progress, write_summary
from .worker import BakeFailed, Chunk, run_chunk


def cpu_count():
    """Cores this process may use (its CPU affinity where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def default_workers(threads_per_worker=1):
    """Worker processes of a local cluster by default: one per ``threads_per_worker`` cores."""
    return max(1, cpu_count() // max(1, threads_per_worker))


def default_solver_threads(workers, threads_per_worker=1, local=True):
    """Solver threads per job by default: the cores left to each task slot of a local cluster
    (at least 1), and 1 on a remote scheduler, whose machines this process cannot see. A job's
    result does not depend on its thread count."""
    if not local:
        return 1
    return max(1, cpu_count() // max(1, workers * threads_per_worker))


@contextlib.contextmanager
def client_for(scheduler=None, *, workers=None, threads_per_worker=1, dashboard=":8787",
               allowed_failures=None):
    """A ``distributed.Client``, closed on exit: of the scheduler at address ``scheduler``, or
    of a new ``LocalCluster`` with ``workers`` processes (None: :func:`default_workers`) of
    ``threads_per_worker`` threads each, its dashboard at ``dashboard`` (``":8787"``, ``":0"``
    for any free port, None for none). ``allowed_failures`` sets how often a task may lose its
    worker before it fails (Dask's ``distributed.scheduler.allowed-failures``, default 3); it
    applies to the local cluster's scheduler only, a remote scheduler keeps its own setting."""
    import dask
    from distributed import Client, LocalCluster

    config = {}
    if allowed_failures is not None:
        config["distributed.scheduler.allowed-failures"] = int(allowed_failures)
    with dask.config.set(config):
        if scheduler is not None:
            with Client(scheduler) as client:
                yield client
            return
        workers = default_workers(threads_per_worker) if workers is None else int(workers)
        # Processes, not threads: a worker that dies takes only its own jobs' tasks with it, and
        # each solver has its own process (grip's thread pool is per process).
        cluster = LocalCluster(n_workers=workers, threads_per_worker=int(threads_per_worker),
                               processes=True, dashboard_address=dashboard)
        try:
            with Client(cluster) as client:
                yield client
        finally:
            cluster.close()


def chunk_ends(frames, chunk):
    """The last frames of a job's chunks: every ``chunk`` frames, then ``frames`` itself."""
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1 frame, not {chunk}")
    ends = list(range(chunk, frames, chunk))
    return ends + [frames]


def task_key(job_name, end, run, index):
    """The Dask key of the chunk of job number ``index`` (named ``job_name``) ending at frame
    ``end`` in batch run ``run``; ``dask.utils.key_split`` of it is ``grip:<job name>`` (with
    ``_`` for ``-``), one group per job. The number keeps keys of jobs whose names differ only by
    ``-`` and ``_`` apart (they then share a dashboard bar, nothing else)."""
    return f"grip:{job_name.replace('-', '_')}-{end:05d}-{index}-{run}"


def run(jobs, out, *, client=None, scheduler=None, workers=None, threads_per_worker=1,
        dashboard=":8787", frames=None, chunk=1, usd=False, solver_threads=None, library=None,
        allowed_failures=None, log=print, on_update=None):
    """Runs ``jobs`` (:class:`~grip.batch.jobs.Job`) into the directory ``out`` (shared by the
    workers and this process) and returns a :class:`~grip.batch.report.BatchResult`; a job that
    fails does not stop the others.

    Dask: ``client`` (a ``distributed.Client``) if given, else the scheduler at address
    ``scheduler``, else a new local cluster of ``workers`` processes with ``threads_per_worker``
    threads each and its dashboard at ``dashboard`` (:func:`client_for`).
    ``frames``: every job's last frame (None: each scene's); ``chunk``: frames per task;
    ``usd``: write each job's USD file; ``solver_threads``: ``solver.worker_count`` of every job
    that does not set it (None: the cores per task slot on a local cluster, else 1);
    ``library``: the grip library's path on the workers. ``log`` takes each progress line (None:
    silent); ``on_update(progress, client)`` is called after every completed task with the
    :class:`~grip.batch.report.Progress`."""
    jobs = list(jobs)
    check_unique(jobs)
    out = os.path.abspath(os.fspath(out))
    os.makedirs(out, exist_ok=True)
    write_jobs_csv(jobs, os.path.join(out, "jobs.csv"))
    states = [JobState(job, job.frames(frames), os.path.join(out, job.name)) for job in jobs]
    if client is not None:
        return _run(states, client, out, chunk, usd, solver_threads or 1, library, log, on_update)
    local = scheduler is None
    n = (workers or default_workers(threads_per_worker)) if local else 1
    threads = solver_threads or default_solver_threads(n, threads_per_worker, local)
    with client_for(scheduler, workers=workers, threads_per_worker=threads_per_worker,
                    dashboard=dashboard, allowed_failures=allowed_failures) as own:
        return _run(states, own, out, chunk, usd, threads, library, log, on_update,
                    dashboard_on=not local or dashboard is not None)


def _where(client, dashboard_on):
    """The scheduler's address and its dashboard's link, when it runs one."""
    services = client.scheduler_info().get("services", {})
    board = f"dashboard {client.dashboard_link}" if dashboard_on and "dashboard" in services else "no dashboard"
    return f"scheduler {client.scheduler.address}, {board}"


def _run(states, client, out, chunk, usd, solver_threads, library, log, on_update, dashboard_on=True):
    started = time.monotonic()
    progress = Progress(states, log)
    if log:
        log(f"grip.batch: {len(states)} jobs, {progress.total_frames} frames, into {out}; "
            f"{_where(client, dashboard_on)}")
    run_id = secrets.token_hex(3)
    owner, futures = {}, []
    for job_index, state in enumerate(states):
        previous = None
        for index, end in enumerate(chunk_ends(state.frames, chunk)):
            task = Chunk(state.job, state.out, run_id, end, state.frames, usd, solver_threads, library)
            previous = client.submit(run_chunk, task, previous, key=task_key(state.job.name, end, run_id, job_index),
                                     priority=1 if index else 0, retries=0, pure=False)
            owner[previous.key] = state.job.name
            futures.append(previous)
    from distributed import as_completed

    try:
        completed = as_completed(futures)
        for future in completed:
            if future.status == "finished":
                progress.chunk_done(future.result())
                # Read: Dask may forget it once the next chunk has it, and need not compute it
                # again when a worker holding it dies.
                future.release()
            elif future.status in ("lost", "pending"):
                # Finished, then lost with its worker before it was read: Dask computes it again.
                completed.add(future)
                continue
            elif future.status == "cancelled":
                progress.failed(owner[future.key], "cancelled", "CancelledError")
            else:
                error = future.exception()
                if isinstance(error, BakeFailed):
                    progress.failed(error.job, error.message, error.kind)
                else:
                    # Not grip's: a task that lost too many workers (KilledWorker), a disk error.
                    progress.failed(owner[future.key], f"{type(error).__name__}: {error}", type(error).__name__)
            if on_update is not None:
                on_update(progress, client)
    except BaseException:
        client.cancel(futures)
        progress.cancel_unfinished()
        write_summary(progress.states.values(), os.path.join(out, "summary.csv"))
        raise
    summary = os.path.join(out, "summary.csv")
    write_summary(progress.states.values(), summary)
    result = BatchResult(progress.states, out, summary, time.monotonic() - started)
    if log:
        failed = len(result.failed)
        log(f"grip.batch: {len(states) - failed} of {len(states)} jobs done, {failed} failed, "
            f"in {result.seconds:.1f} s; summary in {summary}")
    return result
