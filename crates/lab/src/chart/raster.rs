//! SVG to PNG with `resvg`, using only the bundled font so the result is the same on a
//! machine without any system fonts.

use anyhow::{anyhow, Context, Result};
use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// DejaVu Sans (Bitstream Vera licence; see `data/fonts/DejaVuSans-LICENSE.txt`).
static FONT: &[u8] = include_bytes!("../../data/fonts/DejaVuSans.ttf");

fn font_db() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        // Whatever family an SVG asks for, fall back to the one font we have.
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        db.set_monospace_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// Rasterises an SVG document at 1 px per user unit and encodes it as PNG.
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
