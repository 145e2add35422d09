//! The runner: starts every stage whose predecessors are done while the campaign's cores
//! allow, each as a lab process with its output in the stage's `log.txt`, and goes on until all
//! are done or one fails.
//!
//! What makes it survive `kill -9` and a lost machine: a stage is done when its summary exists
//! (written whole), every lab command it runs resumes from its own files, and a stage's process
//! outlives the runner: a runner started again finds it by its pid file (checked against the
//! process's command line, so a reused pid is not mistaken for it) and waits for it instead of
//! starting a second one. At most the stage in flight loses the game or epoch it was in.

use std::collections::HashMap;
use std::fs::OpenOptions;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use augur_arena::machine::{cmdline, proc_stat};

use super::file::Priority;
use super::plan::Stage;
use super::stages::{Campaign, Frozen, Layout};

/// The pid a file names.
fn pid_in(path: &Path) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// A process that the pid file names, if it is alive and runs the stage's command.
pub fn live_pid(layout: &Layout, id: &str) -> Option<u32> {
    let pid = pid_in(&layout.pid(id))?;
    let summary = layout.summary(id).display().to_string();
    cmdline(pid).contains(&summary).then_some(pid)
}

/// [campaign-alone] Other lab and engine processes on the machine (pid and command line):
/// what would share the cores with a timed match. Any process whose program is named
/// `augur...` counts, whichever campaign or shell started it.
pub fn other_lab_processes() -> Vec<(u32, String)> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found: Vec<(u32, String)> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me)
        .filter_map(|pid| {
            let line = cmdline(pid);
            let program = line.split('\0').next()?;
            let name = Path::new(program).file_name()?.to_str()?;
            name.starts_with("augur")
                .then(|| (pid, line.replace('\0', " ").trim().to_string()))
        })
        .collect();
    found.sort();
    found
}

/// Refuses to go on unless the machine is free for a timed stage; the campaign's own stage
/// processes (left by an earlier runner, adopted now) are not others, nor their engines.
pub fn check_alone(campaign: &Campaign) -> Result<()> {
    let own: Vec<u32> = campaign
        .stages
        .iter()
        .filter_map(|s| live_pid(&campaign.layout, &s.id))
        .collect();
    let others: Vec<(u32, String)> = other_lab_processes()
        .into_iter()
        .filter(|(pid, _)| {
            !own.contains(pid) && !own.iter().any(|&o| proc_stat(*pid, 4) == Some(o))
        })
        .collect();
    if others.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = others
        .iter()
        .map(|(pid, line)| format!("  {pid}: {}", line.chars().take(120).collect::<String>()))
        .collect();
    bail!(
        "the machine is not alone: {} other lab or engine process{} run{} (a timed match would \
         measure their load); stop them first (a campaign's stages resume later):\n{}",
        others.len(),
        if others.len() == 1 { "" } else { "es" },
        if others.len() == 1 { "s" } else { "" },
        shown.join("\n")
    )
}

/// [campaign-start-nice] The nice level of the campaign's live runner, if one runs: a stage
/// started by hand takes it, so that it shares the machine as the runner's own stages do (a
/// runner under `nice -n 19` would otherwise see them starved by a stage started at 0).
fn runner_nice(layout: &Layout) -> Option<i32> {
    let pid = pid_in(&layout.dir.join("runner.pid"))?;
    if !cmdline(pid).contains("campaign") {
        return None;
    }
    proc_stat(pid, 19)
}

/// Starts the command at nice level `nice` (raising it only: an unprivileged process cannot
/// lower its nice level, and then stays where it is).
fn with_nice(command: &mut Command, nice: i32) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec only the async-signal-safe setpriority runs; a failure
        // leaves the child at the caller's level.
        unsafe {
            command.pre_exec(move || {
                libc::setpriority(libc::PRIO_PROCESS, 0, nice);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (command, nice);
}

/// Marks a stage failed: its `failed` file holds the error, and the runner's log says so.
fn mark_failed(l: &Layout, id: &str, e: &anyhow::Error) -> Result<()> {
    std::fs::create_dir_all(l.stage_dir(id))?;
    std::fs::write(l.failed(id), format!("{e:#}\n"))?;
    println!("{} FAILED {id}: {e:#}", stamp(l));
    Ok(())
}

/// The runner's own pid file: one runner per campaign folder.
fn lock(layout: &Layout) -> Result<()> {
    let path = layout.dir.join("runner.pid");
    if let Ok(text) = std::fs::read_to_string(&path) {
        if let Ok(pid) = text.trim().parse::<u32>() {
            if pid != std::process::id() && cmdline(pid).contains("campaign") {
                bail!(
                    "another runner (pid {pid}) is running the campaign in {}",
                    layout.dir.display()
                );
            }
        }
    }
    crate::kit::atomic::write(&path, std::process::id().to_string().as_bytes())
}

/// The time and the campaign's folder name, which start each line the runner prints (one
/// process may run several campaigns).
fn stamp(l: &Layout) -> String {
    let name = l.dir.file_name().unwrap_or_default().to_string_lossy();
    let time = humantime::format_rfc3339_seconds(std::time::SystemTime::now());
    format!("{time} {name}:")
}

fn log_tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// The frozen command of a stage: the one written at its first start, else resolved now.
fn frozen(campaign: &Campaign, stage: &Stage) -> Result<Frozen> {
    let path = campaign.layout.frozen(&stage.id);
    if path.exists() {
        let text = std::fs::read_to_string(&path)?;
        return toml::from_str(&text).with_context(|| format!("{} is damaged", path.display()));
    }
    let f = campaign.resolve(stage)?;
    crate::kit::atomic::write(&path, toml::to_string(&f)?.as_bytes())?;
    Ok(f)
}

/// [campaign-priority] The child starts under the campaign's scheduling policy; its engines
/// inherit it.
pub fn with_priority(command: &mut Command, priority: Priority) {
    #[cfg(target_os = "linux")]
    if priority == Priority::Idle {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec only the async-signal-safe sched_setscheduler runs; a
        // failure leaves the child at the normal policy, which is only slower for others.
        unsafe {
            command.pre_exec(|| {
                let param = libc::sched_param { sched_priority: 0 };
                libc::sched_setscheduler(0, libc::SCHED_IDLE, &param);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (command, priority);
}

pub(super) fn spawn(campaign: &Campaign, stage: &Stage, nice: Option<i32>) -> Result<Child> {
    let l = &campaign.layout;
    let f = frozen(campaign, stage)?;
    let log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(l.log(&stage.id))
        .with_context(|| format!("cannot open {}", l.log(&stage.id).display()))?;
    let mut command = Command::new(l.lab());
    command
        .args(&f.args)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log);
    with_priority(&mut command, campaign.file.priority);
    if let Some(n) = nice {
        with_nice(&mut command, n);
    }
    let child = command
        .spawn()
        .with_context(|| format!("cannot start {}", l.lab().display()))?;
    crate::kit::atomic::write(&l.pid(&stage.id), child.id().to_string().as_bytes())?;
    println!(
        "{} start {} ({} core{}): augur-lab {}",
        stamp(l),
        stage.id,
        stage.cores,
        if stage.cores == 1 { "" } else { "s" },
        f.args.join(" ")
    );
    Ok(child)
}

/// Starts one stage now, outside the campaign's core budget (the runner, running or started
/// later, adopts it by its pid file): a match that must not wait for the stages before it in
/// the file. Refused for a stage that is done, running, internal or still waiting.
pub fn start_one(campaign: &Campaign, id: &str, alone: bool) -> Result<u32> {
    let l = &campaign.layout;
    let stage = campaign.stage(id).with_context(|| {
        format!(
            "no stage '{id}' in {} (its stages: {})",
            campaign.file.name,
            campaign
                .stages
                .iter()
                .map(|s| s.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    if l.is_done(id) {
        bail!("{id} is done ({} exists)", l.summary(id).display());
    }
    if let Some(pid) = live_pid(l, id) {
        bail!("{id} is running already (pid {pid})");
    }
    if stage.step.is_internal() {
        bail!("{id} is the runner's own step: `campaign run` does it");
    }
    if let Some(a) = stage.after.iter().find(|a| !l.is_done(a)) {
        bail!("{id} waits for {a}");
    }
    if let Some(why) = campaign.skip_reason(stage)? {
        campaign.write_skip(stage, &why)?;
        bail!("{id} is skipped ({why}): nothing to start");
    }
    if campaign.alone(stage) {
        if !alone {
            bail!("{id} needs the machine alone (a timed match): stop every other campaign and pass --alone");
        }
        check_alone(campaign)?;
    }
    std::fs::create_dir_all(l.stage_dir(id))?;
    let child = spawn(campaign, stage, runner_nice(l))?;
    Ok(child.id())
}

/// Runs the campaign to its end. Stages that failed in an earlier run are tried again.
/// Without `alone`, a stage that needs the machine alone is left, and the runner ends when
/// only such stages (and those after them) remain; with it, the machine is checked free first.
pub fn run(campaign: &Campaign, alone: bool) -> Result<()> {
    let l = &campaign.layout;
    if alone {
        check_alone(campaign)?;
    }
    lock(l)?;
    for s in &campaign.stages {
        let _ = std::fs::remove_file(l.failed(&s.id));
    }
    let total = campaign.file.cores;
    let mut children: HashMap<String, (Child, Instant)> = HashMap::new();
    let mut failures: Vec<String> = Vec::new();
    loop {
        // Reap the processes that ended.
        let mut ended = Vec::new();
        for (id, (child, _)) in children.iter_mut() {
            if let Some(status) = child.try_wait()? {
                ended.push((id.clone(), status));
            }
        }
        for (id, status) in ended {
            let (_, started) = children.remove(&id).expect("reaped above");
            let _ = std::fs::remove_file(l.pid(&id));
            if l.is_done(&id) {
                println!(
                    "{} done {id} ({})",
                    stamp(l),
                    humantime::format_duration(Duration::from_secs(started.elapsed().as_secs()))
                );
            } else {
                std::fs::write(l.failed(&id), format!("{status}\n"))?;
                println!(
                    "{} FAILED {id} ({status}); the end of {}:\n{}",
                    stamp(l),
                    l.log(&id).display(),
                    log_tail(&l.log(&id), 15)
                );
                failures.push(id);
            }
        }
        // Processes of an earlier runner, still at work.
        let adopted: Vec<&Stage> = campaign
            .stages
            .iter()
            .filter(|s| !children.contains_key(&s.id) && !l.is_done(&s.id))
            .filter(|s| live_pid(l, &s.id).is_some())
            .collect();
        let mut busy: usize = adopted.iter().map(|s| s.cores).sum::<usize>()
            + children
                .keys()
                .filter_map(|id| campaign.stage(id))
                .map(|s| s.cores)
                .sum::<usize>();
        let mut progressed = false;
        if failures.is_empty() {
            for s in &campaign.stages {
                if l.is_done(&s.id)
                    || children.contains_key(&s.id)
                    || adopted.iter().any(|a| a.id == s.id)
                    || !s.after.iter().all(|a| l.is_done(a))
                {
                    continue;
                }
                match campaign.skip_reason(s) {
                    Ok(None) => {}
                    Ok(Some(why)) => {
                        campaign.write_skip(s, &why)?;
                        println!("{} skipped {} ({why})", stamp(l), s.id);
                        progressed = true;
                        continue;
                    }
                    Err(e) => {
                        mark_failed(l, &s.id, &e)?;
                        failures.push(s.id.clone());
                        break;
                    }
                }
                if campaign.alone(s) && !alone {
                    continue;
                }
                if s.step.is_internal() {
                    std::fs::create_dir_all(l.stage_dir(&s.id))?;
                    match campaign.run_internal(s) {
                        Ok(()) => println!("{} done {}", stamp(l), s.id),
                        Err(e) => {
                            mark_failed(l, &s.id, &e)?;
                            failures.push(s.id.clone());
                            break;
                        }
                    }
                    progressed = true;
                    continue;
                }
                if busy + s.cores > total {
                    continue;
                }
                std::fs::create_dir_all(l.stage_dir(&s.id))?;
                match spawn(campaign, s, None) {
                    Ok(child) => {
                        children.insert(s.id.clone(), (child, Instant::now()));
                        busy += s.cores;
                        progressed = true;
                    }
                    Err(e) => {
                        mark_failed(l, &s.id, &e)?;
                        failures.push(s.id.clone());
                        break;
                    }
                }
            }
        }
        let all_done = campaign.stages.iter().all(|s| l.is_done(&s.id));
        if all_done {
            println!("{} the campaign is done", stamp(l));
            return Ok(());
        }
        if children.is_empty() && adopted.is_empty() && !progressed {
            let left: Vec<&str> = campaign
                .stages
                .iter()
                .filter(|s| campaign.alone(s) && !alone && !l.is_done(&s.id))
                .map(|s| s.id.as_str())
                .collect();
            if failures.is_empty() && !left.is_empty() {
                println!(
                    "{} left for the machine alone: {} (stop every other campaign, then \
                     `augur-lab campaign run --alone` on this file)",
                    stamp(l),
                    left.join(", ")
                );
                return Ok(());
            }
            if !failures.is_empty() {
                bail!(
                    "stage{} {} failed (its log.txt says why); `campaign run` again tries {} again",
                    if failures.len() == 1 { "" } else { "s" },
                    failures.join(", "),
                    if failures.len() == 1 { "it" } else { "them" }
                );
            }
            bail!("no stage can start: the campaign's stages wait for each other");
        }
        if !progressed {
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn the_nice_level_read_from_proc_is_the_one_the_kernel_gives() {
        // SAFETY: getpriority reads this process's own nice level.
        let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        assert_eq!(proc_stat::<i32>(std::process::id(), 19), Some(nice));
    }

    /// The scheduling policy a child started under `priority` reports for itself
    /// (`/proc/self/sched`: 0 normal, 5 SCHED_IDLE).
    #[cfg(target_os = "linux")]
    fn policy_of_child(priority: Priority) -> String {
        let mut c = Command::new("cat");
        c.arg("/proc/self/sched").stdout(Stdio::piped());
        with_priority(&mut c, priority);
        let out = c.output().expect("cat runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .find(|l| l.starts_with("policy"))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn an_idle_campaign_starts_its_processes_under_sched_idle() {
        assert_eq!(
            policy_of_child(Priority::Idle),
            libc::SCHED_IDLE.to_string()
        );
        assert_ne!(
            policy_of_child(Priority::Normal),
            libc::SCHED_IDLE.to_string()
        );
    }
}
