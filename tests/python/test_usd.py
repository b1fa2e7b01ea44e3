"""The USD file of a grip bake, as usd-core reads it (run by tests/usd_output.rs).

    python tests/python/test_usd.py --usd FILE.usda --objs OUT_DIR --root PRIM --fps 24 --up Z \
        --last 4 --object STEM:PRIM:KIND [--object ...]

Checks the stage metadata (metersPerUnit, upAxis, time codes, defaultPrim), then for every
object (KIND shell, solid or collider) its Mesh prim against the OBJ files STEM_<frame:04>.obj
in OUT_DIR: topology, the time samples 0..last of points (equal to the OBJ positions rounded to
float32, exactly) and extent (the box of those points), and finally runs usd-core's validators
(the UsdValidation framework of `usdchecker`; usd-core 26.11 no longer has
UsdUtils.ComplianceChecker) and asserts that they report no error.
"""

import argparse
import sys
import unittest

import numpy
from pxr import Sdf, Usd, UsdGeom

ARGS = None


def read_obj(path):
    """Positions (float64, n x 3) and 0-based triangles (n x 3) of an OBJ file grip wrote."""
    points, faces = [], []
    with open(path) as f:
        for line in f:
            tokens = line.split()
            if tokens and tokens[0] == "v":
                points.append([float(t) for t in tokens[1:4]])
            elif tokens and tokens[0] == "f":
                corners = [int(t.split("/")[0]) - 1 for t in tokens[1:]]
                faces.extend([corners[0], corners[k], corners[k + 1]] for k in range(1, len(corners) - 1))
    return numpy.array(points, dtype=numpy.float64), numpy.array(faces, dtype=numpy.int64)


def obj_path(stem, frame):
    return f"{ARGS.objs}/{stem}_{frame:04d}.obj"


class UsdOfABake(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stage = Usd.Stage.Open(ARGS.usd)
        cls.frames = list(range(ARGS.last + 1))
        cls.objects = [o.split(":") for o in ARGS.object]

    def mesh(self, prim_name):
        prim = self.stage.GetPrimAtPath(Sdf.Path(f"/{ARGS.root}/{prim_name}"))
        self.assertTrue(prim.IsValid(), f"no prim /{ARGS.root}/{prim_name}")
        self.assertEqual(prim.GetTypeName(), "Mesh")
        return UsdGeom.Mesh(prim)

    def test_stage_metadata(self):
        stage = self.stage
        self.assertEqual(UsdGeom.GetStageMetersPerUnit(stage), 1.0)
        self.assertTrue(UsdGeom.StageHasAuthoredMetersPerUnit(stage))
        self.assertEqual(UsdGeom.GetStageUpAxis(stage), ARGS.up)
        self.assertEqual(stage.GetTimeCodesPerSecond(), ARGS.fps)
        self.assertEqual(stage.GetFramesPerSecond(), ARGS.fps)
        self.assertEqual(stage.GetStartTimeCode(), 0.0)
        self.assertEqual(stage.GetEndTimeCode(), float(ARGS.last))
        root = stage.GetDefaultPrim()
        self.assertTrue(root.IsValid(), "no defaultPrim")
        self.assertEqual(root.GetName(), ARGS.root)
        self.assertEqual(root.GetTypeName(), "Xform")
        self.assertIn("grip", stage.GetRootLayer().documentation)
        meshes = [p.GetName() for p in stage.Traverse() if p.GetTypeName() == "Mesh"]
        self.assertEqual(sorted(meshes), sorted(prim for _, prim, _ in self.objects))

    def test_topology_equals_the_obj_files(self):
        for stem, prim, kind in self.objects:
            with self.subTest(object=stem):
                mesh = self.mesh(prim)
                points, faces = read_obj(obj_path(stem, 0))
                counts = numpy.array(mesh.GetFaceVertexCountsAttr().Get())
                indices = numpy.array(mesh.GetFaceVertexIndicesAttr().Get())
                self.assertEqual(len(counts), len(faces))
                self.assertTrue((counts == 3).all())
                numpy.testing.assert_array_equal(indices, faces.reshape(-1))
                self.assertEqual(mesh.GetSubdivisionSchemeAttr().Get(), "none")
                self.assertEqual(mesh.GetOrientationAttr().Get(), "rightHanded")
                self.assertEqual(mesh.GetDoubleSidedAttr().Get(), kind == "shell")
                # Topology is written once, not per frame.
                self.assertEqual(mesh.GetFaceVertexIndicesAttr().GetNumTimeSamples(), 0)

    def test_points_and_extent_at_every_frame(self):
        for stem, prim, _ in self.objects:
            with self.subTest(object=stem):
                mesh = self.mesh(prim)
                points_attr, extent_attr = mesh.GetPointsAttr(), mesh.GetExtentAttr()
                self.assertEqual(points_attr.GetTypeName(), Sdf.ValueTypeNames.Point3fArray)
                self.assertEqual(points_attr.GetTimeSamples(), [float(f) for f in self.frames])
                self.assertEqual(extent_attr.GetTimeSamples(), [float(f) for f in self.frames])
                for frame in self.frames:
                    want, _ = read_obj(obj_path(stem, frame))
                    got = numpy.array(points_attr.Get(frame), dtype=numpy.float32)
                    self.assertEqual(got.shape, want.shape, f"frame {frame}")
                    numpy.testing.assert_array_equal(got, numpy.float32(want), f"frame {frame}")
                    extent = numpy.array(extent_attr.Get(frame), dtype=numpy.float32)
                    self.assertTrue((extent[0] <= got).all() and (got <= extent[1]).all(), f"frame {frame}")
                    numpy.testing.assert_array_equal(extent, [got.min(axis=0), got.max(axis=0)])
                    # UsdGeom computes the same extent from the points.
                    computed = UsdGeom.PointBased.ComputeExtent(points_attr.Get(frame))
                    numpy.testing.assert_array_equal(numpy.array(computed, dtype=numpy.float32), extent)

    def test_usd_validators_report_no_error(self):
        from pxr import UsdValidation

        validators = UsdValidation.ValidationRegistry().GetOrLoadAllValidators()
        self.assertGreater(len(validators), 0)
        errors = UsdValidation.ValidationContext(validators).Validate(self.stage)
        for e in errors:
            print(f"validator: {e.GetType()} {e.GetName()}: {e.GetMessage()}")
        failing = [e for e in errors if e.GetType() == UsdValidation.ValidationErrorType.Error]
        self.assertEqual(failing, [], "\n".join(e.GetMessage() for e in failing))
        print(f"usd validators: {len(validators)} run, {len(errors)} findings, no error")


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--usd", required=True)
    parser.add_argument("--objs", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--fps", type=float, required=True)
    parser.add_argument("--up", choices=["Y", "Z"], required=True)
    parser.add_argument("--last", type=int, required=True)
    parser.add_argument("--object", action="append", required=True, help="STEM:PRIM:shell|solid|collider")
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
