use super::*;
use crate::io::obj::write_obj;
use crate::scene::description::SceneObject;
use crate::scene::run::unique_names;
use crate::{Material, SolverParams};

/// A fresh scratch directory under the system's temporary folder.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grip_usd_{tag}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    dir
}

/// A scene named "my bake" with a shell "cloth" (one triangle) and a collider mesh "floor-1"
/// (a quad); no solver needed, the OBJ files are written by hand.
fn scene() -> Scene {
    let tri = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let cloth = SceneObject::new("cloth", tri, Elements::Triangles(vec![0, 1, 2]), Material::default());
    let quad = vec![0.0, 0.0, -1.0, 1.0, 0.0, -1.0, 1.0, 1.0, -1.0, 0.0, 1.0, -1.0];
    let floor = SceneObject::new("floor-1", quad, Elements::ColliderMesh(vec![0, 1, 2, 0, 2, 3]), Material::default());
    Scene::new("my bake", SolverParams::default(), vec![cloth, floor])
}

/// Writes the OBJ files of frames 0 to `last` of `scene()`: the cloth falls 0.1 m a frame.
fn write_frames(dir: &Path, last: usize) {
    for k in 0..=last {
        let z = -0.1 * k as f64;
        let cloth = [[0.0, 0.0, z], [1.0, 0.0, z], [0.0, 1.0, z]];
        write_obj(&dir.join(frame_file_name("cloth", k)), &cloth, &[[0, 1, 2]]).expect("cloth");
        let floor = [[0.0, 0.0, -1.0], [1.0, 0.0, -1.0], [1.0, 1.0, -1.0], [0.0, 1.0, -1.0]];
        write_obj(&dir.join(frame_file_name("floor-1", k)), &floor, &[[0, 1, 2], [0, 2, 3]]).expect("floor");
    }
}

#[test]
fn up_axis_follows_gravity() {
    assert_eq!(up_axis([0.0, 0.0, -9.81]), UpAxis::Z);
    assert_eq!(up_axis([0.0, -9.81, 0.0]), UpAxis::Y);
    assert_eq!(up_axis([1.0, -9.81, -2.0]), UpAxis::Y);
    assert_eq!(up_axis([0.0, 9.81, 0.0]), UpAxis::Z);
    assert_eq!(up_axis([0.0, -1.0, -1.0]), UpAxis::Z);
    assert_eq!(up_axis([0.0; 3]), UpAxis::Z);
}

#[test]
fn writes_every_object_and_frame() {
    let dir = scratch("writes");
    let scene = scene();
    write_frames(&dir, 2);
    let path = write_usd(&dir, &scene, &unique_names(&scene), 2).expect("written");
    assert_eq!(path, dir.join("my_bake.usda"));
    assert!(!dir.join("my_bake.usda.partial").exists());
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.starts_with("#usda 1.0\n(\n    defaultPrim = \"my_bake\"\n"), "{text}");
    assert!(text.contains("endTimeCode = 2\n") && text.contains("upAxis = \"Z\"\n"), "{text}");
    assert!(text.contains("def Xform \"my_bake\"\n{\n    def Mesh \"cloth\"\n"), "{text}");
    assert!(text.contains("def Mesh \"floor_1\""), "{text}");
    assert!(text.contains("            2: [(0, 0, -0.2), (1, 0, -0.2), (0, 1, -0.2)],\n"), "{text}");
    assert!(text.contains("            2: [(0, 0, -0.2), (1, 1, -0.2)],\n"), "{text}");
    // The shell is seen from both sides, the collider mesh from its front.
    let sides: Vec<&str> = text.lines().filter(|l| l.contains("doubleSided")).collect();
    assert_eq!(sides, ["        uniform bool doubleSided = 1", "        uniform bool doubleSided = 0"]);
    assert!(text.contains("faceVertexIndices = [0, 1, 2, 0, 2, 3]\n"), "{text}");
    // Fewer frames than were written: the layer ends where it is told.
    let text = std::fs::read_to_string(write_usd(&dir, &scene, &unique_names(&scene), 1).expect("1")).expect("read");
    assert!(text.contains("endTimeCode = 1\n") && !text.contains("2: ["), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn refuses_frames_that_differ_from_frame_0() {
    let dir = scratch("differ");
    let scene = scene();
    let names = unique_names(&scene);
    write_frames(&dir, 2);
    write_usd(&dir, &scene, &names, 2).expect("a whole file first");
    let cloth2 = dir.join("cloth_0002.obj");
    let p = [[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]];
    write_obj(&cloth2, &p, &[[0, 1, 2], [1, 3, 2]]).expect("more vertices");
    let e = write_usd(&dir, &scene, &names, 2).expect_err("vertex count");
    assert!(e.contains("cloth_0002.obj: 4 vertices and 2 triangles, frame 0 has 3 and 1"), "{e}");
    write_obj(&cloth2, &p[..3], &[[0, 2, 1]]).expect("flipped");
    let e = write_usd(&dir, &scene, &names, 2).expect_err("faces");
    assert!(e.contains("cloth_0002.obj: other triangles than frame 0"), "{e}");
    write_frames(&dir, 2);
    let e = write_usd(&dir, &scene, &names, 3).expect_err("missing frame");
    assert!(e.contains("cloth_0003.obj"), "{e}");
    // A failed write leaves no partial file and keeps the last whole one.
    assert!(!dir.join("my_bake.usda.partial").exists());
    assert!(std::fs::read_to_string(dir.join("my_bake.usda")).expect("kept").ends_with("}\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn refuses_positions_beyond_float32_naming_object_and_frame() {
    let dir = scratch("range");
    let scene = scene();
    write_frames(&dir, 1);
    let floor = [[0.0, 0.0, -1.0], [1e39, 0.0, -1.0], [1.0, 1.0, -1.0], [0.0, 1.0, -1.0]];
    write_obj(&dir.join("floor-1_0001.obj"), &floor, &[[0, 1, 2], [0, 2, 3]]).expect("floor");
    let e = write_usd(&dir, &scene, &unique_names(&scene), 1).expect_err("out of range");
    assert!(e.contains("object \"floor-1\": mesh \"floor_1\", frame 1: vertex 1"), "{e}");
    assert!(write_usd(&dir, &scene, &["cloth".to_string()], 1).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
