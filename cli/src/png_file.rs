//! PNG files of the previews: the library renders them ([`grip::io::preview`]), this writes them.

use grip::io::preview::RgbImage;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// Writes `image` as an 8-bit RGB PNG file at `path`; the error names the file.
pub fn write_png(path: &Path, image: &RgbImage) -> Result<(), String> {
    let fail = |m: String| format!("{}: {m}", path.display());
    let file = File::create(path).map_err(|e| fail(e.to_string()))?;
    let mut enc = png::Encoder::new(BufWriter::new(file), image.width, image.height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let png_err = |e: png::EncodingError| fail(format!("PNG encoding failed: {e}"));
    let mut writer = enc.write_header().map_err(png_err)?;
    writer.write_image_data(&image.rgb).map_err(png_err)?;
    writer.finish().map_err(png_err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grip::io::preview::{render_image, render_rgb, Camera, PreviewMesh};

    const TRI: [[f64; 3]; 3] = [[-1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [0.0, 1.0, 0.0]];

    #[test]
    fn png_decodes_with_right_size_and_pixels() {
        let dir = std::env::temp_dir().join(format!("grip_png_test_{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let path = dir.join("tri.png");
        let mesh = || PreviewMesh { positions: &TRI, triangles: &[[0, 1, 2]], color: [90, 160, 220], opacity: 1.0 };
        let cam = Camera::fit(&[mesh()], [0.0, 0.0, 1.0], 50, 30);
        let image = render_image(&[mesh()], &cam).expect("render");
        write_png(&path, &image).expect("write");
        let file = std::io::BufReader::new(File::open(&path).expect("open"));
        let mut reader = png::Decoder::new(file).read_info().expect("png header");
        let mut buf = vec![0; reader.output_buffer_size().expect("size")];
        let info = reader.next_frame(&mut buf).expect("png data");
        assert_eq!((info.width, info.height), (50, 30));
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(&buf[..info.buffer_size()], &render_rgb(&[mesh()], &cam)[..]);
        let e = write_png(&dir.join("no/such/dir.png"), &image).expect_err("bad dir");
        assert!(e.contains("dir.png"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
