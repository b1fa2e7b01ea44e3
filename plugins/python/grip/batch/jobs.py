# SPDX-License-Identifier: MIT
"""Jobs, wedges and shot batches: what a batch runs, before anything runs.

A :class:`Job` is a scene file plus overrides, with a name that is also its output directory
under the batch's ``--out``. A wedge is the product of override lists over one scene; a batch
of shots is a list of scene files, each of which may be wedged the same way. Names are stable
for the same inputs: ``<scene name>-<k>`` for the k-th wedge combination (k from 0, zero-padded,
the last list varying fastest, as Houdini's Wedge TOP counts), ``<scene name>`` for a scene run
once; the scene name is the file's ``[output] name``, else its stem. ``jobs.csv`` maps names to
overrides."""

import csv
import itertools
import os
import re
import tomllib
from dataclasses import dataclass

from . import overrides as ov

#: ``[output] frames`` when a scene file leaves it out (docs/scene-file.md).
DEFAULT_FRAMES = 48


@dataclass(frozen=True)
class Job:
    """One bake: ``scene`` (absolute path of the TOML file) with ``overrides``, a tuple of
    ``(key, value_text)`` pairs (:mod:`grip.batch.overrides`), into ``<batch out>/<name>``."""

    name: str
    scene: str
    overrides: tuple = ()

    def assignments(self):
        """The overrides as ``["KEY=VALUE", ...]``, as ``grip run --set`` takes them."""
        return ov.assignments(self.overrides)

    def frames(self, frames=None):
        """The last frame this job simulates: ``frames`` if given, else its ``output.frames``
        override, else the scene file's ``[output] frames`` (48 if the file leaves it out).
        Reads the scene file; an unreadable file or value leaves the error to grip (the job
        fails with grip's message) and counts the default here."""
        if frames is not None:
            return int(frames)
        for key, text in self.overrides:
            if key == "output.frames":
                try:
                    return int(tomllib.loads(f"v = {text}")["v"])
                except (tomllib.TOMLDecodeError, TypeError, ValueError):
                    return DEFAULT_FRAMES
        output = _read_scene(self.scene).get("output", {})
        value = output.get("frames", DEFAULT_FRAMES) if isinstance(output, dict) else DEFAULT_FRAMES
        return value if isinstance(value, int) and not isinstance(value, bool) else DEFAULT_FRAMES


def _read_scene(path):
    """The parsed scene file, or {} when it cannot be read (grip reports that, per job)."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def scene_name(path):
    """The scene's name as grip uses it: ``[output] name``, else the file's stem."""
    output = _read_scene(path).get("output", {})
    name = output.get("name") if isinstance(output, dict) else None
    return name if isinstance(name, str) and name else os.path.splitext(os.path.basename(path))[0]


def safe_name(text):
    """``text`` as a directory name: characters other than letters, digits, ``.``, ``_`` and
    ``-`` become ``_``; never empty or starting with a dot."""
    name = re.sub(r"[^A-Za-z0-9._\-]", "_", text).lstrip(".")
    return name or "job"


def wedge_lists(sets):
    """Override lists as ``[(key, [value_text, ...]), ...]`` in order, from a mapping
    ``{key: value or [values]}`` (Python values) or a sequence of ``"KEY=V1,V2,..."`` strings.
    A key given twice raises ValueError."""
    if sets is None:
        return []
    if isinstance(sets, str):
        raise TypeError("sets must be a mapping or a sequence of 'KEY=V1,V2' strings, not a str")
    if hasattr(sets, "items"):
        lists = []
        for key, values in sets.items():
            values = list(values) if isinstance(values, (list, tuple)) else [values]
            if not values:
                raise ValueError(f"{key}: empty list of values")
            texts = [ov.check_value_text(ov.value_text(v), key) for v in values]
            lists.append((ov.check_key(key), texts))
    else:
        lists = [ov.parse_wedge_assignment(s) for s in sets]
    keys = [k for k, _ in lists]
    for key in keys:
        if keys.count(key) > 1:
            raise ValueError(f"override key {key!r} given twice")
    return lists


def wedge(scene, sets=None, *, name=None):
    """The jobs of the wedge over ``scene``: one per combination of the value lists in
    ``sets`` (see :func:`wedge_lists`), named ``<name>-<k>`` (``name``: the scene's name by
    default). Lists of one value apply to every job; with no list of several values the wedge is
    a single job named ``<name>``."""
    scene = os.path.abspath(os.fspath(scene))
    base = safe_name(name if name is not None else scene_name(scene))
    lists = wedge_lists(sets)
    keys = [k for k, _ in lists]
    combos = list(itertools.product(*(values for _, values in lists)))
    if len(combos) == 1:
        return [Job(base, scene, tuple(zip(keys, combos[0])))]
    width = len(str(len(combos) - 1))
    return [Job(f"{base}-{k:0{width}d}", scene, tuple(zip(keys, combo))) for k, combo in enumerate(combos)]


def shots(scenes, sets=None):
    """The jobs of a batch of scene files, each wedged over ``sets`` (:func:`wedge`). Two scenes
    of one name get ``_2``, ``_3``, ... after the later ones, so every job has its own
    directory."""
    jobs, used = [], {}
    for scene in scenes:
        base = safe_name(scene_name(os.path.abspath(os.fspath(scene))))
        used[base] = used.get(base, 0) + 1
        if used[base] > 1:
            base = f"{base}_{used[base]}"
        jobs.extend(wedge(scene, sets, name=base))
    check_unique(jobs)
    return jobs


def check_unique(jobs):
    """Raises ValueError when two jobs share a name (they would share an output directory)."""
    seen = set()
    for job in jobs:
        if job.name in seen:
            raise ValueError(f"two jobs are named {job.name!r}; names must be unique")
        seen.add(job.name)


def write_jobs_csv(jobs, path):
    """Writes ``jobs.csv``: a row per job with its name, scene file and one column per override
    key (every key of any job, in first-seen order; empty where a job leaves a key out)."""
    keys = []
    for job in jobs:
        keys.extend(k for k, _ in job.overrides if k not in keys)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["job", "scene", *keys])
        for job in jobs:
            values = dict(job.overrides)
            writer.writerow([job.name, job.scene, *(values.get(k, "") for k in keys)])


def read_jobs_csv(path):
    """The jobs of a ``jobs.csv`` (:func:`write_jobs_csv`; hand-written ones too): empty cells
    are keys the job leaves out. Lets a batch run any list of jobs, not only a product."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0][:2] != ["job", "scene"]:
        raise ValueError(f"{path}: the first row must start with the columns job,scene")
    keys = [ov.check_key(k) for k in rows[0][2:]]
    base = os.path.dirname(os.path.abspath(path))
    jobs = []
    for row in rows[1:]:
        if not any(cell.strip() for cell in row):
            continue
        name, scene, *values = row + [""] * (len(keys) + 2 - len(row))
        pairs = tuple((k, ov.check_value_text(v, k)) for k, v in zip(keys, values) if v.strip())
        jobs.append(Job(safe_name(name.strip()), os.path.join(base, scene.strip()), pairs))
    check_unique(jobs)
    return jobs
