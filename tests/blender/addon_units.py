"""The add-on's bpy-free modules, from the installed extension: PC2 writing (against the
format's spec), the barycentric embedding of soft-body surfaces, collider orientation, pair
friction, and the bake worker's guarantee that it never imports bpy."""

import ast
import importlib.util
import os
import struct
import sys

import bpy  # noqa: F401  (the extension's package needs Blender)
import numpy as np

import harness

checks = harness.Checks("addon_units")
args = harness.arguments()
addon = harness.install_extension(checks, args.zip)
os.makedirs(args.out, exist_ok=True)

# -- PC2 ----------------------------------------------------------------------------------------
path = os.path.join(args.out, "t.pc2")
rng = np.random.default_rng(7)
frames = rng.normal(size=(3, 5, 3))
with addon.pc2.PC2Writer(path, 5, start_frame=11) as w:
    for i, f in enumerate(frames):
        w.append(f)
        start, sampling, samples = harness.read_pc2(path)
        checks.check(len(samples) == i + 1, f"PC2 is valid after {i + 1} frame(s)")
raw = open(path, "rb").read()
checks.check(raw[:12] == b"POINTCACHE2\0" and struct.unpack("<iiffi", raw[12:32]) == (1, 5, 11.0, 1.0, 3),
             "PC2 header: signature, version 1, 5 vertices, start 11, sampling 1, 3 samples")
checks.check(len(raw) == 32 + 3 * 5 * 12 and np.array_equal(samples, frames.astype("<f4")),
             "PC2 samples are little-endian float32 in order")
try:
    addon.pc2.PC2Writer(path, 5, 0).append(np.zeros((4, 3)))
    checks.check(False, "a sample of the wrong size is refused")
except ValueError:
    checks.check(True, "a sample of the wrong size is refused")

# -- embedding ----------------------------------------------------------------------------------
# A unit cube split into 6 tets around its diagonal 0–7 (all positively oriented).
P = np.array([[x, y, z] for z in (0, 1) for y in (0, 1) for x in (0, 1)], dtype=float)
T = np.array([[0, 1, 3, 7], [0, 3, 2, 7], [0, 2, 6, 7], [0, 6, 4, 7], [0, 4, 5, 7], [0, 5, 1, 7]])
vol = np.linalg.det(P[T[:, 1:]] - P[T[:, :1]]) / 6
checks.check(np.all(vol > 0) and abs(vol.sum() - 1) < 1e-12, "test tets fill the cube")
inside = rng.uniform(0.02, 0.98, size=(200, 3))
outside = np.array([[1.01, 0.5, 0.5], [0.5, -0.01, 0.2], [1.005, 1.005, 1.005]])
points = np.concatenate([inside, P, outside])
emb = addon.embedding.Embedding(P, T, points)
checks.check(np.abs(emb.apply(P) - points).max() < 1e-12, "the embedding reproduces every point at rest")
checks.check(np.all(emb.weights[:len(inside)].min(axis=1) >= -1e-12), "inside points get an enclosing tet")
A = np.array([[1.2, 0.3, 0.0], [-0.2, 0.9, 0.1], [0.0, 0.4, 1.1]])
b = np.array([0.5, -2.0, 3.0])
moved = emb.apply(P @ A.T + b)
checks.check(np.abs(moved - (points @ A.T + b)).max() < 1e-12,
             "under an affine motion of the tets the points move affinely (outside ones included)")
checks.check(np.array_equal(emb.nearest[len(inside):len(inside) + 8], np.arange(8)),
             "the nearest tet vertex of a tet vertex is itself")

# -- collider orientation and friction ------------------------------------------------------------
cube_tris = np.array([[0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
                      [2, 6, 7], [2, 7, 3], [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5]], dtype=np.uint32)
capture = addon.capture
checks.check(capture.is_closed(cube_tris) and abs(capture.signed_volume(P, cube_tris) - 1) < 1e-12,
             "the test cube is closed and faces outward")
flipped = cube_tris[:, ::-1]
checks.check(np.array_equal(capture.outward(P, flipped), cube_tris), "an inward closed collider is flipped outward")
checks.check(capture.outward(P, cube_tris) is cube_tris, "an outward one is left as is")
mixed = cube_tris.copy()
mixed[[1, 4, 5, 9]] = mixed[[1, 4, 5, 9]][:, ::-1]  # faces of mixed winding, as imported meshes have
checks.check(np.array_equal(capture.outward(P, mixed), cube_tris), "a closed collider of mixed winding faces outward")
two = np.concatenate([cube_tris, flipped + 8])  # two closed parts, the second wound inward
both = capture.outward(np.concatenate([P, P + 3.0]), two)
checks.check(np.array_equal(both, np.concatenate([cube_tris, cube_tris + 8])), "each closed part faces outward")
open_mesh = flipped[:-2]
checks.check(capture.outward(P, open_mesh) is open_mesh, "an open collider keeps its winding")
# Each object gets its own μ; the library gives a pair the geometric mean of its two.
job = addon.bake_job
grip = addon.grip
square = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], dtype=float)
square_tris = np.array([[0, 1, 2], [2, 1, 3]], dtype=np.uint32)
with grip.Solver(library=grip.load(addon.bake_session.library_path())) as solver:
    def cloth(mu):
        setup = job.BodySetup(name="cloth", kind="CLOTH", rest=square, triangles=square_tris,
                              pinned=np.zeros(4, dtype=bool), material={}, friction=mu, tet_size=0.1,
                              pc2_path="", world_to_local=np.eye(4))
        return job._Body(setup, solver, None).id

    def collider(mu):
        return job.add_collider(solver, job.ColliderSetup(name="floor", positions=square - [0, 0, 1],
                                                          triangles=square_tris, friction=mu))

    a, b, floor, ice = cloth(0.4), cloth(0.1), collider(0.9), collider(0.0)
    checks.check(abs(solver.friction(a, floor) - 0.6) < 1e-15 and solver.friction(floor, a) == solver.friction(a, floor),
                 f"a cloth–collider pair has the geometric mean of the two μ: {solver.friction(a, floor)}")
    checks.check(abs(solver.friction(a, b) - 0.2) < 1e-15, "so does a pair of cloths")
    checks.check(solver.friction(a, a) == 0.4, "a cloth with itself has its own μ")
    checks.check(solver.friction(a, ice) == 0.0 and solver.friction(b, ice) == 0.0,
                 "a frictionless collider is frictionless against every body")

# -- the status line of a bake that needed fallbacks -------------------------------------------------
setup = job.BakeSetup(library_path="", params={}, frame_start=1, frame_end=9, frame_duration=1 / 24, bodies=[],
                      colliders=[])
worker = job.BakeJob(setup)
plain = job.FrameReport(substeps=10, newton_iterations=40, active_contacts=3, fallbacks=0, fallback_message="")
checks.check(worker.fallback_summary() == "", "no frame yet: no note")
worker.reports = [plain, plain]
checks.check(worker.fallback_summary() == "", "frames without fallbacks: no note")
hard = job.FrameReport(10, 400, 3, 2, "Sleeve failed to converge near (0.012, -0.034, 0.250) m at frame 4; "
                                      "fallback: frictionless substep")
worker.reports = [plain, plain, hard, plain, hard]
note = worker.fallback_summary()
checks.check(note == "; 2 hard frames continued with a fallback (4, 6; see the console), the last: Sleeve failed "
                     "to converge near (0.012, -0.034, 0.250) m at frame 4; fallback: frictionless substep", note)

# -- the status line of a bake where colliders pinched the cloth -------------------------------------
worker.reports = [plain, plain]
checks.check(worker.pinch_summary() == "", "frames without pinches: no note")
pinched = job.FrameReport(10, 40, 3, 0, "", 12, "Sleeve is pinched between Arm and itself near (0.100, 0.000, "
                          "0.300) m at frame 3 (12 vertices pinched): the surfaces are 1.0 mm apart, under the contact "
                          "thickness 2.0 mm; the cloth is kept between them: open the gap or thin the contact layer to free it")
worker.reports = [plain, pinched]
note = worker.pinch_summary()
checks.check(note.startswith("; 1 frame with the cloth pinched between colliders (3; see the console), the last: "
                             "Sleeve is pinched between Arm and itself near"), note)

# -- the manifest rules of build_extension.py ------------------------------------------------------
spec = importlib.util.spec_from_file_location("build_extension", os.path.join("plugins", "blender",
                                                                               "build_extension.py"))
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)
manifest = build.parse_toml(open(os.path.join("plugins", "blender", "blender_manifest.toml"), encoding="utf-8").read())
checks.check(build.manifest_errors(manifest) == [], f"the add-on's manifest is valid: {build.manifest_errors(manifest)}")
broken = {
    "id": "grip-physics", "version": "1.0", "tagline": "Cloth.", "type": "script", "license": ["MIT"],
    "blender_version_min": "4.2", "platforms": ["linux-x86"], "permissions": {"files": "x" * 65, "disk": "y"},
}
for key, value in broken.items():
    errors = build.manifest_errors({**manifest, key: value})
    checks.check(len(errors) == (2 if key == "permissions" else 1) and all(key in e for e in errors),
                 f"a manifest with {key} = {value!r:.30} is refused: {errors}")
missing = {k: v for k, v in manifest.items() if k != "maintainer"}
checks.check(build.manifest_errors(missing) == ["missing field 'maintainer'"], "a missing field is refused")
toml_text = open(os.path.join("plugins", "blender", "blender_manifest.toml"), encoding="utf-8").read()
tomllib, sys.modules["tomllib"] = sys.modules.get("tomllib"), None  # the parser of Pythons before 3.11
try:
    checks.check(build.parse_toml(toml_text) == manifest, "the fallback TOML reader reads the manifest as tomllib does")
finally:
    sys.modules["tomllib"] = tomllib

# -- the worker never touches bpy ------------------------------------------------------------------
for module in ("bake_job", "embedding", "pc2"):
    source = open(os.path.join(os.path.dirname(addon.__file__), module + ".py"), encoding="utf-8").read()
    imported = {alias.name.split(".")[0] for node in ast.walk(ast.parse(source))
                if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.ImportFrom) and node.module}
    checks.check(not imported & {"bpy", "bmesh", "mathutils"}, f"{module}.py imports no Blender module")
checks.finish()
