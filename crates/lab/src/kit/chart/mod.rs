//! Small charts for lab reports, drawn with `plotters` as SVG and PNG.
//!
//! Two kinds of chart cover what the experiments need:
//! - [`CategoryChart`]: one value per category per series, drawn as lines, grouped bars or
//!   stacked bars (negative values stack downwards), on a linear or log10 y axis. The SPP
//!   diagrams (leaf counts per position, pruning percentages per position) are of this kind.
//! - [`ScatterChart`]: point clouds with an optional fitted line
//!   ([`crate::kit::regression::fit_line`]), e.g. ProbCut's shallow-versus-deep search values.
//! - [`HeatMap`]: a value per cell of a grid of two categories, coloured on a scale that
//!   diverges at 0 and labelled with its own text, e.g. Elo ± CI per pair of thresholds
//!   (`augur-lab grid`, Jiang & Buro's Tables 2 and 3).
//!
//! ```no_run
//! use augur_lab::kit::chart::{Chart, CategoryChart, Series, Style, YScale};
//! let chart = CategoryChart::new("Leaves at depth 5", vec!["P1".into(), "P2".into()])
//!     .labels("position", "leaves")
//!     .style(Style::GroupedBars)
//!     .y_scale(YScale::Log10)
//!     .series(Series::new("alphabeta", vec![12000.0, 30000.0]))
//!     .series(Series::new("spp", vec![4000.0, 9000.0]));
//! Chart::from(chart).save(std::path::Path::new("out"), "leaves_d5").unwrap();
//! ```
//!
//! No system font is needed: plotters lays text out with `ab_glyph` metrics and resvg sets it
//! for the PNG, both in DejaVu Sans bundled into the binary (Bitstream Vera licence, `data/fonts/DejaVuSans-LICENSE.txt`).

mod draw;

use anyhow::{anyhow, Context, Result};
use plotters::prelude::*;
use resvg::{tiny_skia, usvg};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::kit::regression::LinearFit;

/// One named row of values; `f64::NAN` marks a missing value (no bar, a gap in a line).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub values: Vec<f64>,
    /// Per value an interval (low, high), drawn as a whisker in the series' colour (lines
    /// only): an estimate is read with its uncertainty, not as a bare point.
    pub interval: Option<Vec<(f64, f64)>>,
}

impl Series {
    pub fn new(name: impl Into<String>, values: Vec<f64>) -> Self {
        Series {
            name: name.into(),
            values,
            interval: None,
        }
    }
    /// The values' intervals, index by index (NaN bounds draw no whisker).
    pub fn with_interval(mut self, interval: Vec<(f64, f64)>) -> Self {
        self.interval = Some(interval);
        self
    }
}

/// How a [`CategoryChart`] draws its series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A polyline with markers per series.
    Lines,
    /// The series side by side within each category.
    GroupedBars,
    /// The series on top of each other; positive values upwards, negative downwards from 0.
    StackedBars,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YScale {
    Linear,
    /// Decades on the y axis; values <= 0 are not drawn.
    Log10,
}

/// Values per category (x axis: the categories in order, evenly spaced).
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<Series>,
    pub style: Style,
    pub y_scale: YScale,
    /// Force the y range (linear scale); otherwise it is fitted to the data (bars include 0).
    pub y_range: Option<(f64, f64)>,
}

impl CategoryChart {
    pub fn new(title: impl Into<String>, categories: Vec<String>) -> Self {
        CategoryChart {
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            categories,
            series: Vec::new(),
            style: Style::GroupedBars,
            y_scale: YScale::Linear,
            y_range: None,
        }
    }
    pub fn labels(mut self, x: impl Into<String>, y: impl Into<String>) -> Self {
        self.x_label = x.into();
        self.y_label = y.into();
        self
    }
    pub fn style(mut self, style: Style) -> Self {
        self.style = style;
        self
    }
    pub fn y_scale(mut self, scale: YScale) -> Self {
        self.y_scale = scale;
        self
    }
    pub fn y_range(mut self, lo: f64, hi: f64) -> Self {
        self.y_range = Some((lo, hi));
        self
    }
    /// Adds a series; its values are matched to the categories by index.
    pub fn series(mut self, series: Series) -> Self {
        self.series.push(series);
        self
    }
}

/// A named set of (x, y) points.
#[derive(Clone, Debug, PartialEq)]
pub struct PointSeries {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

impl PointSeries {
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        PointSeries {
            name: name.into(),
            points,
        }
    }
}

/// Points on linear x and y axes, with an optional fitted line drawn across the x range.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<PointSeries>,
    pub fit: Option<LinearFit>,
}

impl ScatterChart {
    pub fn new(title: impl Into<String>) -> Self {
        ScatterChart {
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            series: Vec::new(),
            fit: None,
        }
    }
    pub fn labels(mut self, x: impl Into<String>, y: impl Into<String>) -> Self {
        self.x_label = x.into();
        self.y_label = y.into();
        self
    }
    pub fn series(mut self, series: PointSeries) -> Self {
        self.series.push(series);
        self
    }
    /// Draws this line (e.g. from [`crate::kit::regression::fit_line`]) and its equation in the
    /// legend.
    pub fn fit(mut self, fit: LinearFit) -> Self {
        self.fit = Some(fit);
        self
    }
}

/// One value per cell of an x × y grid of categories, coloured blue above 0 and red below
/// (white at 0, full colour at ±`scale`), each cell labelled with its own text. The first y
/// category is drawn at the bottom, as on a numeric axis.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatMap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// What the colours measure, written beside the colour bar.
    pub value_label: String,
    pub x_categories: Vec<String>,
    pub y_categories: Vec<String>,
    /// `values[y][x]`; `f64::NAN` is a cell without a value (grey).
    pub values: Vec<Vec<f64>>,
    /// `labels[y][x]`: the text in each cell (lines split at `\n`).
    pub labels: Vec<Vec<String>>,
    /// The value drawn at full colour; default: the largest |value|.
    pub scale: Option<f64>,
}

impl HeatMap {
    /// An empty grid (every value missing, no labels) over these categories.
    pub fn new(
        title: impl Into<String>,
        x_categories: Vec<String>,
        y_categories: Vec<String>,
    ) -> Self {
        let (nx, ny) = (x_categories.len(), y_categories.len());
        HeatMap {
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            value_label: String::new(),
            x_categories,
            y_categories,
            values: vec![vec![f64::NAN; nx]; ny],
            labels: vec![vec![String::new(); nx]; ny],
            scale: None,
        }
    }
    pub fn labels(mut self, x: impl Into<String>, y: impl Into<String>) -> Self {
        self.x_label = x.into();
        self.y_label = y.into();
        self
    }
    pub fn value_label(mut self, label: impl Into<String>) -> Self {
        self.value_label = label.into();
        self
    }
    pub fn scale(mut self, scale: f64) -> Self {
        self.scale = Some(scale);
        self
    }
    /// Sets cell (`x`, `y`) (indices into the categories); out-of-range cells are ignored.
    pub fn cell(mut self, x: usize, y: usize, value: f64, label: impl Into<String>) -> Self {
        if let Some(row) = self.values.get_mut(y) {
            if let Some(v) = row.get_mut(x) {
                *v = value;
                self.labels[y][x] = label.into();
            }
        }
        self
    }
    /// The value drawn at full colour: `scale`, else the largest finite |value| (1 if none).
    pub fn full_scale(&self) -> f64 {
        self.scale.filter(|s| *s > 0.0).unwrap_or_else(|| {
            let m = self
                .values
                .iter()
                .flatten()
                .filter(|v| v.is_finite())
                .fold(0.0f64, |m, v| m.max(v.abs()));
            if m > 0.0 {
                m
            } else {
                1.0
            }
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    Category(CategoryChart),
    Scatter(ScatterChart),
    HeatMap(HeatMap),
}

impl From<HeatMap> for Chart {
    fn from(c: HeatMap) -> Self {
        Chart::HeatMap(c)
    }
}

impl From<CategoryChart> for Chart {
    fn from(c: CategoryChart) -> Self {
        Chart::Category(c)
    }
}

impl From<ScatterChart> for Chart {
    fn from(c: ScatterChart) -> Self {
        Chart::Scatter(c)
    }
}

/// DejaVu Sans (Bitstream Vera licence; see `data/fonts/DejaVuSans-LICENSE.txt`).
static FONT: &[u8] = include_bytes!("../../../data/fonts/DejaVuSans.ttf");

/// Registers the bundled font with plotters once (its `ab_glyph` font table is global); every
/// text style of the charts asks for this family.
fn register_font() -> Result<()> {
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE.get_or_init(|| {
        plotters::style::register_font(draw::FAMILY, FontStyle::Normal, FONT).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(anyhow!("the bundled chart font cannot be read"))
    }
}

fn font_db() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        // Whatever family the SVG asks for, the one font we have.
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        db.set_monospace_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// Rasterises an SVG document at 1 px per user unit on white and encodes it as PNG.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>> {
    let opt = usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: font_db(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).context("parsing the SVG")?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| anyhow!("empty image size {}x{}", size.width(), size.height()))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().context("encoding the PNG")
}

impl Chart {
    fn size(&self) -> (u32, u32) {
        match self {
            Chart::Category(c) => draw::category_size(c),
            Chart::Scatter(_) => draw::SCATTER_SIZE,
            Chart::HeatMap(c) => draw::heat_map_size(c),
        }
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: DrawingArea<DB, plotters::coord::Shift>,
    ) -> Result<()> {
        register_font()?;
        match self {
            Chart::Category(c) => draw::category(c, area),
            Chart::Scatter(c) => draw::scatter(c, area),
            Chart::HeatMap(c) => draw::heat_map(c, area),
        }
    }

    /// A standalone SVG document; its text names the family `sans-serif`.
    pub fn to_svg(&self) -> Result<String> {
        let mut svg = String::new();
        self.draw(SVGBackend::with_string(&mut svg, self.size()).into_drawing_area())?;
        Ok(svg)
    }

    /// The SVG rasterised at its own size by resvg with the bundled font, PNG-encoded.
    /// (Plotters' bitmap backend places each glyph on whole pixels, which leaves visible gaps
    /// inside words; resvg sets the same text as the SVG does.)
    pub fn to_png(&self) -> Result<Vec<u8>> {
        svg_to_png(&self.to_svg()?)
    }

    /// Writes `DIR/STEM.svg` and `DIR/STEM.png` (creating DIR) and returns both paths.
    pub fn save(&self, dir: &Path, stem: &str) -> Result<(PathBuf, PathBuf)> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let svg_path = dir.join(format!("{stem}.svg"));
        let png_path = dir.join(format!("{stem}.png"));
        let svg = self.to_svg().with_context(|| format!("drawing {stem}"))?;
        std::fs::write(&svg_path, &svg)
            .with_context(|| format!("writing {}", svg_path.display()))?;
        let png = svg_to_png(&svg).with_context(|| format!("rendering {stem} to PNG"))?;
        std::fs::write(&png_path, png)
            .with_context(|| format!("writing {}", png_path.display()))?;
        Ok((svg_path, png_path))
    }
}
