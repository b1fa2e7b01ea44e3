//! The simulated surfaces' triangles against collider meshes' corners
//! ([`crate::contact::collider_mesh::corners`]): the vertex–triangle pair penalty (`crate::contact::pair`),
//! W = w b(g) (paper Eq. 3 on the point–triangle gap), with g
//! signed by the corner's pseudonormal ([`SolidSide::vertex`]) and w the corner's weight. It
//! keeps a box's corner from poking up through the middle of a cloth triangle draped over it,
//! which neither vertex contact (the triangle's vertices are all outside) nor ridge contact
//! (no edge of the triangle is cut) sees. The pairs carry lagged friction with the μ of the
//! triangle's object and the mesh; gathering, sums and derivatives are
//! [`super::mesh_features`]'.
//!
//! Each triangle's corners are gathered around its centroid, within its circumradius about
//! the centroid plus δ and the padding.

use super::mesh_features::{FeaturePairs, Features};
use super::stage::{StageMesh, SurfacePrimitives};
use crate::contact::pair::{PrimitivePair, SolidSide, VertexTriangle};
use crate::contact::ContactLaw;
use crate::energy::gather;
use crate::math::real::{cross, dot, scale, sub};

/// Simulated triangles against corners: the corner in slot 0, the triangle in 1–3.
pub struct CornerFeatures;

/// The corner pairs of one stage.
pub type MeshCorners = FeaturePairs<CornerFeatures, 3, 9>;

impl Features<3> for CornerFeatures {
    const FIRST_SLOT: usize = 1;

    fn primitives(surface: &SurfacePrimitives) -> (&[[u32; 3]], &[f64]) {
        (&surface.triangles, &surface.triangle_mu)
    }

    fn present(mesh: &StageMesh) -> bool {
        !mesh.stage.corners.list.is_empty()
    }

    /// The corner pairs of triangle `k` at positions `q` (m): every corner of `meshes` within
    /// `reach` (m) of the triangle, in front of it or poked through it. A pair deeper than the
    /// reach is left out: the penalty acts from δ, so a real poke is shallow (1.1 mm through a
    /// 2.5 cm triangle over a box's corner before these pairs), while a triangle folded around
    /// the box's vertical edge just below the corner faces it from 15–35 mm away with the
    /// corner on its inner side, and pushing it out along its own normal from there sent
    /// Newton's steps to 90 m/s.
    fn pairs_of(k: usize, meshes: &[StageMesh], law: &ContactLaw, q: &[f64], reach: f64) -> Vec<PrimitivePair> {
        let triangle = meshes[0].surface.triangles[k];
        let [a, b, c] = triangle.map(|v| [0, 1, 2].map(|i| q[3 * v as usize + i]));
        let normal = cross(sub(b, a), sub(c, a));
        let area2 = dot(normal, normal).sqrt();
        if !(area2 > 0.0) {
            return Vec::new();
        }
        let shell_normal = scale(1.0 / area2, normal);
        let centroid = [0, 1, 2].map(|i| (a[i] + b[i] + c[i]) / 3.0);
        let from = |p: [f64; 3], o: [f64; 3]| dot(sub(p, o), sub(p, o)).sqrt();
        let radius = [a, b, c].iter().map(|&p| from(p, centroid)).fold(0.0, f64::max);
        let mut out = Vec::new();
        for mesh in meshes {
            let corners = &mesh.stage.corners;
            if corners.list.is_empty() {
                continue;
            }
            let near = mesh.search.within(&mesh.topology, &mesh.stage, centroid, radius + reach);
            for i in corners.on(&mesh.topology, &near) {
                let corner = &corners.list[i as usize];
                let weighted = ContactLaw { kappa: law.kappa * corner.weight, ..*law };
                let vertex = corner.vertex + mesh.first_vertex;
                let pair = PrimitivePair {
                    mu: mesh.surface.triangle_mu[k],
                    outward: Some(SolidSide::vertex(corner.normal, shell_normal)),
                    ..PrimitivePair::vertex_triangle(VertexTriangle { vertex, triangle }, weighted)
                };
                let gap = pair.distance(&gather::<12>(&pair.vertices, q));
                if gap.abs() < reach {
                    out.push(pair);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::mesh_features::testing::{law, stage};
    use super::super::{ContactKind, ContactTerm, JacobianStage};
    use super::*;
    use crate::assemble::term::Term;
    use crate::contact::collider_mesh::{MeshGeometry, MeshSearch, MeshTopology};
    use crate::energy::Element;
    use std::sync::Arc;

    /// An octagonal prism (vertices 0–15) and a 2 cm triangle (vertices 16–18) across the
    /// pseudonormal of its first corner, centred `height` (m) out along it, with the corner's
    /// pseudonormal.
    fn scene(height: f64) -> (Vec<StageMesh>, Vec<f64>, [f64; 3]) {
        let (p, t) = crate::mesh::shapes::prism(0.1, -0.5, 0.5, 8);
        let points = crate::mesh::triples(&p);
        let topology = Arc::new(MeshTopology::new(&points, &crate::mesh::triangle_list(&t)));
        let geometry = MeshGeometry::new(&topology, points.clone(), vec![[0.0; 3]; points.len()]);
        let corner = geometry.corners.list[0];
        let (x, n) = (points[corner.vertex as usize], corner.normal);
        // Two unit vectors across n.
        let helper = if n[0].abs() < 0.9 { [1.0, 0.0, 0.0] } else { [0.0, 1.0, 0.0] };
        let u = scale(1.0 / dot(cross(n, helper), cross(n, helper)).sqrt(), cross(n, helper));
        let w = cross(n, u);
        let centre = [0, 1, 2].map(|i| x[i] + height * n[i]);
        let mut q = p.clone();
        for (su, sw) in [(0.01, 0.0), (-0.005, 0.0087), (-0.005, -0.0087)] {
            q.extend((0..3).map(|i| centre[i] + su * u[i] + sw * w[i]));
        }
        let search = Arc::new(MeshSearch::new(&topology, &geometry, &geometry));
        let surface = Arc::new(SurfacePrimitives {
            triangles: vec![[16, 17, 18]],
            triangle_mu: vec![0.4],
            rest: Arc::new(q.clone()),
            ..SurfacePrimitives::default()
        });
        let mesh = StageMesh { topology, search, start: geometry.clone(), stage: geometry, first_vertex: 0, surface };
        (vec![mesh], q, n)
    }

    /// Vertices 0–15 (the prism) pinned, the triangle free.
    fn pinned_prism() -> Vec<bool> {
        (0..19).map(|v| v < 16).collect()
    }

    /// A triangle 1 mm outside a prism's corner has a pair with it at a positive gap; one the
    /// corner has poked 4 mm through has it too, at a negative gap; both are pushed out along
    /// the corner's pseudonormal. One the corner is 8 mm through, beyond the reach of 6 mm,
    /// has none.
    #[test]
    fn a_corner_is_found_outside_and_through_the_triangle() {
        let fixed = pinned_prism();
        let (meshes, q, _) = scene(-0.008);
        assert!(ContactTerm::new(MeshCorners::of(&stage(meshes, &fixed, &q)).unwrap(), &q, &q).candidates().is_empty());
        for (height, outside) in [(0.001, true), (-0.004, false)] {
            let (meshes, q, n) = scene(height);
            let term = ContactTerm::new(MeshCorners::of(&stage(meshes, &fixed, &q)).unwrap(), &q, &q);
            let pair = term.candidates().first().unwrap_or_else(|| panic!("height {height}: no pair"));
            let gap = pair.distance(&gather::<12>(&pair.vertices, &q));
            assert_eq!(gap > 0.0, outside, "height {height}: gap {gap}");
            assert!((gap.abs() - height.abs()).abs() < 1e-9, "height {height}: gap {gap}");
            let mut force = vec![0.0; q.len()];
            term.add_negative_force(&q, &vec![0.0; q.len()], -1.0, &mut force);
            let push: f64 = (16..19).map(|v| dot([0, 1, 2].map(|i| force[3 * v + i]), n)).sum();
            assert!(push > 0.0, "height {height}: push {push}");
        }
    }

    /// The triangle's block from nine dual directions is the whole stencil's Hessian's.
    #[test]
    fn triangle_blocks_are_the_full_hessians_blocks() {
        let fixed = pinned_prism();
        let (meshes, q, _) = scene(0.0015);
        let term = ContactTerm::new(MeshCorners::of(&stage(meshes, &fixed, &q)).unwrap(), &q, &q);
        assert!(!term.lagged().is_empty() && !term.candidates().is_empty());
        for p in term.candidates() {
            let x = gather::<12>(&p.vertices, &q);
            let (full, block) = (p.hessian(&x), MeshCorners::block_hessian(p, &x));
            for i in 3..12 {
                for j in 3..12 {
                    assert!((full[(i, j)] - block[(i, j)]).abs() <= 1e-9 * full.amax(), "H[{i},{j}]");
                }
            }
        }
    }

    /// The corner stencil's force is −∇W and its Jacobian block h²∇²W (h = 1) is the
    /// derivative of its force, both by central differences in the triangle's coordinates: at
    /// and around the corner (outside it, touching it, poked through), with the triangle slid
    /// so that the corner projects inside it, beside an edge and beside a vertex, and tilted.
    #[test]
    fn corner_force_and_jacobian_match_finite_differences_at_and_around_the_corner() {
        let fixed = pinned_prism();
        let mut checked = 0;
        for height in [0.004, 0.0015, 1e-4, -0.001, -0.004] {
            for (slide, tilt) in [([0.0, 0.0], 0.0), ([0.006, 0.0], 0.0), ([-0.011, 0.002], 0.0), ([0.002, 0.001], 0.4)]
            {
                let (meshes, mut q, n) = scene(height);
                for (i, v) in (16..19).enumerate() {
                    for k in 0..3 {
                        q[3 * v + k] += slide[0] * [1.0, 0.0, 0.0][k] + slide[1] * [0.0, 0.0, 1.0][k];
                        q[3 * v + k] += tilt * 0.01 * (i as f64 - 1.0) * n[k];
                    }
                }
                let term = ContactTerm::new(MeshCorners::of(&stage(meshes, &fixed, &q)).unwrap(), &q, &q);
                let kind = term.kind();
                let v = vec![0.0; q.len()];
                let context = JacobianStage { q_base: &q, h: 1.0, fixed: &fixed, definite: false };
                for p in term.candidates() {
                    let x = gather::<12>(&p.vertices, &q);
                    if !(p.distance(&x) < p.law.delta) {
                        continue;
                    }
                    checked += 1;
                    let (_, f) = kind.force(p, &q, &v).expect("a corner pair has a force");
                    let (_, block, factor) = kind.jacobian(p, &context, &q, &v).expect("a pair within δ has a block");
                    let block = block * factor;
                    let scale = block.amax().max(f.iter().fold(0.0f64, |m, x| m.max(x.abs())) / 1e-3);
                    let step = 1e-7;
                    for col in 3..12 {
                        let (mut qp, mut qm) = (q.clone(), q.clone());
                        let d = 3 * p.vertices[col / 3] as usize + col % 3;
                        qp[d] += step;
                        qm[d] -= step;
                        let de = (kind.energy(p, &qp) - kind.energy(p, &qm)) / (2.0 * step);
                        assert!(
                            (de + f[col]).abs() <= 1e-6 * scale * 1e-3 + 1e-9,
                            "height {height}: ∂W/∂x{col} {de} vs {}",
                            -f[col]
                        );
                        let (fp, fm) = (kind.force(p, &qp, &v).unwrap().1, kind.force(p, &qm, &v).unwrap().1);
                        for row in 3..12 {
                            let fd = -(fp[row] - fm[row]) / (2.0 * step);
                            assert!(
                                (fd - block[(row, col)]).abs() <= 1e-5 * scale,
                                "height {height} slide {slide:?}: J[{row},{col}] {} vs {fd}",
                                block[(row, col)]
                            );
                        }
                    }
                }
            }
        }
        // At every height the corner under the triangle's middle and under the tilted one (10),
        // under its edge but at the deepest poke (4), and the triangle slid off the corner at
        // the deepest poke (1).
        assert_eq!(checked, 15, "corner pairs within δ");
        assert_eq!(law().kappa, 1e4);
    }
}
