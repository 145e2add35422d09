//! `augur-lab campaign` and `augur-lab corpus` through the real binaries: a two-generation
//! network campaign end to end (datagen, the held-out set, training, choice, gate SPRT,
//! promotion, the gate's games converted into the next generation's data), killed with
//! SIGKILL in the middle and run again; and the corpus's refusal of a game counted twice.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn lab() -> &'static str {
    env!("CARGO_BIN_EXE_augur-lab")
}

fn run_ok(args: &[&str]) -> String {
    run_ok_in(Path::new("."), args)
}

/// `run_ok` from the folder `cwd` (a command that reads paths relative to the repository).
fn run_ok_in(cwd: &Path, args: &[&str]) -> String {
    let out = Command::new(lab())
        .current_dir(cwd)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "augur-lab {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn run_err(args: &[&str]) -> String {
    let out = Command::new(lab()).args(args).output().unwrap();
    assert!(!out.status.success(), "augur-lab {args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn tiny_campaign(dir: &Path) -> PathBuf {
    let file = dir.join("tiny.toml");
    let text = format!(
        r#"
name = "tiny"
dir = "{run}"
cores = 2
[engine]
augur = "{augur}"
lab = "{lab}"
[network]
generations = 2
extra = ["extra/burst.csv"]
[network.held_out]
seed = 9
positions = 300
nodes = 300
[network.datagen]
seed = 10
positions = 2500
nodes = 300
threads = 2
[[network.train]]
name = "small"
threads = 2
recipe = {{ hidden = 16, epochs = 2, batch = 256, lr = 0.002 }}
[[network.train]]
name = "tiny"
recipe = {{ hidden = 16, epochs = 1, batch = 256 }}
[network.gate]
control = "nodes=300"
bounds = [0.0, 5.0]
games = 12
concurrency = 2
"#,
        run = dir.join("run").display(),
        augur = common::augur_binary().display(),
        lab = lab(),
    );
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn a_network_campaign_runs_end_to_end_and_survives_a_kill() {
    let dir = common::scratch("campaign", "tiny");
    let file = tiny_campaign(&dir);
    let file_arg = file.to_str().unwrap();
    let run = dir.join("run");

    // Start, let the first data appear, then kill the runner and its stage (a lost machine
    // takes both) with SIGKILL.
    let mut runner = Command::new(lab())
        .args(["campaign", "run", file_arg])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = run.join("gen1/datagen/data.bin.journal");
    let start = Instant::now();
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 4 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no datagen games appear"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    runner.kill().unwrap();
    runner.wait().unwrap();
    for stage in ["held-out", "gen1/datagen"] {
        if let Ok(pid) = std::fs::read_to_string(run.join(stage).join("pid")) {
            // Only while that pid is still the stage's: a finished stage's number may already
            // be another test's process (pids wrap at 32,768, and the trainer's threads use
            // them up quickly), which a blind kill would take down.
            let line = std::fs::read(format!("/proc/{}/cmdline", pid.trim())).unwrap_or_default();
            if String::from_utf8_lossy(&line).contains(run.to_str().unwrap()) {
                let _ = Command::new("kill").args(["-9", pid.trim()]).status();
            }
        }
    }
    let status = run_ok(&["campaign", "status", file_arg]);
    assert!(status.contains("gen1/datagen"), "{status}");
    assert!(!status.contains("gen1/datagen  done"), "{status}");

    // A burst made elsewhere with the loop's settings and a seed of its own joins the
    // training sets through its manifest ([network] extra).
    let burst = run.join("extra/burst.bin");
    std::fs::create_dir_all(run.join("extra")).unwrap();
    let start_net = run.join("nets/start.nnue");
    run_ok(&[
        "datagen",
        "--out",
        burst.to_str().unwrap(),
        "--positions",
        "300",
        "--seed",
        "50",
        "--nodes",
        "300",
        "--threads",
        "2",
        "--eval-file",
        start_net.to_str().unwrap(),
        "--quiet",
    ]);
    run_ok(&[
        "corpus",
        "manifest",
        burst.to_str().unwrap(),
        "--out",
        run.join("extra/burst.csv").to_str().unwrap(),
    ]);

    // Again: it resumes and runs to the end.
    let log = run_ok(&["campaign", "run", file_arg]);
    assert!(log.contains("the campaign is done"), "{log}");
    let status = run_ok(&["campaign", "status", file_arg]);
    assert!(status.contains("14 of 14 stages done"), "{status}");

    // The second generation trained on both generations' datagen and the first gate's games,
    // each game once, and the held-out set on nothing.
    let set = run.join("gen2/train-small/data.csv");
    let text = std::fs::read_to_string(&set).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(text.contains(",pgn,games.pgn,1,"), "{text}");
    assert!(text.contains("seed=50 "), "the burst: {text}");
    run_ok(&["corpus", "check", set.to_str().unwrap()]);
    // The datagen file resumed after the kill holds each game once: its journal is whole.
    let line = run_ok(&[
        "corpus",
        "manifest",
        run.join("gen1/datagen/data.bin").to_str().unwrap(),
    ]);
    assert!(line.contains("seed=11 "), "{line}");
    // The gate's verdict came from its typed summary; the promotion says what it decided.
    let promote = std::fs::read_to_string(run.join("gen1/promote/summary.toml")).unwrap();
    assert!(promote.contains("verdict = "), "{promote}");
    // The gate's evidence as the registry keeps it: games, PGN and the row they compute.
    let evidence = run.join("gen1/promote/evidence/gate-tiny-gen1");
    let row = std::fs::read_to_string(evidence.join("verdict.csv")).unwrap();
    assert!(
        row.starts_with("gate-tiny-gen1,sprt,nodes=300,candidate,best,"),
        "{row}"
    );
    let games = run_ok(&["stats", evidence.join("games.csv.xz").to_str().unwrap()]);
    assert!(games.contains("Games: 12 "), "{games}");
    let record = std::fs::read_to_string(evidence.join("restore.toml")).unwrap();
    assert!(
        record.contains(run.join("gen1/gate/games.pgn").to_str().unwrap()),
        "{record}"
    );
    assert!(evidence.join("games.pgn.xz").exists());
    // A finished campaign run again has nothing to do.
    let again = run_ok(&["campaign", "run", file_arg]);
    assert!(!again.contains(" start "), "{again}");
    // A training stage cut off before its summary (a kill, a lost sitting) goes on from its
    // checkpoint when run again, not from its first epoch.
    let train = run.join("gen2/train-small");
    std::fs::remove_file(train.join("summary.toml")).unwrap();
    let log = run_ok(&["campaign", "run", file_arg]);
    assert!(log.contains("start gen2/train-small"), "{log}");
    let train_log = std::fs::read_to_string(train.join("log.txt")).unwrap();
    assert!(
        train_log.contains("resuming from") && train_log.contains("after epoch 2"),
        "{train_log}"
    );
    assert!(train.join("summary.toml").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_broken_campaign_file_is_refused_before_anything_runs() {
    let dir = common::scratch("campaign", "broken");
    let file = tiny_campaign(&dir);
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("seed = 9", "seed = 11")).unwrap();
    let err = run_err(&["campaign", "run", file.to_str().unwrap()]);
    assert!(err.contains("trained on"), "{err}");
    assert!(!dir.join("run").exists());
    std::fs::write(&file, "name = \"x\"\n[network\n").unwrap();
    let err = run_err(&["campaign", "status", file.to_str().unwrap()]);
    assert!(err.contains("not a campaign file"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_snapshot_and_its_whole_file_cannot_share_a_training_set() {
    let dir = common::scratch("corpus", "twice");
    let data = dir.join("d.bin");
    let summary = dir.join("d.toml");
    run_ok(&[
        "datagen",
        "--out",
        data.to_str().unwrap(),
        "--games",
        "6",
        "--nodes",
        "200",
        "--threads",
        "2",
        "--seed",
        "5",
        "--quiet",
        "--summary",
        summary.to_str().unwrap(),
    ]);
    let s = std::fs::read_to_string(&summary).unwrap();
    assert!(
        s.contains("games = 6") && s.contains("source = \"datagen\""),
        "{s}"
    );
    // A cut of the finished file is the whole file: the same bytes, so the same SHA-256.
    let snap = dir.join("snap.bin");
    run_ok(&[
        "corpus",
        "cut",
        data.to_str().unwrap(),
        "--out",
        snap.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&snap).unwrap(), std::fs::read(&data).unwrap());
    // A cut of a file with a torn last game keeps the whole games.
    let mut torn = std::fs::read(&data).unwrap();
    torn.extend_from_slice(&[0u8; 40]);
    let live = dir.join("live.bin");
    std::fs::write(&live, &torn).unwrap();
    std::fs::copy(dir.join("d.bin.journal"), dir.join("live.bin.journal")).unwrap();
    let err = run_err(&["corpus", "manifest", live.to_str().unwrap()]);
    assert!(err.contains("corpus cut"), "{err}");
    let cut = dir.join("cut.bin");
    run_ok(&[
        "corpus",
        "cut",
        live.to_str().unwrap(),
        "--out",
        cut.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&data).unwrap());
    // The file and another file with games of the same seed in one set: refused.
    let set = dir.join("set.csv");
    let manifest = run_ok(&["corpus", "manifest", data.to_str().unwrap()]);
    let first = manifest.lines().nth(1).unwrap();
    let sha = first.split(',').nth(1).unwrap();
    let piece = first
        .replace(data.to_str().unwrap(), "other.bin")
        .replace(sha, &"0".repeat(64));
    std::fs::write(&set, format!("{manifest}{piece}\n")).unwrap();
    let err = run_err(&["corpus", "check", set.to_str().unwrap(), "--lines-only"]);
    assert!(err.contains("same games"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A campaign of one small datagen stage in `dir/<name>`.
fn stage_campaign(dir: &Path, name: &str, seed: u64) -> PathBuf {
    let file = dir.join(format!("{name}.toml"));
    let text = format!(
        r#"
name = "{name}"
dir = "{run}"
cores = 1
[engine]
augur = "{augur}"
lab = "{lab}"
[[stage]]
id = "data"
cores = 1
command = ["datagen", "--out", "{{dir}}/d.bin", "--positions", "120", "--nodes", "300", "--seed", "{seed}", "--threads", "1", "--quiet"]
"#,
        run = dir.join(name).display(),
        augur = common::augur_binary().display(),
        lab = lab(),
    );
    std::fs::write(&file, text).unwrap();
    file
}

/// Adds stages to a campaign file.
fn append(file: &Path, stages: &str) {
    let text = std::fs::read_to_string(file).unwrap() + stages;
    std::fs::write(file, text).unwrap();
}

/// `campaign run A B` runs both campaigns side by side in one process, each line naming its
/// campaign; a broken file among them stops the command before any campaign starts.
#[test]
fn several_campaigns_run_side_by_side_and_a_broken_one_stops_all() {
    let dir = common::scratch("campaign", "several");
    let a = stage_campaign(&dir, "alpha", 1);
    let b = stage_campaign(&dir, "beta", 2);
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "name = \"broken\"\n[network\n").unwrap();
    let err = run_err(&[
        "campaign",
        "run",
        a.to_str().unwrap(),
        broken.to_str().unwrap(),
    ]);
    assert!(err.contains("not a campaign file"), "{err}");
    assert!(!dir.join("alpha").exists(), "nothing started");
    let err = run_err(&[
        "campaign",
        "run",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(err.contains("one file"), "{err}");
    let out = run_ok(&["campaign", "run", a.to_str().unwrap(), b.to_str().unwrap()]);
    for name in ["alpha", "beta"] {
        assert!(
            out.contains(&format!("{name}: the campaign is done")),
            "{out}"
        );
        assert!(dir.join(name).join("data/summary.toml").exists());
    }
    let status = run_ok(&[
        "campaign",
        "status",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert!(
        status.contains("campaign alpha") && status.contains("campaign beta"),
        "{status}"
    );
    // Done campaigns run again: nothing to do, both say so at once.
    let again = run_ok(&["campaign", "run", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(!again.contains("start data"), "{again}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `campaign start FILE STAGE` starts one stage at once, outside the core budget, and refuses
/// what it must not start: an unknown stage, one still waiting, one already done.
#[test]
fn one_stage_starts_alone_and_the_wrong_ones_are_refused() {
    let dir = common::scratch("campaign", "start");
    let file = stage_campaign(&dir, "gamma", 3);
    append(
        &file,
        r#"
[[stage]]
id = "later"
cores = 1
after = ["data"]
command = ["datagen", "--out", "{dir}/d.bin", "--positions", "60", "--nodes", "300", "--seed", "4", "--threads", "1", "--quiet"]
"#,
    );
    let f = file.to_str().unwrap();
    assert!(run_err(&["campaign", "start", f, "nosuch"]).contains("no stage 'nosuch'"));
    assert!(run_err(&["campaign", "start", f, "later"]).contains("waits for data"));
    let out = run_ok(&["campaign", "start", f, "data"]);
    assert!(out.contains("started data"), "{out}");
    let summary = dir.join("gamma").join("data/summary.toml");
    let t0 = Instant::now();
    while !summary.exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "the stage did not finish"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(run_err(&["campaign", "start", f, "data"]).contains("is done"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stage that needs the machine alone (a timed match) is left by a plain `run`, which says
/// so and ends; `start` refuses it without `--alone`; and `--alone` refuses while any other
/// lab or engine process runs (here a stand-in named like one), naming it.
#[test]
fn a_stage_that_needs_the_machine_alone_is_left_for_it() {
    let dir = common::scratch("campaign", "alone");
    let file = stage_campaign(&dir, "delta", 5);
    append(
        &file,
        r#"
[[stage]]
id = "timed"
after = ["data"]
alone = true
command = ["datagen", "--out", "{dir}/d.bin", "--positions", "60", "--nodes", "300", "--seed", "6", "--threads", "1", "--quiet"]
"#,
    );
    let f = file.to_str().unwrap();
    let out = run_ok(&["campaign", "run", f]);
    assert!(out.contains("left for the machine alone: timed"), "{out}");
    assert!(dir.join("delta/data/summary.toml").exists());
    assert!(
        !dir.join("delta/timed").exists(),
        "the timed stage must not start"
    );
    let err = run_err(&["campaign", "start", f, "timed"]);
    assert!(err.contains("needs the machine alone"), "{err}");
    let other = stage_campaign(&dir, "epsilon", 7);
    let err = run_err(&["campaign", "run", "--alone", f, other.to_str().unwrap()]);
    assert!(err.contains("one file"), "{err}");

    // `sleep` under a name of the lab's: the check reads the name a process was started as.
    // (Not a copy of `sleep` run at once: a process forked meanwhile by a test beside this one
    // can hold the new file open for writing, and the start fails with "text file busy".)
    use std::os::unix::process::CommandExt;
    let stand_in = dir.join("augur-stand-in");
    let mut busy = Command::new("/bin/sleep")
        .arg0(&stand_in)
        .arg("60")
        .spawn()
        .unwrap();
    let pid = busy.id().to_string();
    for args in [
        vec!["campaign", "run", "--alone", f],
        vec!["campaign", "start", "--alone", f, "timed"],
    ] {
        let err = run_err(&args);
        assert!(
            err.contains("not alone") && err.contains(&pid),
            "{args:?}: {err}"
        );
    }
    busy.kill().unwrap();
    busy.wait().unwrap();
    assert!(!dir.join("delta/timed").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stage with `if_h1` runs after an SPRT that accepted H1 and is marked skipped, with the
/// verdict, after one that did not (here the cap came first); `status` says which.
#[test]
fn a_stage_after_an_sprt_runs_only_on_h1() {
    let dir = common::scratch("campaign", "if-h1");
    let file = dir.join("judged.toml");
    let sprt = |id: &str, strong: u32, games: u32| {
        format!(
            r#"
[[stage]]
id = "{id}"
cores = 1
command = ["match", "--engine", "name=a,cmd={{augur}},nodes={strong}", "--engine", "name=b,cmd={{augur}},nodes=20", "--tc", "nodes=1000", "--sprt", "0,5", "--games", "{games}", "--concurrency", "1", "--quiet", "--pgn", "{{dir}}/games.pgn"]
"#
        )
    };
    let follow = |id: &str, on: &str, seed: u32| {
        format!(
            r#"
[[stage]]
id = "{id}"
cores = 1
if_h1 = "{on}"
command = ["datagen", "--out", "{{dir}}/d.bin", "--positions", "60", "--nodes", "300", "--seed", "{seed}", "--threads", "1", "--quiet"]
"#
        )
    };
    let text = format!(
        "name = \"judged\"\ndir = \"{run}\"\ncores = 1\n[engine]\naugur = \"{augur}\"\nlab = \"{lab}\"\n{}{}{}{}",
        sprt("pass", 3000, 400),
        sprt("cap", 20, 2),
        follow("after-pass", "pass", 1),
        follow("after-cap", "cap", 2),
        run = dir.join("run").display(),
        augur = common::augur_binary().display(),
        lab = lab(),
    );
    std::fs::write(&file, text).unwrap();
    let f = file.to_str().unwrap();
    let out = run_ok(&["campaign", "run", f]);
    assert!(
        out.contains("skipped after-cap (cap: no decision yet)"),
        "{out}"
    );
    assert!(dir.join("run/after-pass/d.bin").exists(), "{out}");
    assert!(!dir.join("run/after-cap/d.bin").exists());
    let status = run_ok(&["campaign", "status", f]);
    assert!(
        status.contains("skipped (cap: no decision yet)"),
        "{status}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every committed campaign file checks: its keys, its stages' order and every declared command
/// parsed as the binary parses its own, so a pre-registration cannot carry a misspelt flag.
#[test]
fn every_committed_campaign_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("campaigns"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut args = vec!["campaign", "check"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let out = run_ok(&args);
    assert_eq!(out.lines().count(), files.len(), "{out}");
}

/// A misspelt flag or placeholder in a stage is refused before anything starts, naming the
/// stage; `run` refuses it too and starts nothing.
#[test]
fn a_misspelt_stage_command_is_refused_before_it_runs() {
    let dir = common::scratch("campaign", "misspelt");
    let write = |name: &str, arg: &str| {
        let file = dir.join(format!("{name}.toml"));
        let text = format!(
            "name = \"{name}\"\ndir = \"{}\"\ncores = 1\n\
             [[stage]]\nid = \"ok\"\ncommand = [\"convert\", \"x.bin\", \"--out\", \"{{dir}}/x.txt\"]\n\
             [[stage]]\nid = \"bad\"\nafter = [\"ok\"]\ncommand = [\"convert\", \"x.bin\", {arg}]\n",
            dir.join(name).display()
        );
        std::fs::write(&file, text).unwrap();
        file
    };
    let flag = write("flag", "\"--limitt\", \"3\"");
    let err = run_err(&["campaign", "check", flag.to_str().unwrap()]);
    assert!(err.contains("stage 'bad' does not parse"), "{err}");
    assert!(err.contains("--limitt"), "{err}");
    let err = run_err(&["campaign", "run", flag.to_str().unwrap()]);
    assert!(err.contains("stage 'bad' does not parse"), "{err}");
    assert!(!dir.join("flag").exists(), "nothing started");
    let placeholder = write("placeholder", "\"--out\", \"{dri}/x.txt\"");
    let err = run_err(&["campaign", "check", placeholder.to_str().unwrap()]);
    assert!(err.contains("placeholder"), "{err}");
    let fine = write("fine", "\"--out\", \"{dir}/y.txt\"");
    let out = run_ok(&["campaign", "check", fine.to_str().unwrap()]);
    assert!(out.contains("its 2 commands parse"), "{out}");
    // The network loop's datagen passes its `flags` through: a misspelt one is refused now,
    // not when the stage starts.
    let looped = tiny_campaign(&dir);
    let text = std::fs::read_to_string(&looped).unwrap();
    let bad = text.replace(
        "threads = 2\n[[network.train]]",
        "threads = 2\nflags = { bogus = \"1\" }\n[[network.train]]",
    );
    assert_ne!(bad, text);
    std::fs::write(&looped, bad).unwrap();
    let err = run_err(&["campaign", "check", looped.to_str().unwrap()]);
    assert!(
        err.contains("gen1/datagen") && err.contains("bogus"),
        "{err}"
    );
}

/// `campaign pin`: a campaign moves to newer binaries only when both labs write the same
/// datagen records with its datagen command; the record keeps the history; pinning the
/// binaries it already runs changes nothing; a lab that writes other records is refused and
/// the pinned one stays.
#[cfg(unix)]
#[test]
fn a_running_campaign_is_repinned_only_to_a_lab_that_writes_the_same_records() {
    use std::os::unix::fs::PermissionsExt;
    let dir = common::scratch("campaign", "pin");
    let file = tiny_campaign(&dir);
    let run = dir.join("run");
    let bin = run.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(run.join("nets")).unwrap();
    let net = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/nets/default.nnue");
    std::fs::copy(&net, run.join("nets/start.nnue")).unwrap();
    std::fs::copy(common::augur_binary(), bin.join("augur")).unwrap();
    let script = |body: &str| {
        let path = bin.join("augur-lab");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    // An "older" lab that is the same program under another file.
    script(&format!("exec '{}' \"$@\"", lab()));
    let record = bin.join("pinned.toml");
    std::fs::write(
        &record,
        "# the binaries this campaign runs\nlab_commit = \"0123456789abcdef\"\n",
    )
    .unwrap();
    let args = [
        "campaign",
        "pin",
        file.to_str().unwrap(),
        "--reason",
        "the trainer",
        "--check-positions",
        "40",
    ];
    let out = run_ok(&args);
    assert!(out.contains("datagen identical on 40 positions"), "{out}");
    assert_eq!(
        std::fs::read(bin.join("augur-lab")).unwrap(),
        std::fs::read(lab()).unwrap()
    );
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(
        text.contains("# re-pinned at ") && text.contains("(was 0123456): the trainer"),
        "{text}"
    );
    assert!(!run.join("gen1/datagen/summary.toml").exists());
    let out = run_ok(&args);
    assert!(out.contains("nothing changed"), "{out}");

    // A lab whose datagen writes other records.
    script(
        "while [ $# -gt 0 ]; do if [ \"$1\" = --out ]; then echo other > \"$2\"; fi; shift; done",
    );
    let before = std::fs::read(bin.join("augur-lab")).unwrap();
    let err = run_err(&args);
    assert!(err.contains("different datagen records"), "{err}");
    assert_eq!(std::fs::read(bin.join("augur-lab")).unwrap(), before);
    assert_eq!(std::fs::read_to_string(&record).unwrap(), text);
}

/// A campaign `name` in `dir` of one match stage `m` of `games` games at fixed nodes: its
/// file and its folder.
fn match_campaign(dir: &Path, name: &str, games: u32) -> (PathBuf, PathBuf) {
    let file = dir.join(format!("{name}.toml"));
    let run = dir.join(name);
    std::fs::write(
        &file,
        format!(
            r#"
name = "{name}"
dir = "{run}"
cores = 1
[engine]
augur = "{augur}"
lab = "{lab}"
[[stage]]
id = "m"
cores = 1
command = ["match", "--engine", "name=a,cmd={{augur}},nodes=40", "--engine", "name=b,cmd={{augur}},nodes=20", "--tc", "nodes=1000", "--games", "{games}", "--concurrency", "1", "--pgn", "{{dir}}/games.pgn"]
"#,
            run = run.display(),
            augur = common::augur_binary().display(),
            lab = lab(),
        ),
    )
    .unwrap();
    (file, run)
}

/// `pgn`'s games kept whole in the evidence folder `to` (`stats --keep`, which records where
/// they came from) as row `row` of a fresh registry in `dir`.
fn keep_whole(dir: &Path, pgn: &Path, row: &str, to: &Path, extra: &[&str]) {
    let registry = empty_registry(dir);
    let mut args = vec![
        "stats",
        pgn.to_str().unwrap(),
        "--row",
        row,
        "--kind",
        "match",
        "--keep",
        to.to_str().unwrap(),
        "--registry",
        registry.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_ok(&args);
}

/// A verdict registry in `dir` with the committed one's columns and no row.
fn empty_registry(dir: &Path) -> PathBuf {
    let registry = dir.join("verdicts.csv");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let columns = std::fs::read_to_string(root.join("docs/evidence/verdicts.csv")).unwrap();
    std::fs::write(&registry, format!("{}\n", columns.lines().next().unwrap())).unwrap();
    registry
}

/// A lost machine costs only the stage in flight: a finished match stage's games, kept with
/// `stats --keep` (which records where they came from), come back with `campaign restore`
/// (or by themselves at a first start from the repository's root) into a campaign folder
/// that is gone, and the stage is done again without a game played;
/// a file that exists is never overwritten, and a kept file whose SHA-256 is not the recorded
/// one is refused before anything is written.
#[test]
fn a_lost_campaign_gets_its_finished_games_back_from_the_evidence() {
    let dir = common::scratch("campaign", "restore");
    let (file, run) = match_campaign(&dir, "kept", 4);
    let f = file.to_str().unwrap();
    run_ok(&["campaign", "run", f]);
    let pgn = run.join("m/games.pgn");
    let evidence = dir.join("docs/evidence");
    keep_whole(
        &dir,
        &pgn,
        "kept-m",
        &evidence.join("kept-m"),
        &["--strip-comments"],
    );
    let record = std::fs::read_to_string(evidence.join("kept-m/restore.toml")).unwrap();
    assert!(record.contains(pgn.to_str().unwrap()), "{record}");
    // A file `stats` does not record (a study's table) is recorded by `campaign keep`, again
    // after it grows: the entry follows the file.
    let table = evidence.join("kept-m/table.csv");
    let table_to = run.join("m/table.csv");
    for text in ["a,b\n", "a,b\n1,2\n"] {
        std::fs::write(&table, text).unwrap();
        run_ok(&[
            "campaign",
            "keep",
            table.to_str().unwrap(),
            "--to",
            table_to.to_str().unwrap(),
        ]);
    }
    assert!(run_err(&[
        "campaign",
        "keep",
        table.to_str().unwrap(),
        "--to",
        "m/table.csv"
    ])
    .contains("absolute"));

    // The machine is lost: the campaign's folder with it.
    std::fs::remove_dir_all(&run).unwrap();
    let ev = evidence.to_str().unwrap();
    let dry = run_ok(&["campaign", "restore", "--dry-run", "--evidence", ev, f]);
    assert!(dry.contains("would restore"), "{dry}");
    assert!(!pgn.exists(), "a dry run writes nothing");
    let out = run_ok(&["campaign", "restore", "--evidence", ev, f]);
    assert!(out.contains("2 restored, 0 already there"), "{out}");
    assert_eq!(std::fs::read_to_string(&table_to).unwrap(), "a,b\n1,2\n");
    let restored = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(restored.matches("[Result ").count(), 4, "{restored}");
    let again = run_ok(&["campaign", "restore", "--evidence", ev, f]);
    assert!(again.contains("0 restored, 2 already there"), "{again}");
    // Its frozen command is not kept; `status` reads the file's and counts the games back.
    assert!(!run.join("m/command.toml").exists());
    let status = run_ok(&["campaign", "status", f]);
    assert!(status.contains("4 games"), "{status}");
    // The stage resumes with all its games played: done, and its PGN unchanged.
    run_ok(&["campaign", "run", f]);
    assert!(run.join("m/summary.toml").exists());
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), restored);
    let log = std::fs::read_to_string(run.join("m/log.txt")).unwrap();
    assert!(log.contains("4 games already played, 0 to go"), "{log}");

    // A first start on a new machine, run from the repository's root, restores by itself.
    std::fs::remove_dir_all(&run).unwrap();
    let said = run_ok_in(&dir, &["campaign", "run", f]);
    assert!(said.contains("2 finished files restored"), "{said}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), restored);

    // A kept file that is not what its record says: refused, nothing written.
    std::fs::remove_dir_all(&run).unwrap();
    std::fs::write(evidence.join("kept-m/games.pgn.xz"), b"not xz").unwrap();
    let err = run_err(&["campaign", "restore", "--evidence", ev, f]);
    assert!(err.contains("games.pgn.xz"), "{err}");
    assert!(!pgn.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A one-stage datagen campaign `dir/c.toml` running in `run`, with `engine` as its [engine].
fn commit_campaign(dir: &Path, run: &Path, engine: &str) -> PathBuf {
    let file = dir.join("c.toml");
    let text = format!(
        r#"
name = "c"
dir = "{run}"
cores = 1
[engine]
{engine}
[[stage]]
id = "data"
cores = 1
command = ["datagen", "--out", "{{dir}}/d.bin", "--positions", "60", "--nodes", "300", "--seed", "3", "--threads", "1", "--quiet"]
"#,
        run = run.display()
    );
    std::fs::write(&file, text).unwrap();
    file
}

/// [campaign-commit] A campaign that names its commit runs that commit's build from
/// `DIR/src` (here a build already there, so no cargo runs): bin/ holds those binaries and
/// pinned.toml names the commit, not the running lab's.
#[test]
fn a_campaign_with_a_commit_pins_that_commits_build() {
    let dir = common::scratch("campaign", "commit");
    let run = dir.join("c");
    let release = run.join("src/target/release");
    std::fs::create_dir_all(&release).unwrap();
    // A worktree's `.git` is a file naming the repository; its presence says "made already".
    std::fs::write(run.join("src/.git"), "gitdir: elsewhere\n").unwrap();
    std::fs::copy(lab(), release.join("augur-lab")).unwrap();
    std::fs::copy(common::augur_binary(), release.join("augur")).unwrap();
    let file = commit_campaign(&dir, &run, "commit = \"abcdef1\"");
    run_ok(&["campaign", "run", file.to_str().unwrap()]);
    let pinned = std::fs::read_to_string(run.join("bin/pinned.toml")).unwrap();
    assert!(pinned.contains("lab_commit = \"abcdef1\""), "{pinned}");
    assert!(
        pinned.contains(release.join("augur").to_str().unwrap()),
        "{pinned}"
    );
    assert_eq!(
        std::fs::read(run.join("bin/augur")).unwrap(),
        std::fs::read(common::augur_binary()).unwrap()
    );
    assert!(run.join("data/summary.toml").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// [campaign-lab-commit] `lab_commit` beside `commit`: the engine comes from `DIR/src`, the lab
/// from `DIR/src-lab` (builds already there: dummies stand where the other commit's binary must
/// not be taken), and pinned.toml names the lab's commit and says where the engine came from.
#[test]
fn a_lab_commit_pins_one_commits_engine_and_anothers_lab() {
    let dir = common::scratch("campaign", "lab-commit");
    let run = dir.join("c");
    let augur = common::augur_binary();
    let (lab_path, augur_path) = (Path::new(lab()), augur.as_path());
    for (src, lab_file, augur_file) in [
        ("src", None, Some(augur_path)),
        ("src-lab", Some(lab_path), None),
    ] {
        let release = run.join(src).join("target/release");
        std::fs::create_dir_all(&release).unwrap();
        std::fs::write(run.join(src).join(".git"), "gitdir: elsewhere\n").unwrap();
        for (name, file) in [("augur-lab", lab_file), ("augur", augur_file)] {
            match file {
                Some(f) => drop(std::fs::copy(f, release.join(name)).unwrap()),
                None => std::fs::write(release.join(name), "not this one\n").unwrap(),
            }
        }
    }
    let file = commit_campaign(&dir, &run, "commit = \"abcdef1\"\nlab_commit = \"1234567\"");
    run_ok(&["campaign", "run", file.to_str().unwrap()]);
    let pinned = std::fs::read_to_string(run.join("bin/pinned.toml")).unwrap();
    assert!(pinned.contains("lab_commit = \"1234567\""), "{pinned}");
    assert!(pinned.contains("augur built from abcdef1"), "{pinned}");
    assert_eq!(
        std::fs::read(run.join("bin/augur")).unwrap(),
        std::fs::read(common::augur_binary()).unwrap()
    );
    assert_eq!(
        std::fs::read(run.join("bin/augur-lab")).unwrap(),
        std::fs::read(lab()).unwrap()
    );
    assert!(run.join("data/summary.toml").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The first `n` games of a PGN the match runner wrote (each record starts with `[Event `).
fn first_games(text: &str, n: usize) -> &str {
    match text.match_indices("[Event ").nth(n) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

/// A stage in flight loses only the games since the last keep: `campaign keep-in-flight`
/// keeps each PGN that no evidence holds whole as parts of only the new complete games (a torn
/// last record left for later), `campaign restore` writes the parts one after another into a
/// folder that is gone, and the stage resumes after them; parts that are not the start of the
/// live file are refused, and the parts of a PGN kept whole since are removed.
#[test]
fn a_stage_in_flight_is_kept_in_parts_and_resumes_after_them() {
    let dir = common::scratch("campaign", "in-flight");
    let (file, run) = match_campaign(&dir, "flight", 6);
    let f = file.to_str().unwrap();
    run_ok(&["campaign", "run", f]);
    let pgn = run.join("m/games.pgn");
    let full = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(full.matches("[Event ").count(), 6);
    let evidence = dir.join("docs/evidence");
    let ev = evidence.to_str().unwrap();
    let parts = evidence.join("in-flight/flight/m-games");

    // Two games and a torn third: the part holds the two. A PGN inside a source worktree
    // (src, src-lab) is the checkout's, not a stage's: never kept.
    let torn = format!("{}[Event \"torn", first_games(&full, 2));
    std::fs::write(&pgn, &torn).unwrap();
    for src in ["src", "src-lab"] {
        std::fs::create_dir_all(run.join(src)).unwrap();
        std::fs::write(run.join(src).join("fixture.pgn"), first_games(&full, 1)).unwrap();
    }
    let out = run_ok(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(out.contains("kept 2 games"), "{out}");
    assert!(!out.contains("fixture"), "{out}");
    assert!(parts.join("part-01.pgn.xz").exists());
    // Four games: the second part holds only the two new ones; nothing new, no part.
    std::fs::write(&pgn, first_games(&full, 4)).unwrap();
    let out = run_ok(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(out.contains("kept 2 games"), "{out}");
    let out = run_ok(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(out.contains("no new complete game"), "{out}");
    assert!(!parts.join("part-03.pgn.xz").exists());
    let record = std::fs::read_to_string(parts.join("restore.toml")).unwrap();
    assert_eq!(record.matches("offset = ").count(), 2, "{record}");

    // The machine is lost: the parts come back one after another and the stage resumes.
    std::fs::remove_dir_all(&run).unwrap();
    let out = run_ok(&["campaign", "restore", "--evidence", ev, f]);
    assert!(out.contains("2 restored"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&pgn).unwrap(),
        first_games(&full, 4)
    );
    run_ok(&["campaign", "run", f]);
    let log = std::fs::read_to_string(run.join("m/log.txt")).unwrap();
    assert!(log.contains("4 games already played, 2 to go"), "{log}");
    let resumed = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(resumed.matches("[Event ").count(), 6);
    assert!(resumed.starts_with(first_games(&full, 4)));

    // Another run's file under the same path: refused, nothing written.
    std::fs::write(&pgn, &full[full.find("[Event ").unwrap() + 1..]).unwrap();
    let err = run_err(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(err.contains("not the start"), "{err}");
    assert!(!parts.join("part-03.pgn.xz").exists());

    // Kept whole at the end: the parts are superseded and removed; restore takes the whole.
    std::fs::write(&pgn, &resumed).unwrap();
    keep_whole(&dir, &pgn, "flight-m", &evidence.join("flight-m"), &[]);
    let out = run_ok(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(out.contains("its games are kept whole"), "{out}");
    assert!(!parts.exists());
    std::fs::remove_dir_all(&run).unwrap();
    run_ok(&["campaign", "restore", "--evidence", ev, f]);
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), resumed);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file kept whole while its stage was partial (a stage resumed from a restored point appends
/// to it) is in flight again: parts kept before it are superseded, its new games are kept as
/// parts after its end, and restore writes the whole file and then those parts.
#[test]
fn games_after_a_file_kept_whole_are_kept_in_parts() {
    let dir = common::scratch("campaign", "after-whole");
    let (file, run) = match_campaign(&dir, "after", 6);
    let f = file.to_str().unwrap();
    run_ok(&["campaign", "run", f]);
    let pgn = run.join("m/games.pgn");
    let full = std::fs::read_to_string(&pgn).unwrap();
    let evidence = dir.join("docs/evidence");
    let ev = evidence.to_str().unwrap();
    let parts = evidence.join("in-flight/after/m-games");

    std::fs::write(&pgn, first_games(&full, 2)).unwrap();
    run_ok(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(parts.join("part-01.pgn.xz").exists());
    std::fs::write(&pgn, first_games(&full, 4)).unwrap();
    keep_whole(&dir, &pgn, "after-m", &evidence.join("after-m"), &[]);
    // Nothing after the whole file: not in flight.
    let out = run_ok(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(out.contains("removed"), "{out}");
    assert!(out.contains("0 PGN files in flight, 1 kept whole"), "{out}");
    assert!(!parts.exists());
    // The stage goes on: its fifth game, then its sixth, each kept once after the whole file.
    std::fs::write(&pgn, first_games(&full, 5)).unwrap();
    let out = run_ok(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(out.contains("kept 1 games"), "{out}");
    std::fs::write(&pgn, &full).unwrap();
    let out = run_ok(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(out.contains("kept 1 games"), "{out}");
    assert!(parts.join("part-02.pgn.xz").exists());
    let out = run_ok(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(out.contains("no new complete game"), "{out}");

    // The machine is lost: the whole file and then the two parts come back.
    std::fs::remove_dir_all(&run).unwrap();
    run_ok(&["campaign", "restore", "--evidence", ev, f]);
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), full);

    // Games after the whole file that are not the parts' (another run's): refused.
    let four = first_games(&full, 4);
    let other = format!(
        "{four}{}",
        full[four.len()..].replacen("[Event ", "[Event  ", 1)
    );
    std::fs::write(&pgn, &other).unwrap();
    let err = run_err(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(err.contains("not the start"), "{err}");
    // A live file that the whole one does not start is taken for a rendering of it (a study
    // point keeps its games without comments): kept, not in flight, nothing written.
    std::fs::write(&pgn, &full[full.find("[Event ").unwrap() + 1..]).unwrap();
    std::fs::remove_dir_all(&parts).unwrap();
    let out = run_ok(&["campaign", "keep-in-flight", "--evidence", ev, f]);
    assert!(out.contains("0 PGN files in flight, 1 kept whole"), "{out}");
    assert!(!parts.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
