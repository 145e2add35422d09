//! The UCI reporter: what the search finds, as `info` lines on standard output.

use crate::search::report::{Line, Reporter, Summary};
use crate::search::score_text;
use crate::search::tt::Bound;
use crate::search::wdl::{material, FITTED};
use std::fmt::Display;

/// `show_wdl`: each line carries `wdl W D L` (per mille, `search::wdl`) after its score.
#[derive(Clone, Copy, Debug, Default)]
pub struct UciReporter {
    pub show_wdl: bool,
}

impl Reporter for UciReporter {
    fn line(&mut self, l: &Line<'_>) {
        let bound = match l.bound {
            Some(Bound::Upper) => " upperbound",
            Some(Bound::Lower) => " lowerbound",
            Some(Bound::Exact) | None => "",
        };
        let wdl = if self.show_wdl {
            let (w, d, lo) = FITTED.wdl(l.score, material(l.root.board()));
            format!(" wdl {w} {d} {lo}")
        } else {
            String::new()
        };
        let mut text = format!(
            "info depth {} seldepth {} multipv {} score {}{bound}{wdl} nodes {} nps {} hashfull {} tbhits {} time {} pv",
            l.depth,
            l.seldepth,
            l.multipv,
            score_text(l.score),
            l.nodes,
            l.nps(),
            l.hashfull,
            l.tbhits,
            l.time.as_millis()
        );
        // Moves in the GUI's notation (Chess960 castling), as long as they stay legal: a
        // line pieced together from the table can break off.
        let mut p = l.root.clone();
        for &mv in l.pv {
            if !p.board().is_legal(mv) {
                break;
            }
            text.push(' ');
            text.push_str(&p.uci(mv));
            p.make(mv);
        }
        println!("{text}");
    }

    fn summary(&mut self, summary: Summary<'_>) {
        match summary {
            Summary::Engine(stats) => println!("info string stats {stats}"),
            Summary::Textbook { algorithm, result: r } => println!(
                "info string stats algorithm={algorithm} leaves={} nodes={} spp_cuts={} spp_pruned={} aborted={}",
                r.leaves, r.nodes, r.spp_cuts, r.spp_pruned, r.aborted
            ),
        }
    }

    fn error(&mut self, error: &dyn Display) {
        println!("info string error: {error}");
    }
}
