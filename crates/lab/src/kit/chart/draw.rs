//! The two chart kinds drawn with `plotters`, on any of its backends (`mod.rs` uses the SVG
//! one for both files). What is ours here is the layout of a lab chart: the title, a legend
//! strip under it that wraps, categories evenly spaced on x, bars that grow from 0 (or from
//! the bottom decade on a log axis), stacks that go down for negative values.

use std::ops::Range;

use anyhow::{anyhow, Result};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{CategoryChart, HeatMap, ScatterChart, Style, YScale};

/// The category10 palette (as matplotlib's default), repeated past ten series.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];
/// The family the bundled font is registered under (`mod.rs`).
pub const FAMILY: &str = "sans-serif";
/// Plotters' text sizes are ab_glyph's pixel heights; the SVG backend writes size / 1.24 as
/// the CSS font size, so 15 gives 12 px text.
const TEXT: f64 = 15.0;
const TITLE: f64 = 20.0;
const GRID: RGBColor = RGBColor(0xdd, 0xdd, 0xdd);

fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

fn text_style() -> TextStyle<'static> {
    (FAMILY, TEXT).into_font().color(&BLACK)
}

/// Plotters' error type depends on the backend; the lab only reports it.
fn fail<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing the chart: {e:?}")
}

/// How a legend entry is drawn: a filled square (bars, points) or a line (lines, fits).
#[derive(Clone, Copy, PartialEq)]
enum Mark {
    Square,
    Line,
    Dot,
}

struct LegendEntry {
    name: String,
    color: RGBColor,
    mark: Mark,
}

/// One legend entry per series, in the palette's order.
fn series_entries<'a>(names: impl Iterator<Item = &'a String>, mark: Mark) -> Vec<LegendEntry> {
    names
        .enumerate()
        .map(|(i, name)| LegendEntry {
            name: name.clone(),
            color: color(i),
            mark,
        })
        .collect()
}

/// Legend rows: entries left to right, wrapping at `width`; each row is a list of (x, entry).
fn legend_rows<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    left: i32,
    width: i32,
) -> Result<Vec<Vec<(i32, usize)>>> {
    let mut rows: Vec<Vec<(i32, usize)>> = vec![Vec::new()];
    let mut x = left;
    for (i, e) in entries.iter().enumerate() {
        let (tw, _) = area
            .estimate_text_size(&e.name, &text_style())
            .map_err(fail)?;
        let w = 26 + tw as i32 + 18;
        if x + w > left + width && x > left {
            rows.push(Vec::new());
            x = left;
        }
        rows.last_mut().expect("one row at least").push((x, i));
        x += w;
    }
    Ok(rows)
}

const LEGEND_ROW: i32 = 20;

/// Draws the title and the legend; returns the area left for the plot.
fn frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    entries: &[LegendEntry],
    left: i32,
) -> Result<DrawingArea<DB, Shift>> {
    root.fill(&WHITE).map_err(fail)?;
    let (w, _) = root.dim_in_pixel();
    root.draw(&Text::new(
        title.to_string(),
        (w as i32 / 2, 10),
        (FAMILY, TITLE)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))
    .map_err(fail)?;
    let rows = legend_rows(root, entries, left, w as i32 - left - 20)?;
    let top = 40;
    for (r, row) in rows.iter().enumerate() {
        let y = top + r as i32 * LEGEND_ROW + LEGEND_ROW / 2;
        for &(x, i) in row {
            let e = &entries[i];
            match e.mark {
                Mark::Square => root
                    .draw(&Rectangle::new(
                        [(x, y - 6), (x + 14, y + 6)],
                        e.color.filled(),
                    ))
                    .map_err(fail)?,
                Mark::Line => root
                    .draw(&PathElement::new(
                        vec![(x, y), (x + 20, y)],
                        e.color.stroke_width(3),
                    ))
                    .map_err(fail)?,
                Mark::Dot => root
                    .draw(&Circle::new((x + 7, y), 4, e.color.filled()))
                    .map_err(fail)?,
            }
            root.draw(&Text::new(
                e.name.clone(),
                (x + 26, y),
                text_style().pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(fail)?;
        }
    }
    let used = top + rows.len() as i32 * LEGEND_ROW + 6;
    Ok(root.split_vertically(used).1)
}

/// Tick labels: 1.5k / 2M for big numbers, otherwise as many decimals as the axis span needs.
fn tick_label(v: f64, span: f64) -> String {
    if v.abs() >= 1e4 {
        return short_number(v);
    }
    let decimals = if span > 0.0 {
        (2.0 - span.log10().floor()).clamp(0.0, 8.0) as usize
    } else {
        0
    };
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

/// 1500 -> "1.5k", 2000000 -> "2M", 12 -> "12", 0.5 -> "0.5".
pub fn short_number(v: f64) -> String {
    let a = v.abs();
    let (scaled, suffix) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e4 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let text = if (scaled - scaled.round()).abs() < 1e-9 {
        format!("{}", scaled.round() as i64)
    } else {
        let s = format!("{scaled:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    format!("{text}{suffix}")
}

/// A linear range over [min, max] with a little air; a flat range gets some height.
fn padded(min: f64, max: f64, pad_low: bool) -> Range<f64> {
    let (min, max) = if min.is_finite() && max.is_finite() {
        (min, max)
    } else {
        (0.0, 1.0)
    };
    let span = max - min;
    if span < 1e-12 {
        let pad = if min.abs() > 1e-12 {
            min.abs() * 0.1
        } else {
            1.0
        };
        return (min - pad)..(max + pad);
    }
    let lo = if pad_low { min - span * 0.05 } else { min };
    lo..(max + span * 0.05)
}

/// The decades covering the positive values in [min, max]; a value exactly on a decade gets
/// the decade below, so its bar has a height.
fn decades(min: f64, max: f64) -> (i32, i32) {
    let min = if min.is_finite() && min > 0.0 {
        min
    } else {
        1.0
    };
    let max = if max.is_finite() && max > min {
        max
    } else {
        min * 10.0
    };
    let lo = (min * 0.999).log10().floor() as i32;
    let hi = (max.log10().ceil() as i32).max(lo + 1);
    (lo, hi)
}

/// The x axis of a category chart: category i spans [i, i + 1] and is labelled at its centre
/// (plotters' own f64 axis would pick round numbers for its labels instead).
struct Categories(usize);

impl Ranged for Categories {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let share = value / self.0.max(1) as f64;
        limit.0 + ((limit.1 - limit.0) as f64 * share + 1e-3).floor() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            return Vec::new();
        }
        (0..self.0).map(|i| i as f64 + 0.5).collect()
    }

    fn range(&self) -> Range<f64> {
        0.0..self.0 as f64
    }
}

/// The y values a category chart must show: every finite value, or the stacks' sums.
fn drawn_values(c: &CategoryChart) -> Vec<f64> {
    let ncat = c.categories.len();
    let mut vals = Vec::new();
    if c.style == Style::StackedBars {
        for i in 0..ncat {
            let (mut pos, mut neg) = (0.0, 0.0);
            for v in c.series.iter().filter_map(|s| s.values.get(i)) {
                if v.is_finite() && *v >= 0.0 {
                    pos += v;
                } else if v.is_finite() {
                    neg += v;
                }
            }
            vals.push(pos);
            vals.push(neg);
        }
    } else {
        for s in &c.series {
            vals.extend(s.values.iter().copied().filter(|v| v.is_finite()));
            for (lo, hi) in s.interval.iter().flatten() {
                vals.extend([*lo, *hi].into_iter().filter(|v| v.is_finite()));
            }
        }
    }
    vals
}

/// Canvas size of a category chart: wide enough for its bars, never below 900 x 560.
pub fn category_size(c: &CategoryChart) -> (u32, u32) {
    let ncat = c.categories.len().max(1);
    let per_cat = match c.style {
        Style::GroupedBars => (c.series.len().max(1) as f64 * 9.0 + 10.0).max(28.0),
        _ => 28.0,
    };
    let width = (100.0 + per_cat * ncat as f64).max(900.0);
    let longest = c.categories.iter().map(|s| s.chars().count()).max();
    let label_h = 7.5 * longest.unwrap_or(0) as f64;
    (width as u32, (560.0 + label_h.max(20.0)) as u32)
}

pub fn category<DB: DrawingBackend>(c: &CategoryChart, root: DrawingArea<DB, Shift>) -> Result<()> {
    let left = 80;
    let mark = if c.style == Style::Lines {
        Mark::Line
    } else {
        Mark::Square
    };
    let entries = series_entries(c.series.iter().map(|s| &s.name), mark);
    let area = frame(&root, &c.title, &entries, left)?;
    let ncat = c.categories.len().max(1);
    let (w, _) = area.dim_in_pixel();
    let slot = (w as f64 - left as f64 - 20.0) / ncat as f64;
    let widest = c
        .categories
        .iter()
        .map(|s| area.estimate_text_size(s, &text_style()).map(|t| t.0))
        .try_fold(0, |m, t| t.map(|t| m.max(t)))
        .map_err(fail)?;
    // Category names turn upright when they would run into each other.
    let upright = widest as f64 > slot - 4.0;
    let label_area = if upright { widest + 14 } else { 24 };
    let cats = c.categories.clone();
    // Upright names are drawn by `upright_labels`: plotters anchors every x label at its
    // centre, so a rotated name would straddle the axis instead of hanging below it.
    let x_label = move |x: &f64| {
        let i = x.floor();
        if !upright && i >= 0.0 && (i as usize) < cats.len() {
            cats[i as usize].clone()
        } else {
            String::new()
        }
    };
    let x_style = text_style();
    let vals = drawn_values(c);
    let mut builder = ChartBuilder::on(&area);
    builder
        .margin_right(20)
        .margin_left(8)
        .margin_top(6)
        .x_label_area_size(label_area as i32 + 26)
        .y_label_area_size(left);
    let x_range = Categories(ncat);
    match (c.y_scale, c.y_range) {
        (YScale::Log10, _) => {
            let pos = vals.iter().copied().filter(|v| *v > 0.0);
            let (lo, hi) = decades(
                pos.clone().fold(f64::INFINITY, f64::min),
                pos.fold(f64::NEG_INFINITY, f64::max),
            );
            let ticks: Vec<f64> = (lo..=hi).map(|e| 10f64.powi(e)).collect();
            // Minor lines at 2..9 x 10^k make a log scale readable at a glance.
            let minor: Vec<f64> = (lo..hi)
                .flat_map(|e| (2..10).map(move |m| m as f64 * 10f64.powi(e)))
                .collect();
            let y_range = (10f64.powi(lo)..10f64.powi(hi))
                .log_scale()
                .with_key_points(ticks)
                .with_light_points(minor);
            let mut chart = builder.build_cartesian_2d(x_range, y_range).map_err(fail)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .bold_line_style(GRID)
                .light_line_style(GRID.mix(0.4))
                .x_label_style(x_style)
                .y_label_style(text_style())
                .x_label_formatter(&x_label)
                .y_label_formatter(&|v| short_number(*v))
                .x_desc(c.x_label.as_str())
                .y_desc(c.y_label.as_str())
                .axis_desc_style(text_style())
                .draw()
                .map_err(fail)?;
            let base = 10f64.powi(lo);
            if upright {
                upright_labels(&mut chart, &c.categories, base)?;
            }
            plot_values(&mut chart, c, base, |v| v > 0.0)?;
            chart
                .plotting_area()
                .draw(&outline(ncat, base..10f64.powi(hi)))
                .map_err(fail)?;
        }
        (YScale::Linear, fixed) => {
            let y_range = match fixed {
                Some((lo, hi)) => lo..hi,
                None => {
                    let mut min = vals.iter().copied().fold(f64::INFINITY, f64::min);
                    let mut max = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    if c.style != Style::Lines || !min.is_finite() {
                        min = min.min(0.0);
                        max = max.max(0.0);
                    }
                    // Bars start at 0, not below it: no air under a baseline at the bottom.
                    padded(min, max, c.style == Style::Lines || min < 0.0)
                }
            };
            let span = y_range.end - y_range.start;
            let base = 0f64.clamp(y_range.start, y_range.end);
            let mut chart = builder
                .build_cartesian_2d(x_range, y_range.clone())
                .map_err(fail)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .bold_line_style(GRID)
                .light_line_style(WHITE)
                .x_label_style(x_style)
                .y_label_style(text_style())
                .x_label_formatter(&x_label)
                .y_label_formatter(&|v| tick_label(*v, span))
                .x_desc(c.x_label.as_str())
                .y_desc(c.y_label.as_str())
                .axis_desc_style(text_style())
                .draw()
                .map_err(fail)?;
            if upright {
                upright_labels(&mut chart, &c.categories, y_range.start)?;
            }
            plot_values(&mut chart, c, base, |v| v.is_finite())?;
            if y_range.start < 0.0 && y_range.end > 0.0 {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(0.0, 0.0), (ncat as f64, 0.0)],
                        BLACK.stroke_width(1),
                    )))
                    .map_err(fail)?;
            }
            chart
                .plotting_area()
                .draw(&outline(ncat, y_range))
                .map_err(fail)?;
        }
    }
    root.present().map_err(fail)
}

/// Category names read downwards from just below the x axis (at `bottom`), one per category
/// centre: the text starts at its anchor and is centred across its own line.
fn upright_labels<DB: DrawingBackend, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<Categories, Y>>,
    names: &[String],
    bottom: f64,
) -> Result<()>
where
    Y: Ranged<ValueType = f64>,
{
    let style = text_style()
        .transform(FontTransform::Rotate90)
        .pos(Pos::new(HPos::Left, VPos::Center));
    chart
        .draw_series(names.iter().enumerate().map(|(i, name)| {
            EmptyElement::at((i as f64 + 0.5, bottom))
                + Text::new(name.clone(), (0, 8), style.clone())
        }))
        .map_err(fail)?;
    Ok(())
}

/// The frame around the plot (plotters draws only the left and bottom axes).
fn outline(ncat: usize, y: Range<f64>) -> PathElement<(f64, f64)> {
    let n = ncat as f64;
    PathElement::new(
        vec![
            (0.0, y.start),
            (0.0, y.end),
            (n, y.end),
            (n, y.start),
            (0.0, y.start),
        ],
        BLACK.stroke_width(1),
    )
}

/// Bars, stacks or lines of a category chart on an x axis of one unit per category; `base` is
/// where bars start, `shown` says which values the y axis can draw.
fn plot_values<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    c: &CategoryChart,
    base: f64,
    shown: impl Fn(f64) -> bool,
) -> Result<()>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let ncat = c.categories.len().max(1);
    let nser = c.series.len().max(1);
    match c.style {
        Style::GroupedBars => {
            let bar_w = 0.8 / nser as f64;
            for (si, s) in c.series.iter().enumerate() {
                let bars = s
                    .values
                    .iter()
                    .take(ncat)
                    .enumerate()
                    .filter(|(_, v)| shown(**v));
                chart
                    .draw_series(bars.map(|(i, &v)| {
                        let x = i as f64 + 0.1 + bar_w * si as f64;
                        Rectangle::new([(x, base), (x + bar_w, v)], color(si).filled())
                    }))
                    .map_err(fail)?;
            }
        }
        Style::StackedBars => {
            let mut pos = vec![0.0; ncat];
            let mut neg = vec![0.0; ncat];
            for (si, s) in c.series.iter().enumerate() {
                let mut bars = Vec::new();
                for (i, &v) in s.values.iter().take(ncat).enumerate() {
                    if !v.is_finite() || v == 0.0 {
                        continue;
                    }
                    let end = if v > 0.0 { &mut pos[i] } else { &mut neg[i] };
                    let from = *end;
                    *end += v;
                    let x = i as f64 + 0.15;
                    bars.push(Rectangle::new(
                        [(x, from), (x + 0.7, *end)],
                        color(si).filled(),
                    ));
                }
                chart.draw_series(bars).map_err(fail)?;
            }
        }
        Style::Lines => {
            // Series with whiskers step aside a little, so that intervals at one category do
            // not hide each other.
            let with_whiskers = c.series.iter().filter(|s| s.interval.is_some()).count();
            for (si, s) in c.series.iter().enumerate() {
                let dodge = if with_whiskers > 1 {
                    0.06 * (si as f64 - (nser as f64 - 1.0) / 2.0)
                } else {
                    0.0
                };
                for (i, (lo, hi)) in s.interval.iter().flatten().take(ncat).enumerate() {
                    if !(shown(*lo) && shown(*hi)) {
                        continue;
                    }
                    let x = i as f64 + 0.5 + dodge;
                    let style = color(si).stroke_width(2);
                    chart
                        .draw_series([
                            PathElement::new(vec![(x, *lo), (x, *hi)], style),
                            PathElement::new(vec![(x - 0.02, *lo), (x + 0.02, *lo)], style),
                            PathElement::new(vec![(x - 0.02, *hi), (x + 0.02, *hi)], style),
                        ])
                        .map_err(fail)?;
                }
                // A missing value breaks the line into runs.
                let points: Vec<Option<(f64, f64)>> = s
                    .values
                    .iter()
                    .take(ncat)
                    .enumerate()
                    .map(|(i, &v)| shown(v).then_some((i as f64 + 0.5 + dodge, v)))
                    .collect();
                for run in points.split(|p| p.is_none()).filter(|r| !r.is_empty()) {
                    let run: Vec<(f64, f64)> = run.iter().flatten().copied().collect();
                    chart
                        .draw_series(LineSeries::new(run.clone(), color(si).stroke_width(2)))
                        .map_err(fail)?;
                    chart
                        .draw_series(
                            run.into_iter()
                                .map(|p| Circle::new(p, 3, color(si).filled())),
                        )
                        .map_err(fail)?;
                }
            }
        }
    }
    Ok(())
}

pub const SCATTER_SIZE: (u32, u32) = (900, 620);

pub fn scatter<DB: DrawingBackend>(c: &ScatterChart, root: DrawingArea<DB, Shift>) -> Result<()> {
    let left = 80;
    let mut entries = series_entries(c.series.iter().map(|s| &s.name), Mark::Dot);
    if let Some(fit) = c.fit {
        entries.push(LegendEntry {
            name: format!(
                "fit: y = {:.3}·x {} {:.1}  (r = {:.3}, σ = {:.1}, n = {})",
                fit.slope,
                if fit.intercept < 0.0 { '-' } else { '+' },
                fit.intercept.abs(),
                fit.r,
                fit.sigma,
                fit.n
            ),
            color: BLACK,
            mark: Mark::Line,
        });
    }
    let area = frame(&root, &c.title, &entries, left)?;
    let finite = || {
        c.series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .filter(|(x, y)| x.is_finite() && y.is_finite())
    };
    let (xmin, xmax) = finite().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
        (lo.min(p.0), hi.max(p.0))
    });
    let (ymin, ymax) = finite().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
        (lo.min(p.1), hi.max(p.1))
    });
    let (xr, yr) = (padded(xmin, xmax, true), padded(ymin, ymax, true));
    let (xspan, yspan) = (xr.end - xr.start, yr.end - yr.start);
    let mut chart = ChartBuilder::on(&area)
        .margin_right(20)
        .margin_left(8)
        .margin_top(6)
        .x_label_area_size(50)
        .y_label_area_size(left)
        .build_cartesian_2d(xr.clone(), yr.clone())
        .map_err(fail)?;
    chart
        .configure_mesh()
        .bold_line_style(GRID)
        .light_line_style(WHITE)
        .label_style(text_style())
        .x_label_formatter(&|v| tick_label(*v, xspan))
        .y_label_formatter(&|v| tick_label(*v, yspan))
        .x_desc(c.x_label.as_str())
        .y_desc(c.y_label.as_str())
        .axis_desc_style(text_style())
        .draw()
        .map_err(fail)?;
    for (si, s) in c.series.iter().enumerate() {
        let style = color(si).mix(0.6).filled();
        chart
            .draw_series(
                s.points
                    .iter()
                    .filter(|(x, y)| x.is_finite() && y.is_finite())
                    .map(|&p| Circle::new(p, 2.5, style)),
            )
            .map_err(fail)?;
    }
    if let Some(fit) = c.fit {
        if let Some(seg) = clip_line(fit.slope, fit.intercept, &xr, &yr) {
            chart
                .draw_series(LineSeries::new(seg, BLACK.stroke_width(2)))
                .map_err(fail)?;
        }
    }
    let outline = PathElement::new(
        vec![
            (xr.start, yr.start),
            (xr.start, yr.end),
            (xr.end, yr.end),
            (xr.end, yr.start),
            (xr.start, yr.start),
        ],
        BLACK.stroke_width(1),
    );
    chart.plotting_area().draw(&outline).map_err(fail)?;
    root.present().map_err(fail)
}

/// Heat-map cells are at least this wide and tall, so two lines of label fit.
const CELL_W: u32 = 150;
const CELL_H: u32 = 80;
/// Left: y category names and the y label; bottom: x names and the x label; right: the
/// colour bar with its ticks and label.
const HEAT_LEFT: u32 = 130;
const HEAT_BOTTOM: u32 = 70;
const HEAT_RIGHT: u32 = 150;
const HEAT_TOP: u32 = 70;
const POSITIVE: RGBColor = RGBColor(0x21, 0x66, 0xac);
const NEGATIVE: RGBColor = RGBColor(0xb2, 0x18, 0x2b);
const MISSING: RGBColor = RGBColor(0xcc, 0xcc, 0xcc);

pub fn heat_map_size(c: &HeatMap) -> (u32, u32) {
    let (nx, ny) = (c.x_categories.len().max(1), c.y_categories.len().max(1));
    (
        (HEAT_LEFT + nx as u32 * CELL_W + HEAT_RIGHT).max(700),
        HEAT_TOP + ny as u32 * CELL_H + HEAT_BOTTOM + 10,
    )
}

/// The colour of `v` on a scale diverging at 0: white there, full colour at ±`scale`;
/// grey for a missing value. Returns the colour and whether dark text reads on it.
fn diverging(v: f64, scale: f64) -> (RGBColor, bool) {
    if !v.is_finite() {
        return (MISSING, true);
    }
    let t = (v.abs() / scale).clamp(0.0, 1.0);
    let end = if v >= 0.0 { POSITIVE } else { NEGATIVE };
    let mix = |a: u8| (255.0 + (f64::from(a) - 255.0) * t).round() as u8;
    (RGBColor(mix(end.0), mix(end.1), mix(end.2)), t < 0.55)
}

pub fn heat_map<DB: DrawingBackend>(c: &HeatMap, root: DrawingArea<DB, Shift>) -> Result<()> {
    let area = frame(&root, &c.title, &[], 0)?;
    let (w, h) = area.dim_in_pixel();
    let (nx, ny) = (c.x_categories.len(), c.y_categories.len());
    if nx == 0 || ny == 0 {
        return root.present().map_err(fail);
    }
    let plot_w = w.saturating_sub(HEAT_LEFT + HEAT_RIGHT).max(1) as i32;
    let plot_h = h.saturating_sub(HEAT_BOTTOM).max(1) as i32;
    let (cw, ch) = (plot_w / nx as i32, plot_h / ny as i32);
    let (x0, y0) = (HEAT_LEFT as i32, 0);
    let scale = c.full_scale();
    let centred = text_style().pos(Pos::new(HPos::Center, VPos::Center));
    // Row 0 at the bottom: y grows upwards like a numeric axis.
    let top_of = |yi: usize| y0 + (ny - 1 - yi) as i32 * ch;
    for yi in 0..ny {
        for xi in 0..nx {
            let v = c.values.get(yi).and_then(|r| r.get(xi)).copied();
            let (fill, dark) = diverging(v.unwrap_or(f64::NAN), scale);
            let (left, top) = (x0 + xi as i32 * cw, top_of(yi));
            area.draw(&Rectangle::new(
                [(left, top), (left + cw, top + ch)],
                fill.filled(),
            ))
            .map_err(fail)?;
            area.draw(&Rectangle::new(
                [(left, top), (left + cw, top + ch)],
                GRID.stroke_width(1),
            ))
            .map_err(fail)?;
            let label = c.labels.get(yi).and_then(|r| r.get(xi));
            let lines: Vec<&str> = label.map_or(Vec::new(), |l| l.lines().collect());
            let ink = if dark { BLACK } else { WHITE };
            for (k, line) in lines.iter().enumerate() {
                let dy = (2 * k as i32 + 1 - lines.len() as i32) * 9;
                area.draw(&Text::new(
                    line.to_string(),
                    (left + cw / 2, top + ch / 2 + dy),
                    centred.color(&ink),
                ))
                .map_err(fail)?;
            }
        }
        area.draw(&Text::new(
            c.y_categories[yi].clone(),
            (x0 - 8, top_of(yi) + ch / 2),
            text_style().pos(Pos::new(HPos::Right, VPos::Center)),
        ))
        .map_err(fail)?;
    }
    let bottom = y0 + ny as i32 * ch;
    for (xi, name) in c.x_categories.iter().enumerate() {
        area.draw(&Text::new(
            name.clone(),
            (x0 + xi as i32 * cw + cw / 2, bottom + 8),
            text_style().pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(fail)?;
    }
    area.draw(&Text::new(
        c.x_label.clone(),
        (x0 + nx as i32 * cw / 2, bottom + 40),
        text_style().pos(Pos::new(HPos::Center, VPos::Top)),
    ))
    .map_err(fail)?;
    area.draw(&Text::new(
        c.y_label.clone(),
        (22, y0 + ny as i32 * ch / 2),
        text_style()
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Center)),
    ))
    .map_err(fail)?;
    // The colour bar: -scale at the bottom to +scale at the top.
    let bar_left = x0 + nx as i32 * cw + 30;
    let bar_h = ny as i32 * ch;
    let steps = 60;
    for k in 0..steps {
        let v = scale * (1.0 - 2.0 * (k as f64 + 0.5) / steps as f64);
        let (fill, _) = diverging(v, scale);
        let top = y0 + bar_h * k / steps;
        let next = y0 + bar_h * (k + 1) / steps;
        area.draw(&Rectangle::new(
            [(bar_left, top), (bar_left + 18, next)],
            fill.filled(),
        ))
        .map_err(fail)?;
    }
    area.draw(&Rectangle::new(
        [(bar_left, y0), (bar_left + 18, y0 + bar_h)],
        BLACK.stroke_width(1),
    ))
    .map_err(fail)?;
    for (v, y) in [(scale, y0), (0.0, y0 + bar_h / 2), (-scale, y0 + bar_h)] {
        area.draw(&Text::new(
            if v == 0.0 {
                "0".to_string()
            } else {
                format!("{v:+.0}")
            },
            (bar_left + 24, y),
            text_style().pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(fail)?;
    }
    area.draw(&Text::new(
        c.value_label.clone(),
        (bar_left + 80, y0 + bar_h / 2),
        text_style()
            .transform(FontTransform::Rotate90)
            .pos(Pos::new(HPos::Center, VPos::Center)),
    ))
    .map_err(fail)?;
    root.present().map_err(fail)
}

/// The part of `y = slope * x + intercept` inside the plot, as its two ends.
fn clip_line(
    slope: f64,
    intercept: f64,
    x: &Range<f64>,
    y: &Range<f64>,
) -> Option<Vec<(f64, f64)>> {
    let (mut x0, mut x1) = (x.start, x.end);
    if slope.abs() > 1e-12 {
        let (xa, xb) = ((y.start - intercept) / slope, (y.end - intercept) / slope);
        x0 = x0.max(xa.min(xb));
        x1 = x1.min(xa.max(xb));
    } else if !(y.start..=y.end).contains(&intercept) {
        return None;
    }
    (x0 < x1).then(|| vec![(x0, slope * x0 + intercept), (x1, slope * x1 + intercept)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_decades() {
        assert_eq!(short_number(1e6), "1M");
        assert_eq!(short_number(12_500.0), "12.5k");
        assert_eq!(tick_label(0.0155, 0.01), "0.0155");
        assert_eq!(tick_label(-0.0, 100.0), "0");
        assert_eq!(decades(37.0, 123_456.0), (1, 6));
        assert_eq!(decades(100.0, 100.0), (1, 3));
    }

    #[test]
    fn the_heat_map_scale_diverges_at_zero() {
        assert_eq!(diverging(0.0, 50.0), (WHITE, true));
        assert_eq!(diverging(50.0, 50.0).0, POSITIVE);
        assert_eq!(diverging(-80.0, 50.0), (NEGATIVE, false));
        assert_eq!(diverging(f64::NAN, 50.0).0, MISSING);
        let (half, dark) = diverging(-25.0, 50.0);
        assert!(half.0 > NEGATIVE.0 && half.1 > NEGATIVE.1 && dark);
    }

    #[test]
    fn the_fit_line_is_clipped_to_the_plot() {
        let seg = clip_line(2.0, 0.0, &(-10.0..10.0), &(-4.0..4.0)).unwrap();
        assert_eq!(seg, vec![(-2.0, -4.0), (2.0, 4.0)]);
        assert!(clip_line(0.0, 5.0, &(0.0..1.0), &(0.0..1.0)).is_none());
    }
}
