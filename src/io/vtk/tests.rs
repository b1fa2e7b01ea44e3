use super::*;
use std::collections::HashMap;

const TUBE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/softy-tube/tube.vtk");
const CLOTH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/softy-tube/tube_cloth.vtk");

/// Counts how often each directed edge occurs.
fn directed_edges(tris: &[[u32; 3]]) -> HashMap<(u32, u32), usize> {
    let mut m = HashMap::new();
    for t in tris {
        for k in 0..3 {
            *m.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
        }
    }
    m
}

#[test]
fn reads_softy_tube_as_closed_surface() {
    let m = read_vtk(Path::new(TUBE)).expect("tube.vtk");
    assert_eq!(m.positions.len(), 198);
    assert!(m.tets.is_empty());
    // 187 quads (2 triangles each) + 2 caps of 11 vertices (9 triangles each).
    assert_eq!(m.triangles.len(), 187 * 2 + 2 * 9);
    let e = directed_edges(&m.triangles);
    // Closed and consistently oriented: each directed edge once, its twin once.
    assert!(e.iter().all(|(&(a, b), &n)| n == 1 && e.get(&(b, a)) == Some(&1)));
    assert_eq!(e.len(), 3 * m.triangles.len());
    for p in &m.positions {
        assert!(p[0].abs() <= 3.0 + 1e-6 && (p[1] * p[1] + p[2] * p[2]).sqrt() <= 0.5 + 1e-6);
    }
}

#[test]
fn reads_softy_cloth() {
    let m = read_vtk(Path::new(CLOTH)).expect("tube_cloth.vtk");
    assert_eq!((m.positions.len(), m.triangles.len()), (900, 1682));
    let e = directed_edges(&m.triangles);
    let boundary = e.keys().filter(|&&(a, b)| !e.contains_key(&(b, a))).count();
    assert_eq!(boundary, 4 * 29); // a 30x30 grid
}

#[test]
fn ascii_unstructured_grid_all_cell_types_then_point_data() {
    let text = "# vtk DataFile Version 2.0\nt\nASCII\n\nDATASET UNSTRUCTURED_GRID\n\
        FIELD FieldData 1\nTIME 1 1 double\n0.5\nPOINTS 5 float\n0 0 0 1 0 0 0 1 0\n0 0 1 1 1 1\n\
        CELLS 4 20\n4 0 1 2 3\n3 0 1 2\n4 0 1 4 2\n5 0 1 4 2 3\nCELL_TYPES 4\n10 5 9 7\n\
        POINT_DATA 5\nSCALARS s float 1\nLOOKUP_TABLE default\n1 2 3 4 5\n";
    let m = parse_vtk(text.as_bytes()).expect("parse");
    assert_eq!(m.positions[4], [1.0, 1.0, 1.0]);
    assert_eq!(m.tets, vec![[0, 1, 2, 3]]);
    let want = [[0, 1, 2], [0, 1, 4], [0, 4, 2], [0, 1, 4], [0, 4, 2], [0, 2, 3]];
    assert_eq!(m.triangles, want.to_vec());
}

#[test]
fn ascii_polydata_and_v51_offsets() {
    let text = "# vtk DataFile Version 3.0\nt\nASCII\nDATASET POLYDATA\nPOINTS 4 double\n\
        0 0 0 1 0 0 1 1 0 0 1 0\nLINES 1 3\n2 0 1\nPOLYGONS 1 5\n4 0 1 2 3\n\
        TRIANGLE_STRIPS 1 5\n4 0 1 3 2\nCELL_DATA 3\n";
    let m = parse_vtk(text.as_bytes()).expect("polydata");
    assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3], [0, 1, 3], [3, 1, 2]]);
    let text = "# vtk DataFile Version 5.1\nt\nASCII\nDATASET UNSTRUCTURED_GRID\n\
        POINTS 4 double\n0 0 0 1 0 0 0 1 0 0 0 1\nMETADATA\nINFORMATION 0\n\n\
        CELLS 3 7\nOFFSETS vtktypeint64\n0 4 7\nCONNECTIVITY vtktypeint64\n0 1 2 3 1 2 3\n\
        CELL_TYPES 2\n10\n5\n";
    let m = parse_vtk(text.as_bytes()).expect("5.1");
    assert_eq!((m.tets, m.triangles), (vec![[0, 1, 2, 3]], vec![[1, 2, 3]]));
}

#[test]
fn binary_v51_with_int64_connectivity() {
    let mut b = b"# vtk DataFile Version 5.1\nt\nBINARY\nDATASET UNSTRUCTURED_GRID\n".to_vec();
    b.extend_from_slice(b"POINTS 3 float\n");
    for v in [0.0f32, 0.0, 0.0, 1.5, 0.0, 0.0, 0.0, -2.25, 0.0] {
        b.extend_from_slice(&v.to_be_bytes());
    }
    b.extend_from_slice(b"\nCELLS 2 3\nOFFSETS vtktypeint64\n");
    (0i64..).step_by(3).take(2).for_each(|v| b.extend_from_slice(&v.to_be_bytes()));
    b.extend_from_slice(b"\nCONNECTIVITY vtktypeint64\n");
    (0i64..3).for_each(|v| b.extend_from_slice(&v.to_be_bytes()));
    b.extend_from_slice(b"\nCELL_TYPES 1\n");
    b.extend_from_slice(&5i32.to_be_bytes());
    let m = parse_vtk(&b).expect("binary 5.1");
    assert_eq!(m.positions[2], [0.0, -2.25, 0.0]);
    assert_eq!(m.triangles, vec![[0, 1, 2]]);
}

#[test]
fn errors_and_no_panics_on_bad_input() {
    let head = "# vtk DataFile Version 4.2\nt\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 3 double\n\
        0 0 0 1 0 0 0 1 0\n";
    let bad = |tail: &str| parse_vtk(format!("{head}{tail}").as_bytes()).expect_err(tail).message;
    assert!(bad("CELLS 1 4\n3 0 1 3\nCELL_TYPES 1\n5\n").contains("out of range"));
    assert!(bad("CELLS 1 4\n3 0 1 2\nCELL_TYPES 1\n12\n").contains("cell type 12"));
    assert!(bad("CELLS 1 4\n3 0 1 2\nCELL_TYPES 2\n5 5\n").contains("cell"));
    assert!(bad("CELLS 1 5\n3 0 1 2\nCELL_TYPES 1\n5\n").contains("CELL"));
    assert!(bad("CELLS 1 4\n3 0 1 x\n").contains("cannot parse"));
    assert!(parse_vtk(b"hello").is_err());
    assert!(parse_vtk(head.replace("0 1 0\n", "0 nan 0\n").as_bytes()).is_err());
    // Every truncation and many corruptions of the real binary file must not panic.
    let tube = std::fs::read(TUBE).expect("tube.vtk");
    for cut in (0..9471).step_by(7) {
        assert!(parse_vtk(&tube[..cut]).is_err(), "truncated at {cut}");
    }
    let mut seed = 12345u64;
    for _ in 0..300 {
        let mut t = tube.clone();
        for _ in 0..4 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let i = (seed >> 33) as usize % t.len();
            t[i] = (seed >> 13) as u8;
        }
        let _ = parse_vtk(&t);
    }
}

#[test]
fn write_read_round_trip() {
    let dir = std::env::temp_dir().join(format!("grip_vtk_test_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let path = dir.join("m.vtk");
    let p = [[0.1, 0.0, 1.0 / 3.0], [1.0, -1e-12, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 7.5]];
    let (tets, tris) = ([[0, 1, 2, 3]], [[0, 2, 1], [1, 2, 3]]);
    write_vtk(&path, &p, &tets, &tris).expect("write");
    let m = read_vtk(&path).expect("read");
    assert_eq!((m.positions, m.tets, m.triangles), (p.to_vec(), tets.to_vec(), tris.to_vec()));
    assert!(write_vtk(&path, &p, &[[0, 1, 2, 4]], &[]).is_err());
    assert!(read_vtk(&dir.join("nope.vtk")).expect_err("missing").message.contains("nope.vtk"));
    let _ = std::fs::remove_dir_all(&dir);
}
