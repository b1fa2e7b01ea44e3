#!/usr/bin/env python3
"""Runs a scene file through grip.SceneSolver and prints every object's positions after every
frame in the format of tests/c_scene/scene_run.c ("object <index> <name> <id>", then
"p <frame> <index> x0 y0 z0 ..." with repr(): floats round-trip exactly). Also checks that a bad
frame is refused and changes nothing. Run by tests/scene_api.rs.

Usage: scene_run.py SCENE.toml"""

import sys

import grip

with grip.SceneSolver(sys.argv[1]) as scene:
    objects = scene.objects
    for index, (name, object_id) in enumerate(objects.items()):
        print(f"object {index} {name} {object_id}")
    first = next(iter(objects.values()))
    before = scene.positions(first)
    for bad in (0, scene.frame_count + 1):
        try:
            scene.advance_frame(bad)
            raise SystemExit(f"frame {bad} was not refused")
        except grip.InvalidArgumentError as e:
            assert "out of range" in str(e), e
    assert (scene.positions(first) == before).all(), "a refused frame changed the positions"
    assert scene.fps > 0
    for frame in range(1, scene.frame_count + 1):
        scene.advance_frame(frame)
        for index, object_id in enumerate(objects.values()):
            xyz = scene.positions(object_id).ravel()
            print(f"p {frame} {index} " + " ".join(repr(float(x)) for x in xyz))
print("Python scene: OK")
