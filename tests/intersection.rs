//! The exact triangle–triangle intersection checker (`grip::mesh::intersection`) on whole
//! meshes: clean cloths and closed surfaces have no intersecting pair (neighbours sharing a
//! vertex or an edge are never reported), a sheet folded through itself has, and the grid broad
//! phase finds exactly the pairs that testing every pair finds. Run in release:
//! `cargo test --release --test intersection`.

use grip::mesh::generate::grid_cloth;
use grip::mesh::intersection::{intersecting_pairs, intersecting_pairs_between, triangles_intersect};
use grip::mesh::shapes::{icosphere, open_cylinder};
use std::time::Instant;

type Mesh = (Vec<[f64; 3]>, Vec<[u32; 3]>);

fn mesh((p, t): (Vec<f64>, Vec<u32>)) -> Mesh {
    (p.chunks_exact(3).map(|x| [x[0], x[1], x[2]]).collect(), t.chunks_exact(3).map(|x| [x[0], x[1], x[2]]).collect())
}

/// Every intersecting pair (i, j), i < j, by testing all n(n − 1)/2 pairs.
fn brute_force((p, t): &Mesh) -> Vec<(u32, u32)> {
    let n = t.len() as u32;
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .filter(|&(i, j)| triangles_intersect(p, t[i as usize], t[j as usize]))
        .collect()
}

/// A deterministic generator of uniform numbers in [0, 1) (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The 1 m × 1 m hanging cloth of `n × n` quads (plane y = 0) with its right half (x > 0)
/// turned back over the left half at 30° and lowered by 0.2 m, so that it passes through the
/// left half along the line x = −0.2 cot 30° ≈ −0.35 m.
fn folded_through(n: usize) -> Mesh {
    let (mut p, t) = mesh(grid_cloth(1.0, 1.0, n, n));
    let (s, c) = 30f64.to_radians().sin_cos();
    for x in p.iter_mut().filter(|x| x[0] > 0.0) {
        let d = x[0];
        *x = [-d * c, d * s - 0.2, x[2]];
    }
    (p, t)
}

/// A 100 × 100 flat sheet (20 000 triangles, every pair of neighbours exactly coplanar) has no
/// intersecting pair. Observed (release, 2 cores shared with another build; not asserted):
/// 0.055 s for 20 000 triangles, 0.26 s for 200 × 200 (80 000), 0.55 s for 300 × 300
/// (180 000), linear; an 81 920-triangle icosphere 0.12 s; the sheet folded through itself
/// (tilted, exactly coplanar neighbours, the slowest case of the exact predicates) 0.14 s.
#[test]
fn flat_sheet_has_none() {
    let (p, t) = mesh(grid_cloth(1.0, 1.0, 100, 100));
    assert_eq!(t.len(), 20_000);
    let started = Instant::now();
    let pairs = intersecting_pairs(&p, &t);
    eprintln!("100 x 100 sheet ({} triangles): {:.3} s", t.len(), started.elapsed().as_secs_f64());
    assert_eq!(pairs, vec![]);
}

/// The same kind of sheet folded through itself has intersecting pairs, at least one per row
/// of quads along the crossing line, each between a triangle of the left half and one of the
/// turned-back half; the broad phase misses none.
#[test]
fn sheet_folded_through_itself_has_some() {
    let m = folded_through(40);
    let pairs = intersecting_pairs(&m.0, &m.1);
    assert!(pairs.len() >= 40, "{} pairs", pairs.len());
    let right = |i: u32| m.1[i as usize].iter().all(|&v| m.0[v as usize][1] != 0.0);
    let left = |i: u32| m.1[i as usize].iter().all(|&v| m.0[v as usize][1] == 0.0);
    assert!(pairs.iter().all(|&(i, j)| (left(i) && right(j)) || (left(j) && right(i))), "{pairs:?}");
    let m = folded_through(12);
    assert_eq!(intersecting_pairs(&m.0, &m.1), brute_force(&m));
}

/// Closed and open surfaces and a random height field: no pair, although every neighbour pair
/// is a broad-phase candidate.
#[test]
fn clean_surfaces_have_none() {
    let sphere = mesh(icosphere(0.1, 4));
    assert_eq!(sphere.1.len(), 5120);
    assert_eq!(intersecting_pairs(&sphere.0, &sphere.1), vec![]);
    let tube = mesh(open_cylinder(0.05, -0.2, 0.2, 48, 60));
    assert_eq!(intersecting_pairs(&tube.0, &tube.1), vec![]);
    // A height field y = h(x, z) is a graph: it cannot cross itself.
    let (mut p, t) = mesh(grid_cloth(1.0, 1.0, 30, 30));
    let mut rng = Rng(7);
    for x in &mut p {
        x[1] = 0.05 * rng.next();
    }
    assert_eq!(intersecting_pairs(&p, &t), vec![]);
    // A small sphere: no pair by brute force either (the rules, not the broad phase, exclude
    // the neighbours).
    let small = mesh(icosphere(1.0, 1));
    assert_eq!(brute_force(&small), vec![]);
}

/// Random triangle soups: the grid finds exactly the brute-force pairs. Small triangles
/// sharing vertices (neighbour rules), coplanar ones in the plane z = 0.5 (coplanar test), a
/// few large ones (coarse cells), and duplicates.
#[test]
fn broad_phase_agrees_with_brute_force_on_soups() {
    for seed in 1..=4u64 {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ seed);
        let mut p: Vec<[f64; 3]> = Vec::new();
        let mut t: Vec<[u32; 3]> = Vec::new();
        for k in 0..400 {
            let size = if k % 97 == 0 { 0.8 } else { 0.12 };
            let flat = k % 3 == 0;
            let centre = [rng.next(), rng.next(), if flat { 0.5 } else { rng.next() }];
            let n = p.len() as u32;
            for _ in 0..3 {
                let z = if flat { 0.5 } else { centre[2] + size * (rng.next() - 0.5) };
                p.push([centre[0] + size * (rng.next() - 0.5), centre[1] + size * (rng.next() - 0.5), z]);
            }
            t.push([n, n + 1, n + 2]);
            // Neighbours of the last triangle, sharing an edge or only a vertex (in the plane
            // z = 0.5 too, where they may fold over it).
            let mut near = || [centre[0] + size * rng.next(), centre[1] - size * rng.next(), centre[2]];
            if k % 4 == 1 {
                p.push(near());
                t.push([n, n + 1, n + 3]);
            } else if k % 4 == 3 {
                p.extend([near(), near()]);
                t.push([n + 2, n + 3, n + 4]);
            }
            if k % 50 == 7 {
                t.push([n + 2, n, n + 1]);
            }
        }
        let soup = (p, t);
        let pairs = intersecting_pairs(&soup.0, &soup.1);
        assert!(pairs.len() > 50, "seed {seed}: only {} pairs", pairs.len());
        // Some of them between neighbours (about 40 of roughly 300 per seed).
        let sharing = |&&(i, j): &&(u32, u32)| soup.1[i as usize].iter().any(|v| soup.1[j as usize].contains(v));
        assert!(pairs.iter().filter(sharing).count() > 10, "seed {seed}");
        assert_eq!(pairs, brute_force(&soup), "seed {seed}");
    }
}

/// Two meshes: pairs (triangle of a, triangle of b), sorted, as brute force finds them; none
/// once apart, and touching counts.
#[test]
fn two_meshes() {
    let a = mesh(icosphere(1.0, 2));
    let shifted =
        |d: [f64; 3]| -> Vec<[f64; 3]> { a.0.iter().map(|x| [x[0] + d[0], x[1] + d[1], x[2] + d[2]]).collect() };
    let b = shifted([1.2, 0.3, 0.1]);
    let pairs = intersecting_pairs_between(&a.0, &a.1, &b, &a.1);
    let (both, n): (Vec<[f64; 3]>, u32) = (a.0.iter().chain(&b).copied().collect(), a.0.len() as u32);
    let brute: Vec<(u32, u32)> = (0..a.1.len() as u32)
        .flat_map(|i| (0..a.1.len() as u32).map(move |j| (i, j)))
        .filter(|&(i, j)| triangles_intersect(&both, a.1[i as usize], a.1[j as usize].map(|v| v + n)))
        .collect();
    assert!(pairs.len() > 10, "{}", pairs.len());
    assert_eq!(pairs, brute);
    assert_eq!(intersecting_pairs_between(&a.0, &a.1, &shifted([2.5, 0.0, 0.0]), &a.1), vec![]);
    // The same mesh twice: every triangle meets itself and its neighbours (they share vertices
    // in space, not indices).
    let same = intersecting_pairs_between(&a.0, &a.1, &a.0, &a.1);
    assert!((0..a.1.len() as u32).all(|i| same.binary_search(&(i, i)).is_ok()));
    assert!(same.len() > 4 * a.1.len());
}
