//! `augur-lab datagen` through the real binary: reproducible for a seed whatever the number of
//! threads, and a run killed with SIGKILL at random moments (torn writes included) and
//! restarted ends with exactly the file of an uninterrupted run. Tiny node limits keep it short.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use augur_lab::data::records::{RecordReader, RECORD_SIZE};

mod common;
use common::scratch;

const GAMES: &str = "10";

fn datagen(out: &Path, threads: usize) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_augur-lab"));
    c.args([
        "datagen", "--games", GAMES, "--nodes", "150", "--seed", "11",
    ])
    .args(["--threads", &threads.to_string(), "--hash", "1", "--quiet"])
    .arg("--out")
    .arg(out)
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    c
}

fn run_to_end(out: &Path, threads: usize) {
    let o = datagen(out, threads).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn journal(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".journal");
    PathBuf::from(p)
}

#[test]
fn same_seed_same_file_and_kill_9_loses_and_duplicates_nothing() {
    let dir = scratch("datagen", "kill");
    let reference = dir.join("reference.bin");
    let started = std::time::Instant::now();
    run_to_end(&reference, 2);
    let full_run = started.elapsed();
    let expected = std::fs::read(&reference).unwrap();
    assert!(expected.len() >= 10 * RECORD_SIZE);
    let records: Vec<_> = RecordReader::open(&reference)
        .unwrap()
        .collect::<anyhow::Result<_>>()
        .unwrap();
    assert_eq!(records.len() * RECORD_SIZE, expected.len());
    // Every record turns back into a legal position.
    for r in &records {
        r.to_position().unwrap();
    }

    // One thread plays the same games in the same order.
    let single = dir.join("single.bin");
    run_to_end(&single, 1);
    assert_eq!(std::fs::read(&single).unwrap(), expected);

    // Killed at pseudo-random moments, sometimes with a torn record appended as a write cut
    // short would leave it, then restarted until done. Each moment comes after the run's
    // journal grew (a game finished, or the first run's settings line), 0-5% of a whole run's
    // time later, so that however the load changes between runs, most are still going when
    // killed.
    let killed = dir.join("killed.bin");
    let lines_in =
        |p: &Path| std::fs::read(p).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut kills = 0;
    for round in 0..6 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let before = lines_in(&journal(&killed));
        let mut child = datagen(&killed, 2).spawn().unwrap();
        while child.try_wait().unwrap().is_none() && lines_in(&journal(&killed)) == before {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        std::thread::sleep(full_run.mul_f64((state % 6) as f64 / 100.0));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL
            kills += 1;
        }
        child.wait().unwrap();
        if round % 2 == 1 && killed.exists() {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&killed)
                .unwrap();
            std::io::Write::write_all(&mut f, &[0xAB; 45]).unwrap();
            let mut j = std::fs::OpenOptions::new()
                .append(true)
                .open(journal(&killed))
                .unwrap();
            std::io::Write::write_all(&mut j, b"99").unwrap();
        }
    }
    eprintln!("{kills} of 6 runs killed mid-way; an uninterrupted run takes {full_run:?}");
    assert!(kills >= 3, "only {kills} runs were still going when killed");
    run_to_end(&killed, 2);
    assert_eq!(std::fs::read(&killed).unwrap(), expected);
    assert_eq!(
        std::fs::read(journal(&killed)).unwrap(),
        std::fs::read(journal(&reference)).unwrap()
    );

    // A finished run started again does nothing.
    run_to_end(&killed, 2);
    assert_eq!(std::fs::read(&killed).unwrap(), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_writes_bullet_text_lines() {
    let dir = scratch("datagen", "convert");
    let data = dir.join("d.bin");
    let o = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .args([
            "datagen",
            "--games",
            "1",
            "--nodes",
            "100",
            "--threads",
            "1",
        ])
        .args(["--hash", "1", "--quiet", "--out"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .arg("convert")
        .arg(&data)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let n = std::fs::metadata(&data).unwrap().len() as usize / RECORD_SIZE;
    assert_eq!(text.lines().count(), n);
    for line in text.lines() {
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "{line}");
        augur::position::Position::from_fen(parts[0], false).unwrap();
        parts[1].parse::<i16>().unwrap();
        assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "{line}");
    }

    // A torn file is refused with a clear message, not converted in part.
    std::fs::write(&data, [0u8; 40]).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .arg("convert")
        .arg(&data)
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("40 bytes is not a whole number"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A network generation's run: `--eval nnue` (the default: the embedded network, or
/// `--eval-file`) and `--set` reach the journal's settings line, so a resume with another
/// network or options is refused; `--eval hce` adds nothing to the line, so the HCE's files
/// made before these flags resume.
#[test]
fn the_engine_settings_are_part_of_the_journal() {
    let dir = scratch("datagen", "engine");
    let gen = |out: &Path, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_augur-lab"))
            .args(["datagen", "--games", "1", "--nodes", "100", "--seed", "5"])
            .args(["--threads", "1", "--hash", "1", "--quiet", "--out"])
            .arg(out)
            .args(extra)
            .output()
            .unwrap()
    };
    let plain = dir.join("plain.bin");
    assert!(gen(&plain, &["--eval", "hce"]).status.success());
    let line = std::fs::read_to_string(journal(&plain)).unwrap();
    let first = line.lines().next().unwrap();
    assert!(first.ends_with("max_plies=600"), "{first}");

    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/nets/default.nnue");
    let sha = augur_lab::kit::provenance::sha256_file(Path::new(net)).unwrap();
    // No flag: the engine's default evaluation, the embedded network, named by its hash.
    let default = dir.join("default.bin");
    let o = gen(&default, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = std::fs::read_to_string(journal(&default)).unwrap();
    let first = line.lines().next().unwrap();
    assert!(first.ends_with(&format!(" eval=nnue net={sha}")), "{first}");
    // The HCE's file does not resume with the network.
    let o = gen(&plain, &["--games", "2"]);
    assert!(!o.status.success());

    let nnue = dir.join("nnue.bin");
    let o = gen(
        &nnue,
        &[
            "--eval",
            "nnue",
            "--eval-file",
            net,
            "--set",
            "StagedQuiets=true",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = std::fs::read_to_string(journal(&nnue)).unwrap();
    let first = line.lines().next().unwrap();
    assert!(
        first.ends_with(&format!(" eval=nnue net={sha} set=StagedQuiets=true")),
        "{first}"
    );
    assert_ne!(
        std::fs::read(&plain).unwrap(),
        std::fs::read(&nnue).unwrap()
    );
    // The same file resumed without the option: refused, both lines shown.
    let o = gen(&nnue, &["--eval", "nnue", "--games", "2"]);
    assert!(!o.status.success());
    // Bad input: a clear error, and nothing written.
    for (extra, says) in [
        (
            &["--eval", "hce", "--eval-file", net][..],
            "--eval-file needs --eval nnue",
        ),
        (&["--set", "NoSuchOption=1"][..], "is not a search option"),
        (&["--set", "Hash"][..], "expected Name=Value"),
        (
            &["--eval", "nnue", "--eval-file", "/no/net.nnue"][..],
            "cannot read network",
        ),
        (&["--eval", "neural"][..], "unknown evaluation"),
    ] {
        let out = dir.join("bad.bin");
        let o = gen(&out, extra);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains(says),
            "{extra:?}: {err}"
        );
        assert!(!out.exists(), "{extra:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--summary`: the file's manifest line (games, positions, SHA-256), also when a rerun finds
/// nothing to do.
#[test]
fn the_summary_names_the_file_and_its_counts() {
    let dir = scratch("datagen", "summary");
    let out = dir.join("s.bin");
    let summary = dir.join("s.toml");
    for _ in 0..2 {
        let o = datagen(&out, 2)
            .arg("--summary")
            .arg(&summary)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let s = augur_lab::kit::summary::read(&summary).unwrap();
        assert_eq!(s.command, "datagen");
        let f: augur_lab::corpus::manifest::Line = s.figures().unwrap();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(f.games, 10);
        assert_eq!(f.positions as usize * RECORD_SIZE, bytes.len());
        assert_eq!(f.sha256, augur_lab::kit::provenance::sha256_hex(&bytes));
        std::fs::remove_file(&summary).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
