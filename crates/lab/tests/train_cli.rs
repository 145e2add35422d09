//! `augur-lab train --config` through the real binary: a tiny run declared by a TOML file on
//! datagen files made here, with a held-out file; its `run.toml` and `--summary` read back;
//! a `--resume` with a changed setting refused, one with the same settings accepted; a
//! king-bucketed run writes a version 3 network and records its layout.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use augur_lab::data::records::RECORD_SIZE;
use augur_lab::kit::provenance::sha256_file;
use augur_lab::kit::summary;
use augur_lab::train::{RunConfig, RunRecord, TrainFigures};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .args(args)
        .output()
        .unwrap()
}

fn ok(o: Output) -> Output {
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// A small datagen file of `games` games with `seed`; its number of records.
fn datagen(path: &Path, games: u32, seed: u32) -> usize {
    ok(lab(&[
        "datagen",
        "--games",
        &games.to_string(),
        "--nodes",
        "150",
        "--seed",
        &seed.to_string(),
        "--threads",
        "1",
        "--hash",
        "1",
        "--quiet",
        "--out",
        path.to_str().unwrap(),
    ]));
    std::fs::metadata(path).unwrap().len() as usize / RECORD_SIZE
}

#[test]
fn a_run_from_a_config_file_records_itself_and_refuses_a_changed_resume() {
    let dir = common::scratch("train", "config");
    let (data, held) = (dir.join("a.bin"), dir.join("held.bin"));
    let positions = datagen(&data, 6, 5);
    let held_positions = datagen(&held, 2, 6);
    assert!(
        positions > 50 && held_positions > 10,
        "{positions} {held_positions}"
    );
    let out = dir.join("run");
    let config = dir.join("recipe.toml");
    let text = format!(
        "data = [{data:?}]\nheld_out = [{held:?}]\nout = {out:?}\nhidden = 16\nepochs = 2\n\
         batch = 64\nlr = 0.01\nk = 160.0\nthreads = 1\nseed = 3\nquiet = true\n"
    );
    std::fs::write(&config, text).unwrap();
    let summary_path = dir.join("train.summary.toml");
    let cfg = config.to_str().unwrap();
    let sum = summary_path.to_str().unwrap();
    ok(lab(&["train", "--config", cfg, "--summary", sum]));

    // run.toml: the effective settings, the files' SHA-256 and the provenance.
    let record = RunRecord::read(&out.join("run.toml")).unwrap();
    let declared = RunConfig {
        data: vec![data.clone()],
        held_out: vec![held.clone()],
        out: out.clone(),
        hidden: 16,
        epochs: 2,
        batch: 64,
        lr: 0.01,
        k: Some(160.0),
        threads: Some(1),
        seed: 3,
        quiet: true,
        ..RunConfig::default()
    };
    assert_eq!(record.settings, declared);
    assert_eq!(record.inputs.data_sha256, [sha256_file(&data).unwrap()]);
    assert_eq!(record.inputs.held_out_sha256, [sha256_file(&held).unwrap()]);
    assert_eq!(record.inputs.init_sha256, None);
    assert!(record.provenance.command_line.contains("--config"));
    assert_eq!((record.provenance.threads, record.provenance.k), (1, 160.0));

    // The summary: the figures of this run.
    let s = summary::read(&summary_path).unwrap();
    assert_eq!(s.command, "train");
    let f: TrainFigures = s.figures().unwrap();
    assert_eq!((f.epochs, f.positions), (2, positions));
    assert_eq!(f.held_out_positions, held_positions);
    assert_eq!(f.network, out.join("augur.nnue"));
    assert_eq!(f.network_sha256, sha256_file(&f.network).unwrap());
    assert!(f.best_held_out_loss <= f.final_held_out_loss);
    assert!(f.final_held_out_loss.is_finite() && f.initial_held_out_loss.is_finite());
    let loss_csv = std::fs::read_to_string(out.join("loss.csv")).unwrap();
    let last: f64 = loss_csv
        .lines()
        .last()
        .unwrap()
        .split(',')
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (last - f.final_held_out_loss).abs() < 1e-7,
        "{last} {}",
        f.final_held_out_loss
    );

    // A fresh start into the same folder is refused: it would replace the run.
    let before = std::fs::read(out.join("checkpoint.ckpt")).unwrap();
    let o = lab(&["train", "--config", cfg]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("already holds a run"),
        "{err}"
    );
    assert_eq!(std::fs::read(out.join("checkpoint.ckpt")).unwrap(), before);
    // A resume with another learning rate is refused, naming it; nothing is trained.
    let o = lab(&["train", "--config", cfg, "--resume", "--lr", "0.02"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("other settings") && err.contains("lr:"),
        "{err}"
    );
    assert_eq!(std::fs::read(out.join("checkpoint.ckpt")).unwrap(), before);
    // So is one whose data file changed.
    let mut bytes = std::fs::read(&data).unwrap();
    let kept = bytes.clone();
    bytes.truncate(bytes.len() - RECORD_SIZE);
    std::fs::write(&data, &bytes).unwrap();
    let o = lab(&["train", "--config", cfg, "--resume"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("inputs.data_sha256"),
        "{err}"
    );
    std::fs::write(&data, kept).unwrap();
    // The written run.toml is a config of the same run: resumed, it has nothing left to do
    // and writes the same network.
    let again = dir.join("again.summary.toml");
    let run_toml: PathBuf = out.join("run.toml");
    ok(lab(&[
        "train",
        "--config",
        run_toml.to_str().unwrap(),
        "--resume",
        "--summary",
        again.to_str().unwrap(),
    ]));
    let g: TrainFigures = summary::read(&again).unwrap().figures().unwrap();
    assert_eq!(g.network_sha256, f.network_sha256);
    assert_eq!(g.final_held_out_loss, f.final_held_out_loss);

    // [nnue-kings] A resume with king buckets is another run, refused by name; a fresh one
    // with `--king-buckets mirror8 --factoriser` writes a version 3 file with K = 8 and
    // records the layout in its run.toml.
    let o = lab(&[
        "train",
        "--config",
        cfg,
        "--resume",
        "--king-buckets",
        "mirror8",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("king_buckets"), "{err}");
    let kb_out = dir.join("kings");
    ok(lab(&[
        "train",
        "--config",
        cfg,
        "--out",
        kb_out.to_str().unwrap(),
        "--king-buckets",
        "mirror8",
        "--factoriser",
    ]));
    let net = std::fs::read(kb_out.join("augur.nnue")).unwrap();
    assert_eq!((net[8], net[22]), (3, 8));
    let record = RunRecord::read(&kb_out.join("run.toml")).unwrap();
    assert_eq!(
        (
            record.settings.king_buckets.as_str(),
            record.settings.factoriser
        ),
        ("mirror8", true)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
