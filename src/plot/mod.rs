//! Pictures of SG values: a heatmap of a 2-D slice of positions with the zero positions
//! marked ([`Heatmap`]), and a heap game's nim sequence with its period marked
//! ([`SequenceChart`]), drawn with plotters as PNG or SVG by the file's extension.
//!
//! Labels need a TrueType font; it is read from `GRUNDY_FONT` or the usual system places
//! ([`FONTS`]), so that the binary links no font library.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use grundy_core::error::Error;
use grundy_core::game::Nimber;

/// Where a sans-serif font is looked for when `GRUNDY_FONT` is not set.
pub const FONTS: [&str; 4] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

/// A 2-D slice of positions and their values: `values[y][x]`, `None` where the game has no
/// such position (a Chomp column higher than the one before it).
#[derive(Clone, Debug)]
pub struct Heatmap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub values: Vec<Vec<Option<Nimber>>>,
}

/// A nim sequence G(0..) with its period when one is known.
#[derive(Clone, Debug)]
pub struct SequenceChart {
    pub title: String,
    pub values: Vec<Nimber>,
    /// (preperiod, period, proved).
    pub period: Option<(usize, usize, bool)>,
    /// What each period adds to the values (0 for plain periodicity).
    pub saltus: Nimber,
}

/// The picture's size in pixels.
const SIZE: (u32, u32) = (900, 720);

/// What can be drawn on any plotters backend.
trait Picture {
    fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String>;
}

impl Heatmap {
    /// Draws the heatmap to `path` (`.png` or `.svg`): one cell a position, coloured by
    /// value on a scale shown beside it, zero positions black with a white dot.
    pub fn draw(&self, path: &Path) -> Result<(), Error> {
        render(path, self)
    }
}

impl Picture for Heatmap {
    fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        root.fill(&WHITE).map_err(err)?;
        let (w, h) = (
            self.values.first().map_or(0, |r| r.len()),
            self.values.len(),
        );
        let top = self
            .values
            .iter()
            .flatten()
            .flatten()
            .copied()
            .max()
            .unwrap_or(0);
        let (plot, legend) = root.split_horizontally(SIZE.0 - 130);
        // Cell (x, y) spans x - 1/2 .. x + 1/2, so that the ticks fall on the counts.
        let mut chart = ChartBuilder::on(&plot)
            .caption(&self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d(-0.5..w as f64 - 0.5, -0.5..h as f64 - 0.5)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_labels(w.min(21))
            .y_labels(h.min(21))
            .x_label_formatter(&whole)
            .y_label_formatter(&whole)
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .draw()
            .map_err(err)?;
        let cell = |x: usize, y: usize| {
            let (x, y) = (x as f64, y as f64);
            [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)]
        };
        let cells = self.values.iter().enumerate().flat_map(|(y, row)| {
            row.iter().enumerate().filter_map(move |(x, v)| {
                v.map(|v| Rectangle::new(cell(x, y), colour(v, top).filled()))
            })
        });
        chart.draw_series(cells).map_err(err)?;
        // Zeros stand out on any scale: a white dot in the middle of the cell.
        let (a, b) = (
            chart.backend_coord(&(0.0, 0.0)),
            chart.backend_coord(&(1.0, 1.0)),
        );
        let radius = ((b.0 - a.0).min(a.1 - b.1) / 6).clamp(1, 6);
        let zeros = self.values.iter().enumerate().flat_map(|(y, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, v)| **v == Some(0))
                .map(move |(x, _)| (x as f64, y as f64))
        });
        chart
            .draw_series(zeros.map(|at| Circle::new(at, radius, WHITE.filled())))
            .map_err(err)?;
        legend_bar(&legend, top).map_err(err)
    }
}

/// A colour bar of the values 0..=top, with the zero's mark.
fn legend_bar<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    top: Nimber,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let mut bar = ChartBuilder::on(area)
        .margin_top(50)
        .margin_bottom(57)
        .margin_right(20)
        .y_label_area_size(45)
        .caption("nimber", ("sans-serif", 16))
        .build_cartesian_2d(0.0..1.0, -0.5..top as f64 + 0.5)?;
    bar.configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_labels(((top + 1) as usize).min(16))
        .y_label_formatter(&whole)
        .label_style(("sans-serif", 14))
        .draw()?;
    bar.draw_series((0..=top).map(|v| {
        let v0 = v as f64;
        Rectangle::new([(0.0, v0 - 0.5), (1.0, v0 + 0.5)], colour(v, top).filled())
    }))?;
    Ok(())
}

/// A tick's label when it falls on a whole count; none between counts.
fn whole(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{v}")
    } else {
        String::new()
    }
}

/// The colour of value `v` on a scale up to `top`: 0 black, the rest from the viridis map.
fn colour(v: Nimber, top: Nimber) -> RGBColor {
    if v == 0 {
        return BLACK;
    }
    // Viridis, sampled: dark blue through green to yellow.
    const STOPS: [(u8, u8, u8); 6] = [
        (68, 1, 84),
        (65, 68, 135),
        (42, 120, 142),
        (34, 168, 132),
        (122, 209, 81),
        (253, 231, 37),
    ];
    let t = if top <= 1 {
        1.0
    } else {
        (v - 1) as f64 / (top - 1) as f64
    };
    let s = t * (STOPS.len() - 1) as f64;
    let i = (s.floor() as usize).min(STOPS.len() - 2);
    let f = s - i as f64;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

impl SequenceChart {
    /// The chart of `values` (G(0), G(1), ...) of the rule `name`, with the period `a`
    /// proved or, failing that, observed; its title says which.
    pub fn of(name: &str, values: Vec<Nimber>, a: &grundy_core::period::Analysis) -> Self {
        let proved = a
            .proved
            .as_ref()
            .map(|p| ((p.preperiod, p.period, true), p.saltus));
        let (period, saltus) = match proved.or(a
            .observed
            .as_ref()
            .map(|o| ((o.preperiod, o.period, false), o.saltus)))
        {
            Some((period, saltus)) => (Some(period), saltus),
            None => (None, 0),
        };
        let mut chart = SequenceChart {
            title: String::new(),
            values,
            period,
            saltus,
        };
        chart.title = format!("{name}: nim sequence ({})", chart.note());
        chart
    }

    /// The period in words: "preperiod 71, period 12, proved" (with the saltus of an
    /// arithmetic period: "preperiod 1, period 53, saltus 16, proved").
    pub fn note(&self) -> String {
        let saltus = if self.saltus > 0 {
            format!(", saltus {}", self.saltus)
        } else {
            String::new()
        };
        match self.period {
            Some((n0, p, true)) => format!("preperiod {n0}, period {p}{saltus}, proved"),
            Some((n0, p, false)) => {
                format!("preperiod {n0}, period {p}{saltus}, observed, not proved")
            }
            None => "no period found".into(),
        }
    }

    /// Draws G(n) against n to `path` (`.png` or `.svg`), the preperiod shaded and each
    /// period's start marked by a line.
    pub fn draw(&self, path: &Path) -> Result<(), Error> {
        render(path, self)
    }
}

impl Picture for SequenceChart {
    fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        root.fill(&WHITE).map_err(err)?;
        let n = self.values.len() as u32;
        // Headroom above the largest value for the legend.
        let top = self.values.iter().copied().max().unwrap_or(0) + 1;
        let top = top + top / 4 + 1;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 22))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d(0..n, 0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_desc("heap n")
            .y_desc("G(n)")
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .draw()
            .map_err(err)?;
        if let Some((n0, p, _)) = self.period {
            let grey = RGBColor(225, 225, 225);
            if n0 > 0 {
                chart
                    .draw_series([Rectangle::new([(0, 0), (n0 as u32, top)], grey.filled())])
                    .map_err(err)?
                    .label("preperiod")
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 14, y + 5)], grey.filled())
                    });
            }
            let starts = (0..).map(|k| n0 + k * p).take_while(|&s| s < n as usize);
            let red = RGBColor(200, 40, 40);
            chart
                .draw_series(starts.map(|s| {
                    PathElement::new(vec![(s as u32, 0), (s as u32, top)], red.stroke_width(1))
                }))
                .map_err(err)?
                .label("a period starts")
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], red));
        }
        let blue = RGBColor(30, 80, 170);
        chart
            .draw_series(LineSeries::new(
                self.values.iter().enumerate().map(|(i, &v)| (i as u32, v)),
                blue.mix(0.5),
            ))
            .map_err(err)?;
        let dot = if n <= 400 { 3 } else { 1 };
        chart
            .draw_series(
                self.values
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| Circle::new((i as u32, v), dot, blue.filled())),
            )
            .map_err(err)?;
        if self.period.is_some() {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK)
                .label_font(("sans-serif", 14))
                .draw()
                .map_err(err)?;
        }
        Ok(())
    }
}

/// The extension's format, checked before any work.
pub fn check_path(path: &Path) -> Result<(), Error> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("png" | "svg") => Ok(()),
        _ => Err(Error::Usage(format!(
            "{}: a plot is written as .png or .svg",
            path.display()
        ))),
    }
}

/// Draws with `paint` on a backend for `path`'s extension, written to a temporary file and
/// renamed, so a failed drawing leaves no picture passed off as complete.
fn render(path: &Path, picture: &impl Picture) -> Result<(), Error> {
    check_path(path)?;
    load_font()?;
    let failed = |e: String| Error::internal(format!("drawing {}: {e}", path.display()));
    if path.extension().and_then(|e| e.to_str()) == Some("svg") {
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
            picture.paint(&root).map_err(failed)?;
            root.present().map_err(|e| failed(e.to_string()))?;
        }
        return grundy_core::files::write(path, &text);
    }
    let mut pixels = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, SIZE).into_drawing_area();
        picture.paint(&root).map_err(failed)?;
        root.present().map_err(|e| failed(e.to_string()))?;
    }
    let mut png = Vec::new();
    use image::ImageEncoder;
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(&pixels, SIZE.0, SIZE.1, image::ColorType::Rgb8)
        .map_err(|e| failed(e.to_string()))?;
    grundy_core::files::write_bytes(path, &png)
}

/// Registers the labels' font once.
fn load_font() -> Result<(), Error> {
    static LOADED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    LOADED
        .get_or_init(|| {
            let given = std::env::var("GRUNDY_FONT").ok();
            let candidates: Vec<&str> = match &given {
                Some(p) => vec![p.as_str()],
                None => FONTS.to_vec(),
            };
            let bytes = candidates
                .iter()
                .find_map(|p| std::fs::read(p).ok())
                .ok_or_else(|| {
                    format!(
                        "no TrueType font for the labels at {}; set GRUNDY_FONT to a .ttf file",
                        candidates.join(", ")
                    )
                })?;
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
                .map_err(|_| "the font file is not a TrueType font".to_string())
        })
        .clone()
        .map_err(Error::Resource)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_keep_zero_black_and_grow_with_the_value() {
        assert_eq!(colour(0, 9), BLACK);
        assert_eq!(colour(1, 9), RGBColor(68, 1, 84));
        assert_eq!(colour(9, 9), RGBColor(253, 231, 37));
        assert_ne!(colour(4, 9), colour(5, 9));
        assert_eq!(colour(1, 1), RGBColor(253, 231, 37));
        assert!(check_path(Path::new("a.jpg")).is_err() && check_path(Path::new("a.svg")).is_ok());
    }
}
