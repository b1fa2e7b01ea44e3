//! Flat-shaded previews of triangle meshes (a small software rasterizer) as RGB8 images; the
//! `grip` command line encodes them as PNG files.
//!
//! Orthographic projection, z-buffer, two-sided Lambert shading with a headlight plus
//! ambient light (so both sides of a cloth are visible; back faces are slightly darker),
//! on a light-grey background. Translucent meshes (opacity below 1) are blended over the
//! opaque ones in front of which they lie, so that what they wrap shows through. Triangles with out-of-range indices or non-finite vertices
//! are skipped, never causing a panic.

use super::{err, IoError};

/// Background colour of rendered images (RGB8).
///
/// cbindgen:ignore
pub const BACKGROUND: [u8; 3] = [235, 235, 235];

/// One mesh to draw: positions (m), 0-based triangles, a base colour (RGB8) and an opacity.
#[derive(Debug, Clone, Copy)]
pub struct PreviewMesh<'a> {
    /// Vertex positions in metres.
    pub positions: &'a [[f64; 3]],
    /// Triangles as 0-based indices into `positions`.
    pub triangles: &'a [[u32; 3]],
    /// Base colour before shading.
    pub color: [u8; 3],
    /// 1 (or more): opaque. In (0, 1): drawn after every opaque mesh, each of its fragments in
    /// front of the opaque surface blended as opacity · colour + (1 − opacity) · what is
    /// there, without hiding what lies behind it. 0 (or less, or NaN): not drawn.
    pub opacity: f64,
}

/// An orthographic camera mapping world points (m) to pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Camera {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Unit vector pointing right in the image.
    pub right: [f64; 3],
    /// Unit vector pointing up in the image.
    pub up: [f64; 3],
    /// Unit vector from the scene towards the viewer (also the headlight direction).
    pub back: [f64; 3],
    /// View-plane coordinates (along `right`, `up`) of the image centre, in metres.
    pub center: [f64; 2],
    /// Pixels per metre.
    pub scale: f64,
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn add(a: [f64; 3], b: [f64; 3], s: f64) -> [f64; 3] {
    [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]]
}

fn normalize(a: [f64; 3]) -> Option<[f64; 3]> {
    let n = dot(a, a).sqrt();
    (n.is_finite() && n > 1e-300).then(|| [a[0] / n, a[1] / n, a[2] / n])
}

/// Calls `f` with the three vertices of every drawable triangle (valid indices, finite).
fn for_each_triangle(mesh: &PreviewMesh, mut f: impl FnMut([[f64; 3]; 3])) {
    for t in mesh.triangles {
        let v = t.map(|i| mesh.positions.get(i as usize).copied());
        if let [Some(a), Some(b), Some(c)] = v {
            if [a, b, c].iter().flatten().all(|x| x.is_finite()) {
                f([a, b, c]);
            }
        }
    }
}

impl Camera {
    /// Fits an orthographic camera around all drawable triangles of `meshes`, viewed from
    /// about 35° azimuth and 20° elevation relative to the world `up` axis, with a margin.
    ///
    /// Azimuth is measured from the horizontal world axis along which the scene is
    /// thinnest, so elongated objects are seen mostly side-on. Reuse the camera to render
    /// several frames from the same viewpoint.
    pub fn fit(meshes: &[PreviewMesh], up: [f64; 3], width: u32, height: u32) -> Camera {
        Self::fit_towards(meshes, up, None, width, height)
    }

    /// [`Camera::fit`] looking along −`toward_viewer` (a direction from the scene towards the
    /// viewer, any length) when it is given, finite, nonzero and not along `up`.
    pub fn fit_towards(
        meshes: &[PreviewMesh],
        up: [f64; 3],
        toward_viewer: Option<[f64; 3]>,
        width: u32,
        height: u32,
    ) -> Camera {
        let up = normalize(up).unwrap_or([0.0, 1.0, 0.0]);
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for m in meshes {
            for_each_triangle(m, |tri| {
                for p in tri {
                    for k in 0..3 {
                        lo[k] = lo[k].min(p[k]);
                        hi[k] = hi[k].max(p[k]);
                    }
                }
            });
        }
        if lo[0] > hi[0] {
            (lo, hi) = ([-1.0; 3], [1.0; 3]); // nothing drawable: unit box at the origin
        }
        // Horizontal reference axis: the world axis (not too close to `up`) with least extent.
        let axes = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let k = (0..3)
            .filter(|&k| dot(axes[k], up).abs() < 0.9)
            .min_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
            .unwrap_or(0);
        let h0 = normalize(add(axes[k], up, -dot(axes[k], up))).unwrap_or([1.0, 0.0, 0.0]);
        let h1 = cross(up, h0);
        let (az, el) = (35f64.to_radians(), 20f64.to_radians());
        let horiz = add(h0.map(|x| x * az.cos()), h1, az.sin());
        let default_back = normalize(add(horiz.map(|x| x * el.cos()), up, el.sin())).unwrap_or(up);
        let back = toward_viewer.and_then(normalize).filter(|b| dot(*b, up).abs() < 0.999).unwrap_or(default_back);
        let right = normalize(cross(up, back)).unwrap_or(h1);
        let cam_up = cross(back, right);
        // Extent of the bounding box corners on the view plane.
        let (mut plo, mut phi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for c in 0..8 {
            let p = [0, 1, 2].map(|k| if (c >> k) & 1 == 0 { lo[k] } else { hi[k] });
            for (j, axis) in [right, cam_up].into_iter().enumerate() {
                plo[j] = plo[j].min(dot(p, axis));
                phi[j] = phi[j].max(dot(p, axis));
            }
        }
        let margin = 0.9; // fraction of the image used by the scene
        let sx = margin * width.max(1) as f64 / (phi[0] - plo[0]).max(1e-12);
        let sy = margin * height.max(1) as f64 / (phi[1] - plo[1]).max(1e-12);
        let scale = sx.min(sy);
        Camera {
            width,
            height,
            right,
            up: cam_up,
            back,
            center: [0.5 * (plo[0] + phi[0]), 0.5 * (plo[1] + phi[1])],
            scale: if scale.is_finite() && scale > 0.0 { scale } else { 1.0 },
        }
    }

    /// Projects a world point to `[pixel x, pixel y, depth]`; larger depth is nearer the
    /// viewer. Pixel (0, 0) is the top-left corner of the image.
    pub fn project(&self, p: [f64; 3]) -> [f64; 3] {
        [
            0.5 * self.width as f64 + self.scale * (dot(p, self.right) - self.center[0]),
            0.5 * self.height as f64 - self.scale * (dot(p, self.up) - self.center[1]),
            dot(p, self.back),
        ]
    }
}

/// Renders `meshes` to an RGB8 buffer of `width * height * 3` bytes, rows top to bottom.
///
/// The buffer is allocated from the camera's size, so keep it reasonable (see
/// [`render_image`], which rejects empty or over 2^28-pixel images).
pub fn render_rgb(meshes: &[PreviewMesh], camera: &Camera) -> Vec<u8> {
    let (w, h) = (camera.width as usize, camera.height as usize);
    let mut rgb: Vec<u8> = BACKGROUND.iter().copied().cycle().take(w * h * 3).collect();
    let mut zbuf = vec![f64::NEG_INFINITY; w * h];
    // Headlight slightly above and left of the viewer, for a little depth cue.
    let light = normalize(add(add(camera.back, camera.up, 0.4), camera.right, -0.2));
    let light = light.unwrap_or(camera.back);
    let opaque = meshes.iter().filter(|m| m.opacity >= 1.0);
    let translucent = meshes.iter().filter(|m| m.opacity > 0.0 && m.opacity < 1.0);
    for mesh in opaque.chain(translucent) {
        let alpha = mesh.opacity.min(1.0);
        for_each_triangle(mesh, |[a, b, c]| {
            let Some(mut n) = normalize(cross(add(b, a, -1.0), add(c, a, -1.0))) else {
                return; // degenerate triangle
            };
            let facing = dot(n, camera.back) >= 0.0;
            if !facing {
                n = n.map(|x| -x); // two-sided: light the side facing the viewer
            }
            let shade = (0.3 + 0.7 * dot(n, light).max(0.0)) * if facing { 1.0 } else { 0.85 };
            let col = mesh.color.map(|c| (c as f64 * shade).round().clamp(0.0, 255.0) as u8);
            let [p0, p1, p2] = [a, b, c].map(|p| camera.project(p));
            let edge =
                |p: [f64; 3], q: [f64; 3], x: f64, y: f64| (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
            let area = edge(p0, p1, p2[0], p2[1]);
            if area.is_nan() || area.abs() <= 1e-12 {
                return; // edge-on, or not finite
            }
            let xs = [p0[0], p1[0], p2[0]];
            let ys = [p0[1], p1[1], p2[1]];
            let fmin = |v: [f64; 3]| v[0].min(v[1]).min(v[2]);
            let fmax = |v: [f64; 3]| v[0].max(v[1]).max(v[2]);
            // Float-to-int casts saturate, so huge or negative bounds are safe.
            let x0 = (fmin(xs).floor().max(0.0) as usize).min(w);
            let x1 = (fmax(xs).ceil().max(0.0) as usize).min(w);
            let y0 = (fmin(ys).floor().max(0.0) as usize).min(h);
            let y1 = (fmax(ys).ceil().max(0.0) as usize).min(h);
            for y in y0..y1 {
                for x in x0..x1 {
                    let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
                    let w0 = edge(p1, p2, px, py) / area;
                    let w1 = edge(p2, p0, px, py) / area;
                    let w2 = edge(p0, p1, px, py) / area;
                    if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                        continue;
                    }
                    let z = w0 * p0[2] + w1 * p1[2] + w2 * p2[2];
                    let i = y * w + x;
                    if z > zbuf[i] {
                        if alpha >= 1.0 {
                            zbuf[i] = z;
                            rgb[3 * i..3 * i + 3].copy_from_slice(&col);
                        } else {
                            for k in 0..3 {
                                let mixed = alpha * col[k] as f64 + (1.0 - alpha) * rgb[3 * i + k] as f64;
                                rgb[3 * i + k] = mixed.round().clamp(0.0, 255.0) as u8;
                            }
                        }
                    }
                }
            }
        });
    }
    rgb
}

/// An 8-bit RGB image: `width * height * 3` bytes, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbImage {
    /// Width (pixels).
    pub width: u32,
    /// Height (pixels).
    pub height: u32,
    /// The pixels, 3 bytes each, row by row from the top.
    pub rgb: Vec<u8>,
}

/// Renders `meshes` at the camera's size; an empty or over 2^28-pixel image is an error.
pub fn render_image(meshes: &[PreviewMesh], camera: &Camera) -> Result<RgbImage, IoError> {
    let pixels = camera.width as u64 * camera.height as u64;
    if pixels == 0 || pixels > 1 << 28 {
        let (w, h) = (camera.width, camera.height);
        return Err(err(format!("invalid image size {w}x{h}")));
    }
    Ok(RgbImage { width: camera.width, height: camera.height, rgb: render_rgb(meshes, camera) })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRI: [[f64; 3]; 3] = [[-1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [0.0, 1.0, 0.0]];

    fn pixel(rgb: &[u8], cam: &Camera, x: u32, y: u32) -> [u8; 3] {
        let i = 3 * (y as usize * cam.width as usize + x as usize);
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    }

    #[test]
    fn single_triangle_covers_centre_not_corners() {
        let mesh = PreviewMesh { positions: &TRI, triangles: &[[0, 1, 2]], color: [200, 60, 40], opacity: 1.0 };
        let cam = Camera::fit(&[mesh], [0.0, 1.0, 0.0], 64, 48);
        let mesh = PreviewMesh { positions: &TRI, triangles: &[[0, 1, 2]], color: [200, 60, 40], opacity: 1.0 };
        let rgb = render_rgb(&[mesh], &cam);
        assert_eq!(rgb.len(), 64 * 48 * 3);
        let c = pixel(&rgb, &cam, 32, 24);
        assert_ne!(c, BACKGROUND);
        assert!(c[0] > c[1] && c[0] > c[2], "shaded red: {c:?}");
        for (x, y) in [(0, 0), (63, 0), (0, 47), (63, 47)] {
            assert_eq!(pixel(&rgb, &cam, x, y), BACKGROUND);
        }
        // The back side is lit too (two-sided shading), just a little darker.
        let flipped = PreviewMesh { positions: &TRI, triangles: &[[0, 2, 1]], color: [200, 60, 40], opacity: 1.0 };
        let back = pixel(&render_rgb(&[flipped], &cam), &cam, 32, 24);
        assert!(back != BACKGROUND && back[0] > 60 && back[0] <= c[0], "{back:?} vs {c:?}");
    }

    #[test]
    fn z_buffer_keeps_nearest_surface() {
        let near: Vec<[f64; 3]> = TRI.iter().map(|p| [p[0], p[1], 0.5]).collect();
        let cam = Camera::fit(
            &[PreviewMesh { positions: &TRI, triangles: &[[0, 1, 2]], color: [0; 3], opacity: 1.0 }],
            [0.0, 1.0, 0.0],
            40,
            40,
        );
        // Which copy is nearer depends on the view direction; check against `project`.
        let near_is_front = cam.project(near[0])[2] > cam.project(TRI[0])[2];
        let centroid = [0.0, -1.0 / 3.0, 0.25];
        let [px, py, _] = cam.project(centroid);
        for m in [&TRI[..], &near[..]] {
            let alone = PreviewMesh { positions: m, triangles: &[[0, 1, 2]], color: [0; 3], opacity: 1.0 };
            let c = pixel(&render_rgb(&[alone], &cam), &cam, px as u32, py as u32);
            assert_ne!(c, BACKGROUND, "both triangles must cover the test pixel");
        }
        for order in [false, true] {
            let a = PreviewMesh { positions: &TRI, triangles: &[[0, 1, 2]], color: [250, 0, 0], opacity: 1.0 };
            let b = PreviewMesh { positions: &near, triangles: &[[0, 1, 2]], color: [0, 0, 250], opacity: 1.0 };
            let meshes = if order { [a, b] } else { [b, a] };
            let c = pixel(&render_rgb(&meshes, &cam), &cam, px as u32, py as u32);
            assert_eq!(c[2] > c[0], near_is_front, "{c:?}");
        }
    }

    /// A half-opaque blue triangle in front of an opaque red one tints it; behind it, it is
    /// hidden; with nothing behind it, it is blended over the background; opacity 0 hides it.
    #[test]
    fn translucent_meshes_blend_over_opaque_ones() {
        let near: Vec<[f64; 3]> = TRI.iter().map(|p| [p[0], p[1], 0.5]).collect();
        let red = |p| PreviewMesh { positions: p, triangles: &[[0, 1, 2]], color: [250, 0, 0], opacity: 1.0 };
        let blue = |p, opacity| PreviewMesh { positions: p, triangles: &[[0, 1, 2]], color: [0, 0, 250], opacity };
        let cam = Camera::fit(&[red(&TRI[..])], [0.0, 1.0, 0.0], 40, 40);
        let (near, far): (&[[f64; 3]], &[[f64; 3]]) = (&near, &TRI);
        let (front, back) = if cam.project(near[0])[2] > cam.project(far[0])[2] { (near, far) } else { (far, near) };
        let [px, py, _] = cam.project([0.0, -1.0 / 3.0, 0.25]);
        let at = |meshes: &[PreviewMesh]| pixel(&render_rgb(meshes, &cam), &cam, px as u32, py as u32);
        let solid = at(&[red(back)]);
        // Drawn first or last, the translucent mesh is blended after the opaque one.
        for tinted in [at(&[blue(front, 0.5), red(back)]), at(&[red(back), blue(front, 0.5)])] {
            assert!(tinted[2] > 50 && tinted[0] > 50 && tinted[0] < solid[0], "{tinted:?} over {solid:?}");
        }
        assert_eq!(at(&[red(front), blue(back, 0.5)]), at(&[red(front)]));
        let over_background = at(&[blue(front, 0.5)]);
        assert!(over_background != BACKGROUND && over_background[2] > over_background[0]);
        assert_eq!(at(&[blue(front, 0.0)]), BACKGROUND);
    }

    /// A view direction along +z shows the triangle in the z = 0 plane face-on; a bad one
    /// (zero, or along `up`) falls back to the default view.
    #[test]
    fn fit_towards_looks_from_the_given_side() {
        let mesh = PreviewMesh { positions: &TRI, triangles: &[[0, 1, 2]], color: [0; 3], opacity: 1.0 };
        let cam = Camera::fit_towards(&[mesh], [0.0, 1.0, 0.0], Some([0.0, 0.0, 2.0]), 40, 40);
        assert_eq!((cam.back, cam.right, cam.up), ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]));
        let default = Camera::fit(&[mesh], [0.0, 1.0, 0.0], 40, 40);
        for bad in [[0.0; 3], [0.0, 3.0, 0.0], [f64::NAN, 0.0, 1.0]] {
            assert_eq!(Camera::fit_towards(&[mesh], [0.0, 1.0, 0.0], Some(bad), 40, 40), default);
        }
    }

    #[test]
    fn bad_input_never_panics() {
        let pos = [[0.0, 0.0, 0.0], [f64::NAN, 0.0, 0.0], [1.0, 1.0, 0.0], [1e300, -1e300, 0.0]];
        let tris = [[0, 1, 2], [0, 2, 7], [u32::MAX, 0, 1], [0, 2, 3], [0, 0, 0]];
        let mesh = PreviewMesh { positions: &pos, triangles: &tris, color: [10, 20, 30], opacity: 1.0 };
        let cam = Camera::fit(&[mesh], [0.0, 0.0, 0.0], 16, 16);
        let mesh = PreviewMesh { positions: &pos, triangles: &tris, color: [10, 20, 30], opacity: 1.0 };
        assert_eq!(render_rgb(&[mesh], &cam).len(), 16 * 16 * 3);
        let empty = PreviewMesh { positions: &[], triangles: &[[0, 1, 2]], color: [0; 3], opacity: 1.0 };
        let cam = Camera::fit(&[empty], [0.0, 0.0, 1.0], 8, 8);
        let empty = PreviewMesh { positions: &[], triangles: &[[0, 1, 2]], color: [0; 3], opacity: 1.0 };
        assert!(render_rgb(&[empty], &cam).chunks(3).all(|c| c == BACKGROUND));
        let zero = Camera { width: 0, ..cam };
        assert!(render_rgb(&[], &zero).is_empty());
        assert!(render_image(&[], &zero).is_err());
    }
}
