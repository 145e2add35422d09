//! SVG rendering of the chart types. Plain SVG 1.1: rectangles, lines, polylines, circles and
//! text, so any browser and the PNG rasteriser read it the same way.

use super::axis::Axis;
use super::{CategoryChart, ScatterChart, Style, YScale};
use std::fmt::Write;

const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];
const FONT: &str = "DejaVu Sans, Verdana, sans-serif";
/// Rough advance of one character at the 12 px label size, for layout only.
const CHAR_W: f64 = 7.0;

fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The drawing area and the pieces every chart shares (title, legend, y axis).
struct Frame {
    width: f64,
    height: f64,
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
    svg: String,
}

impl Frame {
    fn new(width: f64, height: f64, left: f64, top: f64, bottom_margin: f64) -> Frame {
        let mut svg = String::new();
        let _ = write!(
            svg,
            r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="12">
<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>
"#
        );
        Frame {
            width,
            height,
            left,
            top,
            right: width - 20.0,
            bottom: height - bottom_margin,
            svg,
        }
    }

    fn plot_w(&self) -> f64 {
        self.right - self.left
    }

    fn plot_h(&self) -> f64 {
        self.bottom - self.top
    }

    /// Pixel y of a value on the y axis (clamped to the plot).
    fn y(&self, axis: &Axis, v: f64) -> Option<f64> {
        axis.frac(v)
            .map(|f| self.bottom - f.clamp(0.0, 1.0) * self.plot_h())
    }

    fn title(&mut self, title: &str) {
        let _ = writeln!(
            self.svg,
            r#"<text x="{}" y="24" text-anchor="middle" font-size="16" font-weight="bold">{}</text>"#,
            self.width / 2.0,
            escape(title)
        );
    }

    /// Legend entries laid out left to right under the title, wrapping as needed.
    fn legend(&mut self, entries: &[(String, &'static str, bool)]) {
        let mut x = self.left;
        let mut y = 44.0;
        for (name, col, as_line) in entries {
            let w = 26.0 + CHAR_W * name.chars().count() as f64 + 14.0;
            if x + w > self.right && x > self.left {
                x = self.left;
                y += 18.0;
            }
            if *as_line {
                let _ = writeln!(
                    self.svg,
                    r#"<line x1="{x}" y1="{}" x2="{}" y2="{}" stroke="{col}" stroke-width="2.5"/>"#,
                    y - 4.0,
                    x + 18.0,
                    y - 4.0
                );
            } else {
                let _ = writeln!(
                    self.svg,
                    r#"<rect x="{x}" y="{}" width="14" height="10" fill="{col}"/>"#,
                    y - 9.0
                );
            }
            let _ = writeln!(
                self.svg,
                r#"<text x="{}" y="{y}">{}</text>"#,
                x + 22.0,
                escape(name)
            );
            x += w;
        }
    }

    fn y_axis(&mut self, axis: &Axis, label: &str) {
        for &t in &axis.ticks {
            let Some(py) = self.y(axis, t) else { continue };
            let _ = writeln!(
                self.svg,
                r##"<line x1="{}" y1="{py:.1}" x2="{}" y2="{py:.1}" stroke="#dddddd" stroke-width="1"/>"##,
                self.left, self.right
            );
            let _ = writeln!(
                self.svg,
                r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
                self.left - 6.0,
                py + 4.0,
                escape(&axis.label(t))
            );
        }
        if axis.log {
            // Minor ticks at 2..9 x 10^k make a log scale readable at a glance.
            for w in axis.ticks.windows(2) {
                for m in 2..10 {
                    let v = w[0] * m as f64;
                    if let Some(py) = self.y(axis, v) {
                        let _ = writeln!(
                            self.svg,
                            r##"<line x1="{}" y1="{py:.1}" x2="{}" y2="{py:.1}" stroke="#999999" stroke-width="1"/>"##,
                            self.left - 3.0,
                            self.left
                        );
                    }
                }
            }
        }
        let cy = (self.top + self.bottom) / 2.0;
        let _ = writeln!(
            self.svg,
            r#"<text x="18" y="{cy}" text-anchor="middle" transform="rotate(-90 18 {cy})">{}</text>"#,
            escape(label)
        );
    }

    fn box_and_x_label(&mut self, label: &str) {
        let _ = writeln!(
            self.svg,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="black" stroke-width="1"/>"#,
            self.left,
            self.top,
            self.plot_w(),
            self.plot_h()
        );
        let _ = writeln!(
            self.svg,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            (self.left + self.right) / 2.0,
            self.height - 8.0,
            escape(label)
        );
    }

    fn finish(mut self) -> String {
        self.svg.push_str("</svg>\n");
        self.svg
    }
}

fn legend_rows(names: &[String], usable: f64) -> usize {
    let mut rows = 1;
    let mut x = 0.0;
    for n in names {
        let w = 26.0 + CHAR_W * n.chars().count() as f64 + 14.0;
        if x + w > usable && x > 0.0 {
            rows += 1;
            x = 0.0;
        }
        x += w;
    }
    rows
}

pub fn category(c: &CategoryChart) -> String {
    let ncat = c.categories.len().max(1);
    let nser = c.series.len().max(1);
    let per_cat = match c.style {
        Style::GroupedBars => (nser as f64 * 9.0 + 10.0).max(28.0),
        _ => 28.0,
    };
    let left = 80.0;
    let width = (left + 20.0 + per_cat * ncat as f64).max(900.0);
    let longest = c
        .categories
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0) as f64;
    let slot = (width - left - 20.0) / ncat as f64;
    let rotate = longest * CHAR_W > slot - 4.0;
    let cat_label_h = if rotate {
        longest * CHAR_W * 0.72 + 10.0
    } else {
        18.0
    };
    let names: Vec<String> = c.series.iter().map(|s| s.name.clone()).collect();
    let top = 44.0 + 18.0 * legend_rows(&names, width - left - 20.0) as f64;
    let bottom_margin = cat_label_h + 34.0;
    let height = 460.0 + top + bottom_margin - 100.0;

    // The y range: every drawable value, with stacked sums where bars stack.
    let mut vals: Vec<f64> = Vec::new();
    match c.style {
        Style::StackedBars => {
            for i in 0..ncat {
                let (mut pos, mut neg) = (0.0, 0.0);
                for s in &c.series {
                    let v = s.values.get(i).copied().unwrap_or(f64::NAN);
                    if v.is_finite() {
                        if v >= 0.0 {
                            pos += v
                        } else {
                            neg += v
                        }
                    }
                }
                vals.push(pos);
                vals.push(neg);
            }
        }
        _ => {
            for s in &c.series {
                vals.extend(s.values.iter().copied().filter(|v| v.is_finite()));
            }
        }
    }
    let axis = match (c.y_scale, c.y_range) {
        (YScale::Log10, _) => {
            let pos: Vec<f64> = vals.iter().copied().filter(|v| *v > 0.0).collect();
            let min = pos.iter().copied().fold(f64::INFINITY, f64::min);
            let max = pos.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            Axis::log10(min, max)
        }
        (YScale::Linear, Some((lo, hi))) => Axis::linear(lo, hi),
        (YScale::Linear, None) => {
            let mut min = vals.iter().copied().fold(f64::INFINITY, f64::min);
            let mut max = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if c.style != Style::Lines || !min.is_finite() {
                min = min.min(0.0);
                max = max.max(0.0);
            }
            Axis::linear(min, max)
        }
    };

    let mut f = Frame::new(width, height, left, top, bottom_margin);
    f.title(&c.title);
    let entries: Vec<(String, &'static str, bool)> = c
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.clone(), color(i), c.style == Style::Lines))
        .collect();
    f.legend(&entries);
    f.y_axis(&axis, &c.y_label);

    let slot = f.plot_w() / ncat as f64;
    let base_y = f.y(&axis, axis.baseline()).unwrap_or(f.bottom);
    match c.style {
        Style::GroupedBars => {
            let group_w = slot * 0.8;
            let bar_w = group_w / nser as f64;
            for (si, s) in c.series.iter().enumerate() {
                for (i, &v) in s.values.iter().enumerate().take(ncat) {
                    let Some(py) = f.y(&axis, v) else { continue };
                    let x = f.left + slot * i as f64 + slot * 0.1 + bar_w * si as f64;
                    let (y0, h) = (py.min(base_y), (py - base_y).abs());
                    let _ = writeln!(
                        f.svg,
                        r#"<rect x="{x:.2}" y="{y0:.2}" width="{:.2}" height="{h:.2}" fill="{}"><title>{}: {}</title></rect>"#,
                        bar_w.max(0.5),
                        color(si),
                        escape(&s.name),
                        v
                    );
                }
            }
        }
        Style::StackedBars => {
            let bar_w = slot * 0.7;
            for i in 0..ncat {
                let (mut pos, mut neg) = (0.0f64, 0.0f64);
                let x = f.left + slot * i as f64 + slot * 0.15;
                for (si, s) in c.series.iter().enumerate() {
                    let v = s.values.get(i).copied().unwrap_or(f64::NAN);
                    if !v.is_finite() || v == 0.0 {
                        continue;
                    }
                    let (from, to) = if v > 0.0 {
                        pos += v;
                        (pos - v, pos)
                    } else {
                        neg += v;
                        (neg - v, neg)
                    };
                    let (Some(ya), Some(yb)) = (f.y(&axis, from), f.y(&axis, to)) else {
                        continue;
                    };
                    let _ = writeln!(
                        f.svg,
                        r#"<rect x="{x:.2}" y="{:.2}" width="{bar_w:.2}" height="{:.2}" fill="{}"><title>{}: {}</title></rect>"#,
                        ya.min(yb),
                        (ya - yb).abs(),
                        color(si),
                        escape(&s.name),
                        v
                    );
                }
            }
        }
        Style::Lines => {
            for (si, s) in c.series.iter().enumerate() {
                let mut run: Vec<(f64, f64)> = Vec::new();
                let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
                for (i, &v) in s.values.iter().enumerate().take(ncat) {
                    let x = f.left + slot * (i as f64 + 0.5);
                    match f.y(&axis, v) {
                        Some(py) => run.push((x, py)),
                        None => runs.push(std::mem::take(&mut run)),
                    }
                }
                runs.push(run);
                for r in runs.iter().filter(|r| !r.is_empty()) {
                    let pts: Vec<String> =
                        r.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
                    let _ = writeln!(
                        f.svg,
                        r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>"#,
                        pts.join(" "),
                        color(si)
                    );
                    for (x, y) in r {
                        let _ = writeln!(
                            f.svg,
                            r#"<circle cx="{x:.2}" cy="{y:.2}" r="3" fill="{}"/>"#,
                            color(si)
                        );
                    }
                }
            }
        }
    }
    if !axis.log && axis.lo < 0.0 && axis.hi > 0.0 {
        let _ = writeln!(
            f.svg,
            r#"<line x1="{}" y1="{base_y:.2}" x2="{}" y2="{base_y:.2}" stroke="black" stroke-width="1"/>"#,
            f.left, f.right
        );
    }
    for (i, name) in c.categories.iter().enumerate() {
        let x = f.left + slot * (i as f64 + 0.5);
        let y = f.bottom + 16.0;
        if rotate {
            let _ = writeln!(
                f.svg,
                r#"<text x="{x:.2}" y="{y:.2}" text-anchor="end" transform="rotate(-45 {x:.2} {y:.2})">{}</text>"#,
                escape(name)
            );
        } else {
            let _ = writeln!(
                f.svg,
                r#"<text x="{x:.2}" y="{y:.2}" text-anchor="middle">{}</text>"#,
                escape(name)
            );
        }
    }
    f.box_and_x_label(&c.x_label);
    f.finish()
}

pub fn scatter(c: &ScatterChart) -> String {
    let width = 900.0;
    let left = 80.0;
    let mut names: Vec<String> = c.series.iter().map(|s| s.name.clone()).collect();
    let fit_name = c.fit.map(|fit| {
        format!(
            "fit: y = {:.3}·x {} {:.1}  (r = {:.3}, σ = {:.1}, n = {})",
            fit.slope,
            if fit.intercept < 0.0 { '-' } else { '+' },
            fit.intercept.abs(),
            fit.r,
            fit.sigma,
            fit.n
        )
    });
    if let Some(n) = &fit_name {
        names.push(n.clone());
    }
    let top = 44.0 + 18.0 * legend_rows(&names, width - left - 20.0) as f64;
    let bottom_margin = 52.0;
    let height = 600.0 + top - 44.0;

    let pts = c.series.iter().flat_map(|s| s.points.iter().copied());
    let (mut xmin, mut xmax, mut ymin, mut ymax) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for (x, y) in pts.filter(|(x, y)| x.is_finite() && y.is_finite()) {
        xmin = xmin.min(x);
        xmax = xmax.max(x);
        ymin = ymin.min(y);
        ymax = ymax.max(y);
    }
    let xa = Axis::linear(xmin, xmax);
    let ya = Axis::linear(ymin, ymax);

    let mut f = Frame::new(width, height, left, top, bottom_margin);
    f.title(&c.title);
    let mut entries: Vec<(String, &'static str, bool)> = c
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.clone(), color(i), false))
        .collect();
    if let Some(n) = fit_name {
        entries.push((n, "#000000", true));
    }
    f.legend(&entries);
    f.y_axis(&ya, &c.y_label);
    let px = |f: &Frame, x: f64| xa.frac(x).map(|t| f.left + t * f.plot_w());
    for &t in &xa.ticks {
        let Some(x) = px(&f, t) else { continue };
        let _ = writeln!(
            f.svg,
            r##"<line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{}" stroke="#eeeeee" stroke-width="1"/>"##,
            f.top, f.bottom
        );
        let _ = writeln!(
            f.svg,
            r#"<text x="{x:.1}" y="{}" text-anchor="middle">{}</text>"#,
            f.bottom + 16.0,
            escape(&xa.label(t))
        );
    }
    for (si, s) in c.series.iter().enumerate() {
        for &(x, y) in &s.points {
            let (Some(cx), Some(cy)) = (px(&f, x), f.y(&ya, y)) else {
                continue;
            };
            let _ = writeln!(
                f.svg,
                r#"<circle cx="{cx:.2}" cy="{cy:.2}" r="2.5" fill="{}" fill-opacity="0.6"/>"#,
                color(si)
            );
        }
    }
    if let Some(fit) = c.fit {
        // Clip the line to the plot by sampling its ends inside the y range.
        let (x0, x1) = (xa.lo, xa.hi);
        let steps = 200;
        let mut seg: Vec<String> = Vec::new();
        for k in 0..=steps {
            let x = x0 + (x1 - x0) * k as f64 / steps as f64;
            let y = fit.slope * x + fit.intercept;
            if y >= ya.lo && y <= ya.hi {
                if let (Some(cx), Some(cy)) = (px(&f, x), f.y(&ya, y)) {
                    seg.push(format!("{cx:.2},{cy:.2}"));
                }
            }
        }
        if seg.len() >= 2 {
            let _ = writeln!(
                f.svg,
                r#"<polyline points="{}" fill="none" stroke="black" stroke-width="2"/>"#,
                seg.join(" ")
            );
        }
    }
    f.box_and_x_label(&c.x_label);
    f.finish()
}
