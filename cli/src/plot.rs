//! Line plots and captioned side-by-side panels drawn into an [`RgbImage`] with
//! embedded-graphics (lines, markers and its built-in bitmap fonts, so no font file or system
//! library is needed), for the figures `grip slip-vs-mu` and `grip damping` write.

use embedded_graphics::mono_font::ascii::{FONT_6X10, FONT_9X15};
use embedded_graphics::mono_font::{MonoFont, MonoTextStyle};
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Circle, Line, PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};
use grip::io::preview::RgbImage;
use std::convert::Infallible;

/// Text and axis colour.
const INK: [u8; 3] = [30, 30, 30];
/// Grid line colour.
const GRID: [u8; 3] = [215, 215, 215];
/// Plot background.
const PAPER: [u8; 3] = [255, 255, 255];
/// Width (pixels) of the legend column of [`Legend::Right`].
const LEGEND_COLUMN: i32 = 150;

/// An RGB image that embedded-graphics draws into; pixels outside it are dropped.
pub struct Canvas {
    /// The pixels.
    pub image: RgbImage,
}

impl Canvas {
    /// A `width` × `height` canvas filled with `color`.
    pub fn new(width: u32, height: u32, color: [u8; 3]) -> Self {
        let rgb = color.iter().copied().cycle().take(width as usize * height as usize * 3).collect();
        Self { image: RgbImage { width, height, rgb } }
    }

    /// Copies `image` with its top-left corner at (`x`, `y`) (pixels), clipped to the canvas.
    pub fn blit(&mut self, image: &RgbImage, x: u32, y: u32) {
        for row in 0..image.height.min(self.image.height.saturating_sub(y)) {
            let n = image.width.min(self.image.width.saturating_sub(x)) as usize * 3;
            let from = (row * image.width) as usize * 3;
            let to = (((y + row) * self.image.width + x) as usize) * 3;
            self.image.rgb[to..to + n].copy_from_slice(&image.rgb[from..from + n]);
        }
    }

    /// Draws `text` in `font` and `color` anchored at `at` (the baseline's middle, or its left
    /// end for [`Alignment::Left`]).
    fn text(&mut self, text: &str, at: Point, font: &MonoFont, color: [u8; 3], align: Alignment) {
        let style = MonoTextStyle::new(font, rgb(color));
        let layout = TextStyleBuilder::new().alignment(align).baseline(Baseline::Middle).build();
        let Ok(_) = Text::with_text_style(text, at, style, layout).draw(self);
    }

    /// A line from `a` to `b`, `width` pixels wide.
    fn line(&mut self, a: Point, b: Point, color: [u8; 3], width: u32) {
        let Ok(_) = Line::new(a, b).into_styled(PrimitiveStyle::with_stroke(rgb(color), width)).draw(self);
    }
}

fn rgb(c: [u8; 3]) -> Rgb888 {
    Rgb888::new(c[0], c[1], c[2])
}

impl OriginDimensions for Canvas {
    fn size(&self) -> Size {
        Size::new(self.image.width, self.image.height)
    }
}

impl DrawTarget for Canvas {
    type Color = Rgb888;
    type Error = Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<Rgb888>>>(&mut self, pixels: I) -> Result<(), Infallible> {
        let (w, h) = (self.image.width as i32, self.image.height as i32);
        for Pixel(p, c) in pixels {
            if (0..w).contains(&p.x) && (0..h).contains(&p.y) {
                let i = (p.y * w + p.x) as usize * 3;
                self.image.rgb[i..i + 3].copy_from_slice(&[c.r(), c.g(), c.b()]);
            }
        }
        Ok(())
    }
}

/// One curve of a [`LinePlot`]: points joined by lines, each marked with a dot if `markers`.
pub struct Series<'a> {
    /// Legend text.
    pub label: &'a str,
    /// (x, y) in the axes' units, in drawing order.
    pub points: Vec<(f64, f64)>,
    /// Line and marker colour.
    pub color: [u8; 3],
    /// Whether each point gets a dot (for a few measured points, not for a dense time series).
    pub markers: bool,
}

/// Where a [`LinePlot`] draws its legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legend {
    /// In the plot area's top right corner.
    Inside,
    /// In a column right of the plot area, which narrows to leave room for it.
    Right,
}

/// A line plot with a title, labelled axes (x from 0, y from 0 or a rounded minimum below it, to
/// rounded maxima), grid lines at rounded ticks, and a legend.
pub struct LinePlot<'a> {
    /// Title above the plot.
    pub title: &'a str,
    /// x axis label.
    pub x_label: &'a str,
    /// y axis label.
    pub y_label: &'a str,
    /// The curves.
    pub series: Vec<Series<'a>>,
    /// Where the legend goes.
    pub legend: Legend,
}

/// Tick spacing of 1, 2 or 5 × 10ᵏ giving about `count` intervals over [0, `max`].
pub fn tick_step(max: f64, count: f64) -> f64 {
    let raw = (max / count).max(f64::MIN_POSITIVE);
    let decade = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * decade).find(|s| *s >= raw).unwrap_or(10.0 * decade)
}

/// `x` with as many decimals as `step` needs.
fn tick_label(x: f64, step: f64) -> String {
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    format!("{x:.decimals$}")
}

impl LinePlot<'_> {
    /// Draws the plot into a `width` × `height` image. Non-finite points are left out.
    pub fn draw(&self, width: u32, height: u32) -> RgbImage {
        let mut c = Canvas::new(width, height, PAPER);
        let key_column = if self.legend == Legend::Right { LEGEND_COLUMN } else { 0 };
        let (left, right, top, bottom) = (70i32, width as i32 - 20 - key_column, 40i32, height as i32 - 50);
        let finite = |p: &&(f64, f64)| p.0.is_finite() && p.1.is_finite();
        let all: Vec<(f64, f64)> = self.series.iter().flat_map(|s| s.points.iter().filter(finite).copied()).collect();
        let max = |f: fn(&(f64, f64)) -> f64| all.iter().map(f).fold(0.0, f64::max);
        let y_min = all.iter().map(|p| p.1).fold(0.0, f64::min);
        let span = max(|p| p.1) - y_min;
        let (sx, sy) = (tick_step(max(|p| p.0), 8.0), tick_step(span, 6.0));
        let x_max = (max(|p| p.0) / sx).ceil().max(1.0) * sx;
        // The y range in whole ticks [k0, k1]·sy, 5 % of the span beyond the data on each side.
        let k0 = if y_min < 0.0 { ((y_min - 0.05 * span) / sy).floor() as i32 } else { 0 };
        let k1 = ((max(|p| p.1) + 0.05 * span) / sy).ceil().max(f64::from(k0) + 1.0) as i32;
        let (y_lo, y_hi) = (f64::from(k0) * sy, f64::from(k1) * sy);
        let px = |x: f64| left + ((x / x_max) * f64::from(right - left)).round() as i32;
        let py = |y: f64| bottom - (((y - y_lo) / (y_hi - y_lo)) * f64::from(bottom - top)).round() as i32;
        for k in 0..=((x_max / sx).round() as i32) {
            let x = f64::from(k) * sx;
            c.line(Point::new(px(x), top), Point::new(px(x), bottom), GRID, 1);
            c.text(&tick_label(x, sx), Point::new(px(x), bottom + 12), &FONT_6X10, INK, Alignment::Center);
        }
        for k in k0..=k1 {
            let y = f64::from(k) * sy;
            c.line(Point::new(left, py(y)), Point::new(right, py(y)), GRID, 1);
            c.text(&tick_label(y, sy), Point::new(left - 6, py(y)), &FONT_6X10, INK, Alignment::Right);
        }
        c.line(Point::new(left, bottom), Point::new(right, bottom), INK, 1);
        c.line(Point::new(left, top), Point::new(left, bottom), INK, 1);
        c.text(self.title, Point::new(width as i32 / 2, 18), &FONT_9X15, INK, Alignment::Center);
        c.text(self.x_label, Point::new((left + right) / 2, bottom + 32), &FONT_9X15, INK, Alignment::Center);
        c.text(self.y_label, Point::new(8, top - 16), &FONT_6X10, INK, Alignment::Left);
        for (i, s) in self.series.iter().enumerate() {
            let points: Vec<Point> = s.points.iter().filter(finite).map(|p| Point::new(px(p.0), py(p.1))).collect();
            for pair in points.windows(2) {
                c.line(pair[0], pair[1], s.color, 2);
            }
            for p in points.iter().filter(|_| s.markers) {
                let Ok(_) =
                    Circle::with_center(*p, 7).into_styled(PrimitiveStyle::with_fill(rgb(s.color))).draw(&mut c);
            }
            let y = top + 14 + 18 * i as i32;
            let key_x = if self.legend == Legend::Right { right + 16 } else { right - 150 };
            let key = Rectangle::new(Point::new(key_x, y - 2), Size::new(18, 4));
            let Ok(_) = key.into_styled(PrimitiveStyle::with_fill(rgb(s.color))).draw(&mut c);
            c.text(s.label, Point::new(key_x + 24, y), &FONT_9X15, INK, Alignment::Left);
        }
        c.image
    }
}

/// A colour ramp for t in [0, 1] (clamped): blue, through pale yellow, to red.
pub fn ramp(t: f64) -> [u8; 3] {
    const STOPS: [[f64; 3]; 3] = [[60.0, 110.0, 200.0], [245.0, 225.0, 120.0], [200.0, 35.0, 35.0]];
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) } * 2.0;
    let (k, f) = if t >= 1.0 { (1, t - 1.0) } else { (0, t) };
    [0, 1, 2].map(|i| (STOPS[k][i] + f * (STOPS[k + 1][i] - STOPS[k][i])).round() as u8)
}

/// A `width`-pixel strip, 40 pixels high, keying `colors` (left to right, equal boxes) to
/// `labels` written under the boxes' left edges, after a `title` on the left.
pub fn color_key(width: u32, title: &str, colors: &[[u8; 3]], labels: &[String]) -> RgbImage {
    let mut c = Canvas::new(width, 40, PAPER);
    let left = 20 + 9 * title.len() as i32;
    c.text(title, Point::new(10, 12), &FONT_9X15, INK, Alignment::Left);
    let box_width = ((width as i32 - left - 40) / colors.len().max(1) as i32).max(1);
    for (i, color) in colors.iter().enumerate() {
        let x = left + box_width * i as i32;
        let key = Rectangle::new(Point::new(x, 4), Size::new(box_width as u32, 16));
        let Ok(_) = key.into_styled(PrimitiveStyle::with_fill(rgb(*color))).draw(&mut c);
    }
    for (i, label) in labels.iter().enumerate() {
        c.text(label, Point::new(left + box_width * i as i32, 30), &FONT_6X10, INK, Alignment::Center);
    }
    c.image
}

/// The images stacked top to bottom, left-aligned, on white.
pub fn stacked(images: &[&RgbImage]) -> RgbImage {
    let width = images.iter().map(|i| i.width).max().unwrap_or(0);
    let mut c = Canvas::new(width, images.iter().map(|i| i.height).sum(), PAPER);
    let mut y = 0;
    for image in images {
        c.blit(image, 0, y);
        y += image.height;
    }
    c.image
}

/// The images side by side, each under its caption, on a white strip; all images must have
/// the same height.
pub fn side_by_side(panels: &[(&RgbImage, &str)]) -> RgbImage {
    let caption = 28;
    let width = panels.iter().map(|(p, _)| p.width).sum();
    let height = panels.iter().map(|(p, _)| p.height).max().unwrap_or(0) + caption;
    let mut c = Canvas::new(width, height, PAPER);
    let mut x = 0;
    for (image, text) in panels {
        c.blit(image, x, caption);
        c.text(text, Point::new((x + image.width / 2) as i32, 14), &FONT_9X15, INK, Alignment::Center);
        x += image.width;
    }
    c.image
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(tick_step(0.8, 8.0), 0.1);
        assert_eq!(tick_step(51.0, 6.0), 10.0);
        assert_eq!(tick_step(12.0, 6.0), 2.0);
        assert_eq!(tick_step(0.03, 6.0), 0.005);
        assert_eq!(
            (tick_label(0.4, 0.1), tick_label(20.0, 10.0), tick_label(0.005, 0.005)),
            ("0.4".into(), "20".into(), "0.005".into())
        );
    }

    /// The curve's pixels land where its data are: a point at the top right of the range is
    /// drawn near the plot's top right corner, in the series' colour; captions and panels keep
    /// the panels' pixels.
    #[test]
    fn plot_draws_its_points_and_panels_keep_their_pixels() {
        let red = [200, 30, 30];
        let plot = LinePlot {
            title: "t",
            x_label: "x",
            y_label: "y",
            series: vec![Series {
                label: "s",
                points: vec![(0.0, 0.0), (1.0, 10.0), (f64::NAN, 1.0)],
                color: red,
                markers: true,
            }],
            legend: Legend::Inside,
        };
        let image = plot.draw(400, 300);
        let at = |x: u32, y: u32| &image.rgb[((y * 400 + x) * 3) as usize..((y * 400 + x) * 3 + 3) as usize];
        // x: 0..1 over pixels 70..380; y: 0..11 (10 × 1.05 rounded up to the tick 2 → 12) over 250..40.
        let (x1, y1) = (380, 250 - (10.0 / 12.0 * 210.0f64).round() as u32);
        assert_eq!(at(x1, y1), red);
        assert_eq!(at(70, 250), red);
        assert_eq!(at(5, 299), PAPER);
        let panel = RgbImage { width: 2, height: 3, rgb: vec![7; 18] };
        let both = side_by_side(&[(&panel, "a"), (&panel, "b")]);
        assert_eq!((both.width, both.height), (4, 31));
        assert!(both.rgb[(28 * 4 * 3)..].iter().all(|&v| v == 7));
        let key = color_key(300, "k", &[ramp(0.0), ramp(1.0)], &["0".into(), "1".into()]);
        let tall = stacked(&[&both, &key]);
        assert_eq!((tall.width, tall.height), (300, 71));
        assert_eq!(&tall.rgb[..12], &both.rgb[..12]);
    }

    /// Negative data extend the y axis below 0 by whole ticks; a right-hand legend narrows the
    /// plot area and draws its key beside it; a dense series without markers is just its line.
    #[test]
    fn negative_values_and_a_legend_on_the_right() {
        let blue = [30, 60, 200];
        let plot = LinePlot {
            title: "t",
            x_label: "x",
            y_label: "y",
            series: vec![Series { label: "s", points: vec![(0.0, 0.0), (2.0, -10.0)], color: blue, markers: false }],
            legend: Legend::Right,
        };
        let image = plot.draw(400, 300);
        let at = |x: i32, y: i32| &image.rgb[((y * 400 + x) * 3) as usize..((y * 400 + x) * 3 + 3) as usize];
        // x: 0..2 over pixels 70..230; y: ticks of 2 from −12 (−10.5 rounded down) to 2 (0.5 up),
        // over 250..40, so y = 0 is at 250 − 12/14 · 210 = 70 and y = −10 at 250 − 2/14 · 210 = 220.
        assert_eq!(at(70, 70), blue);
        assert_eq!(at(230, 220), blue);
        assert_ne!(at(66, 70), blue, "no marker dot");
        let key_row = 40 + 14;
        assert_eq!(at(230 + 16 + 9, key_row), blue);
    }

    #[test]
    fn ramp_runs_from_blue_through_yellow_to_red() {
        assert_eq!((ramp(0.0), ramp(0.5), ramp(1.0)), ([60, 110, 200], [245, 225, 120], [200, 35, 35]));
        assert_eq!((ramp(-1.0), ramp(2.0), ramp(f64::NAN)), (ramp(0.0), ramp(1.0), ramp(0.0)));
    }
}
