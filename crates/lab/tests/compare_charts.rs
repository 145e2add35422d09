//! Chart rendering: every chart kind gives a well-formed SVG and a real PNG.

use augur_lab::kit::chart::{
    CategoryChart, Chart, PointSeries, ScatterChart, Series, Style, YScale,
};
use augur_lab::kit::regression::fit_line;

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

fn sample_charts() -> Vec<(&'static str, Chart)> {
    let cats: Vec<String> = (1..=16).map(|i| format!("P{i}")).collect();
    let leaves = |k: f64| (1..=16).map(|i| k * (i as f64).powf(2.5) * 100.0).collect();
    let pct = |k: f64| {
        (1..=16)
            .map(|i| {
                if i == 3 {
                    f64::NAN
                } else {
                    k * 10.0 - i as f64 * 6.0
                }
            })
            .collect()
    };
    let long_names: Vec<String> = (1..=16).map(|i| format!("WAC.{i:03} d5")).collect();
    let pts: Vec<(f64, f64)> = (0..200)
        .map(|i| {
            let x = (i as f64 * 7.3) % 300.0 - 150.0;
            (x, 1.1 * x + 5.0 + ((i * 37) % 41) as f64 - 20.0)
        })
        .collect();
    vec![
        (
            "log_bars",
            CategoryChart::new("Leaves at depth 5 <log>", cats.clone())
                .labels("position", "leaves (NBP)")
                .style(Style::GroupedBars)
                .y_scale(YScale::Log10)
                .series(Series::new("alphabeta", leaves(1.0)))
                .series(Series::new("abt", leaves(0.7)))
                .series(Series::new("spp", leaves(0.3)))
                .series(Series::new("sppt", leaves(0.2)))
                .into(),
        ),
        (
            "stacked",
            CategoryChart::new("Stacked & signed", cats.clone())
                .labels("position", "%")
                .style(Style::StackedBars)
                .series(Series::new("SPPT/ABT", pct(5.0)))
                .series(Series::new("SPP/AB", pct(8.0)))
                .into(),
        ),
        (
            "lines",
            CategoryChart::new("Lines", cats)
                .labels("position", "%")
                .style(Style::Lines)
                .series(Series::new("depth 5", pct(8.0)))
                .series(Series::new("depth 7", pct(9.0)))
                .into(),
        ),
        (
            "grouped_upright_names",
            CategoryChart::new("Signed bars, long category names", long_names)
                .labels("position and depth", "extra pruning %")
                .style(Style::GroupedBars)
                .series(Series::new("depth 5", pct(8.0)))
                .series(Series::new("depth 7", pct(2.0)))
                .into(),
        ),
        (
            "scatter",
            ScatterChart::new("Shallow vs deep")
                .labels("v shallow", "v deep")
                .series(PointSeries::new("positions", pts.clone()))
                .fit(fit_line(&pts).unwrap())
                .into(),
        ),
    ]
}

#[test]
fn charts_are_wellformed_svg_and_png() {
    let dir = std::env::temp_dir().join(format!("augur-chart-test-{}", std::process::id()));
    for (stem, chart) in sample_charts() {
        let (svg_path, png_path) = chart.save(&dir, stem).unwrap();
        let svg = std::fs::read_to_string(&svg_path).unwrap();
        let doc = roxmltree::Document::parse(&svg)
            .unwrap_or_else(|e| panic!("{stem}.svg is not well-formed XML: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert!(doc.descendants().any(|n| n.has_tag_name("text")));
        let png = std::fs::read(&png_path).unwrap();
        assert!(png.len() > 1000, "{stem}.png is too small");
        assert_eq!(
            png[..8],
            PNG_SIGNATURE,
            "{stem}.png lacks the PNG signature"
        );
        // The PNG decodes to the SVG's size, and something is drawn on the white canvas.
        let mut reader = png::Decoder::new(std::io::Cursor::new(&png[..]))
            .read_info()
            .unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        let attr =
            |name: &str| -> u32 { doc.root_element().attribute(name).unwrap().parse().unwrap() };
        assert_eq!(
            (info.width, info.height),
            (attr("width"), attr("height")),
            "{stem}"
        );
        let dark = pixels.iter().filter(|&&b| b < 128).count();
        assert!(
            dark > 1000,
            "{stem}.png is nearly blank ({dark} dark bytes)"
        );
    }
    if std::env::var_os("AUGUR_KEEP_CHARTS").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        eprintln!("charts kept in {}", dir.display());
    }
}
