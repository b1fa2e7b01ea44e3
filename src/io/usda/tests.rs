use super::*;

/// A layer named `root`, z up, 24 frames/s, frames 0 to `last_frame`.
fn layer(root: &str, last_frame: usize) -> Layer<'_> {
    Layer { root, up_axis: UpAxis::Z, fps: 24.0, last_frame, doc: "written by grip" }
}

/// One triangle named `name` (single sided unless `double_sided`).
fn triangle(name: &str, double_sided: bool) -> MeshPrim<'_> {
    MeshPrim { name, vertices: 3, triangles: &[[0, 1, 2]], double_sided }
}

/// The text of a layer holding `mesh` with positions `frames[k]` at frame k.
fn layer_text(mesh: &MeshPrim, frames: &[Vec<[f64; 3]>]) -> Result<String, IoError> {
    let mut w = UsdaWriter::new(Vec::new(), &layer("scene", frames.len() - 1))?;
    w.mesh(mesh, |k| Ok(frames[k].clone()))?;
    Ok(String::from_utf8(w.finish()?).expect("utf-8"))
}

#[test]
fn identifiers_and_prim_names() {
    for good in ["a", "_", "_2nd", "Cloth_01", "x9"] {
        assert!(is_identifier(good), "{good}");
    }
    for bad in ["", "2nd", "a-b", "a b", "é", "a.b"] {
        assert!(!is_identifier(bad), "{bad}");
    }
    assert_eq!(prim_name("tube-cloth-bend"), "tube_cloth_bend");
    assert_eq!(prim_name("2nd cloth"), "_2nd_cloth");
    assert_eq!(prim_name(""), "_");
    assert_eq!(prim_name("sleeve"), "sleeve");
    assert_eq!(prim_name("héllo"), "h_llo");
    for name in ["", "0", "a-b", "--", "ü"] {
        assert!(is_identifier(&prim_name(name)), "{name}");
    }
}

#[test]
fn prim_names_are_made_unique() {
    let names = unique_prim_names(&["a-b", "a_b", "a b", "a_b_2", "c"]);
    assert_eq!(names, ["a_b", "a_b_2", "a_b_3", "a_b_2_2", "c"]);
    assert!(unique_prim_names::<&str>(&[]).is_empty());
}

#[test]
fn strings_are_escaped() {
    assert_eq!(quoted("plain"), "\"plain\"");
    assert_eq!(quoted("a\"b\\c\nd\te\u{1}é"), "\"a\\\"b\\\\c\\nd\\te\\x01é\"");
}

#[test]
fn text_shape_of_a_two_frame_layer() {
    let frames = vec![
        vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        vec![[0.0, 0.0, -0.1], [1.0, 0.0, -0.1], [0.0, 1.0, -0.25]],
    ];
    let text = layer_text(&triangle("cloth", true), &frames).expect("written");
    let want = "#usda 1.0
(
    defaultPrim = \"scene\"
    doc = \"written by grip\"
    endTimeCode = 1
    framesPerSecond = 24
    metersPerUnit = 1
    startTimeCode = 0
    timeCodesPerSecond = 24
    upAxis = \"Z\"
)

def Xform \"scene\"
{
    def Mesh \"cloth\"
    {
        uniform bool doubleSided = 1
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
        uniform token orientation = \"rightHanded\"
        point3f[] points.timeSamples = {
            0: [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
            1: [(0, 0, -0.1), (1, 0, -0.1), (0, 1, -0.25)],
        }
        float3[] extent.timeSamples = {
            0: [(0, 0, 0), (1, 1, 0)],
            1: [(0, 0, -0.25), (1, 1, -0.1)],
        }
        uniform token subdivisionScheme = \"none\"
    }
}
";
    assert_eq!(text, want);
}

#[test]
fn several_meshes_and_y_up() {
    let l = Layer { up_axis: UpAxis::Y, fps: 29.97, ..layer("root", 0) };
    let mut w = UsdaWriter::new(Vec::new(), &l).expect("header");
    let quad = MeshPrim { name: "quad", vertices: 4, triangles: &[[0, 1, 2], [0, 2, 3]], double_sided: false };
    w.mesh(&quad, |_| Ok(vec![[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]])).expect("quad");
    w.mesh(&triangle("tri", false), |_| Ok(vec![[0.0; 3]; 3])).expect("tri");
    let text = String::from_utf8(w.finish().expect("end")).expect("utf-8");
    assert!(text.contains("upAxis = \"Y\"") && text.contains("timeCodesPerSecond = 29.97"), "{text}");
    assert!(text.contains("framesPerSecond = 29.97") && text.contains("endTimeCode = 0"), "{text}");
    assert!(text.contains("faceVertexCounts = [3, 3]\n") && text.contains("faceVertexIndices = [0, 1, 2, 0, 2, 3]\n"));
    assert!(text.contains("doubleSided = 0") && text.contains("def Mesh \"tri\""));
    assert_eq!(text.matches("def Mesh").count(), 2);
    assert!(text.ends_with("    }\n}\n"), "{text}");
}

#[test]
fn coordinates_are_the_nearest_float32_in_shortest_text() {
    let third = 1.0 / 3.0;
    let p = vec![[third, -2.5e-7, 123456.789], [0.1, 1e-30, -0.0], [std::f64::consts::PI, 3.0e38, 1.0]];
    let text = layer_text(&triangle("m", false), std::slice::from_ref(&p)).expect("written");
    let line = text.lines().find(|l| l.trim_start().starts_with("0: [(0.33")).expect("points line");
    let inner = line.trim().trim_start_matches("0: [(").trim_end_matches(")],");
    let read: Vec<f32> = inner
        .split("), (")
        .flat_map(|t| t.split(", ").map(|x| x.parse::<f32>().expect("f32")).collect::<Vec<_>>())
        .collect();
    let want: Vec<f32> = p.iter().flatten().map(|&x| x as f32).collect();
    assert_eq!(
        read.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    let want = "[(0.33333334, -2.5e-7, 123456.79), (0.1, 1e-30, -0), (3.1415927, 3e38, 1)]";
    assert!(line.contains(want), "{line}");
    // The extent is the box of the float32 points, so it holds them exactly.
    assert!(text.contains("0: [(0.1, -2.5e-7, -0), (3.1415927, 3e38, 123456.79)]"), "{text}");
}

#[test]
fn refuses_non_finite_positions_naming_mesh_and_frame() {
    let good = vec![[0.0; 3]; 3];
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e39] {
        let frames = vec![good.clone(), good.clone(), vec![[0.0; 3], [0.0, bad, 0.0], [0.0; 3]]];
        let e = layer_text(&triangle("cloth", true), &frames).expect_err("refused");
        assert!(e.message.contains("\"cloth\", frame 2") && e.message.contains("vertex 1"), "{}", e.message);
    }
}

#[test]
fn refuses_bad_meshes_names_and_layers() {
    let frames = vec![vec![[0.0; 3]; 3], vec![[0.0; 3]; 4]];
    let e = layer_text(&triangle("cloth", true), &frames).expect_err("vertex count");
    assert!(e.message.contains("frame 1") && e.message.contains("4 vertices"), "{}", e.message);
    let bad_index = MeshPrim { name: "m", vertices: 3, triangles: &[[0, 1, 3]], double_sided: false };
    assert!(layer_text(&bad_index, &[vec![[0.0; 3]; 3]]).expect_err("index").message.contains("vertex 3"));
    assert!(layer_text(&triangle("a-b", false), &[vec![[0.0; 3]; 3]]).is_err());
    let mut w = UsdaWriter::new(Vec::new(), &layer("scene", 0)).expect("header");
    w.mesh(&triangle("m", false), |_| Ok(vec![[0.0; 3]; 3])).expect("first");
    assert!(w.mesh(&triangle("m", false), |_| Ok(vec![[0.0; 3]; 3])).expect_err("twice").message.contains("two"));
    let e = w.mesh(&triangle("n", false), |k| Err(err(format!("no file for {k}")))).expect_err("source fails");
    assert_eq!(e.message, "mesh \"n\", frame 0: no file for 0");
    assert!(UsdaWriter::new(Vec::new(), &layer("1st", 0)).is_err());
    for fps in [0.0, -24.0, f64::NAN, f64::INFINITY] {
        assert!(UsdaWriter::new(Vec::new(), &Layer { fps, ..layer("scene", 0) }).is_err(), "{fps}");
    }
}
