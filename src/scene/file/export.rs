//! Writing a [`Scene`] as a scene file: `DIR/scene.toml` plus one mesh per object (OBJ for
//! shells and collider meshes, legacy VTK for tet solids; `<name>.rest.obj` or `.vtk` for an
//! object's own rest shape), such that `grip run DIR/scene.toml`
//! builds exactly the same solver inputs (every number is written as the shortest decimal that
//! reads back to the same f64; meshes are written in world coordinates, without transforms).

use super::codes;
use super::colliders::shape_name;
use super::motion::{frames_table, inline, number, numbers};
use super::objects::membrane_name;
use super::solver::{
    collider_mesh_contact_name, coupling_name, failure_policy_name, kernel_name, preconditioner_name, smoothing_name,
};
use crate::io::{obj, vtk};
use crate::scene::description::{Elements, PinSelection, PreviewStyle, Scene, SceneObject};
use crate::scene::motion::Motion;
use crate::scene::run::unique_names;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `s` as a TOML basic string (quoted, with `\`, `"` and control characters escaped).
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn triples<T: Copy, const N: usize>(flat: &[T]) -> Vec<[T; N]> {
    flat.chunks_exact(N).map(|c| std::array::from_fn(|k| c[k])).collect()
}

/// Writes `scene` into `dir` (created if needed) as `scene.toml` and its meshes; returns the
/// path of `scene.toml`. The scene is validated first.
pub fn export(scene: &Scene, dir: &Path) -> Result<PathBuf, String> {
    scene.validate()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut text = header(scene);
    for (o, stem) in scene.objects.iter().zip(unique_names(scene)) {
        let file = write_mesh(o, &o.positions, &stem, dir)?;
        let rest = match &o.rest_positions {
            // Stems hold no '.', so `<stem>.rest` cannot be another object's file.
            Some(rest) => Some(write_mesh(o, rest, &format!("{stem}.rest"), dir)?),
            None => None,
        };
        let cache = match &o.point_cache {
            Some(cache) => {
                let name = format!("{stem}.pc2");
                cache.write_pc2(&dir.join(&name)).map_err(|e| format!("object \"{}\": {e}", o.name))?;
                Some(name)
            }
            None => None,
        };
        text.push_str(&object(o, &file, rest.as_deref(), cache.as_deref()));
    }
    for c in &scene.colliders {
        let s = &c.shape;
        let _ = write!(
            text,
            "\n[[collider]]\nname = {}\nkind = \"{}\"\ncenter = {}\naxis = {}\nradius = {}\nhalf_length = {}\n\
             inside = {}\nmu = {}\n",
            string(&c.name),
            shape_name(s.kind),
            numbers(&s.center),
            numbers(&s.axis),
            number(s.radius),
            number(s.half_length),
            s.inside,
            number(c.mu)
        );
        text.push_str(&motion("collider", &c.motion));
    }
    for f in &scene.friction {
        let _ = write!(text, "\n[[friction]]\na = {}\nb = {}\nmu = {}\n", string(&f.a), string(&f.b), number(f.mu));
    }
    for s in &scene.slip {
        let _ = write!(text, "\n[[slip]]\nobject = {}\non = {}\n", string(&s.object), string(&s.on));
    }
    let path = dir.join("scene.toml");
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// The comment, `[solver]` (every field) and `[output]`.
fn header(scene: &Scene) -> String {
    let p = &scene.params;
    let mut t = format!(
        "# The scene \"{}\" as written by grip {} (`grip demo {} --export DIR`).\n# Run with: grip run \
         DIR/scene.toml. SI units (m, kg, s, Pa); `grip run --help` lists every key.\n\n[solver]\n",
        scene.name.replace('\n', " "),
        env!("CARGO_PKG_VERSION"),
        scene.name.replace('\n', " ")
    );
    let fields = [
        ("time_step", number(p.time_step)),
        ("gravity", numbers(&p.gravity)),
        ("max_newton_iterations", p.max_newton_iterations.to_string()),
        ("max_line_search_steps", p.max_line_search_steps.to_string()),
        ("max_substep_halvings", p.max_substep_halvings.to_string()),
        ("residual_tolerance", number(p.residual_tolerance)),
        ("velocity_tolerance", number(p.velocity_tolerance)),
        ("linear_solver", codes::linear_solver_code(p.linear_solver).to_string()),
        ("integrator", codes::integrator_code(p.integrator).to_string()),
        ("worker_count", p.worker_count.to_string()),
        ("contact_thickness", number(p.contact_thickness)),
        ("contact_stiffness", number(p.contact_stiffness)),
        ("friction_epsilon", number(p.friction_epsilon)),
        ("default_friction", number(p.default_friction)),
        ("friction_smoothing", string(smoothing_name(p.friction_smoothing))),
        ("friction_coupling", string(coupling_name(p.friction_coupling))),
        ("max_contact_retries", p.max_contact_retries.to_string()),
        ("contact_radius_multiplier", number(p.contact_radius_multiplier)),
        ("contact_kernel", string(kernel_name(p.contact_kernel))),
        ("collider_mesh_contact", string(collider_mesh_contact_name(p.collider_mesh_contact))),
        ("preconditioner", string(preconditioner_name(p.preconditioner))),
        ("max_linear_iterations", p.max_linear_iterations.to_string()),
        ("forcing_max", number(p.forcing_max)),
        ("self_contact", p.self_contact.to_string()),
        ("self_contact_thickness", number(p.self_contact_thickness)),
        ("newmark_beta", number(p.newmark_beta)),
        ("newmark_gamma", number(p.newmark_gamma)),
        ("spectral_radius", number(p.spectral_radius)),
        ("modal_count", p.modal_count.to_string()),
        ("semi_implicit", p.semi_implicit.to_string()),
        ("failure_policy", string(failure_policy_name(p.failure_policy))),
    ];
    for (k, v) in fields {
        let _ = writeln!(t, "{k} = {v}");
    }
    let _ = write!(
        t,
        "\n[output]\nname = {}\nframes = {}\nfps = {}\n",
        string(&scene.name),
        scene.frames,
        number(scene.fps)
    );
    if let Some(v) = scene.view {
        let _ = writeln!(t, "view = {}", numbers(&v));
    }
    t
}

/// Writes the elements of `o` at `positions` as `<stem>.obj` or `<stem>.vtk` in `dir`; returns
/// the file name.
fn write_mesh(o: &SceneObject, positions: &[f64], stem: &str, dir: &Path) -> Result<String, String> {
    let points = triples::<f64, 3>(positions);
    let (file, result) = match &o.elements {
        Elements::Triangles(t) | Elements::ColliderMesh(t) => {
            let file = format!("{stem}.obj");
            let r = obj::write_obj(&dir.join(&file), &points, &triples::<u32, 3>(t));
            (file, r)
        }
        Elements::Tets(t) => {
            let file = format!("{stem}.vtk");
            let r = vtk::write_vtk(&dir.join(&file), &points, &triples::<u32, 4>(t), &[]);
            (file, r)
        }
    };
    result.map_err(|e| format!("object \"{}\": {e}", o.name))?;
    Ok(file)
}

/// One `[[object]]` with its pin groups; `rest` names its rest mesh file, `cache` its point
/// cache file.
fn object(o: &SceneObject, mesh: &str, rest: Option<&str>, cache: Option<&str>) -> String {
    let kind = match o.elements {
        Elements::Triangles(_) => "shell",
        Elements::Tets(_) => "solid",
        Elements::ColliderMesh(_) => "collider",
    };
    let mut t = format!("\n[[object]]\nname = {}\nkind = \"{kind}\"\nmesh = {}\n", string(&o.name), string(mesh));
    if let Some(rest) = rest {
        let _ = writeln!(t, "rest_mesh = {}", string(rest));
    }
    if o.preview == PreviewStyle::Translucent {
        t.push_str("preview = \"translucent\"\n");
    }
    if o.is_collider_mesh() {
        if let Some(cache) = cache {
            let _ = writeln!(t, "point_cache = {}", string(cache));
        }
        t.push_str(&motion("object", &o.motion));
        return t;
    }
    let m = &o.material;
    let _ = write!(
        t,
        "density = {}\nyoungs_modulus = {}\npoisson_ratio = {}\nthickness = {}\nbending_stiffness = {}\n\
         damping_alpha = {}\ndamping_beta = {}\nmembrane_model = \"{}\"\n",
        number(m.density),
        number(m.youngs_modulus),
        number(m.poisson_ratio),
        number(m.thickness),
        number(m.bending_stiffness),
        number(m.damping_alpha),
        number(m.damping_beta),
        membrane_name(m.membrane_model)
    );
    if !o.pinned.is_empty() {
        let v: Vec<String> = o.pinned.iter().map(|v| v.to_string()).collect();
        let _ = writeln!(t, "pin_vertices = [{}]", v.join(", "));
    }
    if o.velocity != [0.0; 3] {
        let _ = writeln!(t, "velocity = {}", numbers(&o.velocity));
    }
    if o.angular_velocity != [0.0; 3] {
        let _ = writeln!(t, "angular_velocity = {}", numbers(&o.angular_velocity));
    }
    if !o.self_contact.enabled {
        t.push_str("self_contact = false\n");
    }
    if let Some(d) = o.self_contact.thickness {
        let _ = writeln!(t, "self_contact_thickness = {}", number(d));
    }
    if let Some(v) = o.volume {
        let _ = write!(
            t,
            "volume_model = \"{}\"\ncompression_coefficient = {}\npressure = {}\n",
            super::objects::volume_model_name(v.model),
            number(v.compression),
            number(v.pressure)
        );
    }
    for g in &o.pin_groups {
        t.push_str("\n[[object.pin_group]]\n");
        match &g.selection {
            PinSelection::Vertices(v) => {
                let v: Vec<String> = v.iter().map(|v| v.to_string()).collect();
                let _ = writeln!(t, "vertices = [{}]", v.join(", "));
            }
            PinSelection::Box { min, max } => {
                let _ = write!(t, "min = {}\nmax = {}\n", numbers(min), numbers(max));
            }
        }
        match g.motion {
            Motion::Fixed => t.push_str("motion = \"fixed\" # held in place\n"),
            ref m => t.push_str(&motion("object.pin_group", m)),
        }
    }
    t
}

/// `motion = ...` of the last `[[table]]`: nothing when fixed, one line, or a
/// `[table.motion]` table of frames (which must come after the table's other keys).
fn motion(table: &str, m: &Motion) -> String {
    match (m, inline(m)) {
        (Motion::Fixed, _) => String::new(),
        (_, Some(line)) => format!("motion = {line}\n"),
        (Motion::Frames(poses), None) => format!("[{table}.motion]\n{}", frames_table(poses)),
        (_, None) => String::new(),
    }
}
