//! What the machine is doing, read from Linux's `/proc`: a process's command line and `stat`
//! fields (the lab's campaign runner checks its stages' pids with them), and the CPU that
//! processes outside this one and its descendants use, so that a timed match can say what
//! shared the cores with its games. Elsewhere than Linux every reading is `None` (or empty).

use std::collections::HashMap;
use std::str::FromStr;

/// The command line of a live process, its arguments separated by NUL (empty when there is
/// no such process).
pub fn cmdline(pid: u32) -> String {
    let bytes = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Field `n` (numbered as proc(5) numbers them: 3 the state, 4 the parent, 14 and 15 the user
/// and system ticks, 19 the nice level) of a `/proc/PID/stat` line. The command in field 2 may
/// hold spaces and parentheses, so the fields are counted from its last `)`.
pub fn stat_field<T: FromStr>(stat: &str, n: usize) -> Option<T> {
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(n.checked_sub(3)?)?
        .parse()
        .ok()
}

/// Field `n` of a live process's `/proc/PID/stat`.
pub fn proc_stat<T: FromStr>(pid: u32, n: usize) -> Option<T> {
    stat_field(
        &std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?,
        n,
    )
}

/// The machine's CPU time and this process tree's at one moment, in clock ticks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CpuMark {
    /// Ticks of every core not idle (steal included: another guest's load is load too).
    busy: u64,
    /// Ticks of every core, idle or not.
    total: u64,
    /// Ticks of this process, its reaped children and its live descendants.
    own: u64,
    cores: u32,
}

impl CpuMark {
    /// Reads `/proc`; `None` where there is none.
    pub fn now() -> Option<CpuMark> {
        let (busy, total, cores) = machine_ticks(&std::fs::read_to_string("/proc/stat").ok()?)?;
        let me = std::process::id();
        let stats: Vec<(u32, String)> = std::fs::read_dir("/proc")
            .ok()?
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter_map(|pid| {
                Some((
                    pid,
                    std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?,
                ))
            })
            .collect();
        let own = tree_ticks(me, &stats)?;
        Some(CpuMark {
            busy,
            total,
            own,
            cores,
        })
    }

    /// The cores' worth of CPU that processes outside this tree used from `self` to `later`
    /// (0 when the machine did nothing else; 1 is one core kept busy the whole time); `None`
    /// when no tick passed between the two.
    pub fn others_since(&self, later: &CpuMark) -> Option<f64> {
        let total = later.total.checked_sub(self.total).filter(|&t| t > 0)?;
        let busy = later.busy.saturating_sub(self.busy);
        let own = later.own.saturating_sub(self.own);
        Some(busy.saturating_sub(own) as f64 / total as f64 * f64::from(later.cores))
    }
}

/// [arena-others] A timed match's line on what ran beside its games, from each game's
/// `OtherLoad`; `None` without any (a nodes or depth match, or games from before the tag).
pub fn others_line(per_game: &[f64]) -> Option<String> {
    if per_game.is_empty() {
        return None;
    }
    let n = per_game.len();
    let mean = per_game.iter().sum::<f64>() / n as f64;
    let most = per_game.iter().copied().fold(0.0, f64::max);
    let above = per_game.iter().filter(|&&x| x > 0.25).count();
    Some(format!(
        "Beside the games on the clock, processes outside the match used {mean:.2} cores on \
         average (the most in one game {most:.2}); {above} of {n} games above a quarter core\n"
    ))
}

/// Busy and total ticks over all cores, and the count of cores, from `/proc/stat`'s text.
fn machine_ticks(stat: &str) -> Option<(u64, u64, u32)> {
    let mut lines = stat.lines();
    let first = lines.next()?.strip_prefix("cpu ")?;
    let t: Vec<u64> = first
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    // user nice system idle iowait irq softirq steal (guest time is inside user already).
    let field = |i: usize| t.get(i).copied().unwrap_or(0);
    let idle = field(3) + field(4);
    let busy = field(0) + field(1) + field(2) + field(5) + field(6) + field(7);
    let cores = lines
        .filter(|l| {
            l.strip_prefix("cpu")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count() as u32;
    (t.len() >= 4 && cores > 0).then_some((busy, busy + idle, cores))
}

/// Ticks of `root` and of every live descendant, each with its reaped children's (fields 14
/// to 17), from the `stat` lines of the machine's processes; `None` if `root` is not among them.
fn tree_ticks(root: u32, stats: &[(u32, String)]) -> Option<u64> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut ticks: HashMap<u32, u64> = HashMap::new();
    for (pid, stat) in stats {
        let t: u64 = (14..=17).filter_map(|n| stat_field::<u64>(stat, n)).sum();
        ticks.insert(*pid, t);
        if let Some(parent) = stat_field::<u32>(stat, 4) {
            children.entry(parent).or_default().push(*pid);
        }
    }
    let mut sum = *ticks.get(&root)?;
    let mut stack = children.get(&root).cloned().unwrap_or_default();
    while let Some(pid) = stack.pop() {
        sum += ticks.get(&pid).copied().unwrap_or(0);
        stack.extend(children.get(&pid).into_iter().flatten());
    }
    Some(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(pid: u32, parent: u32, ticks: [u64; 4]) -> (u32, String) {
        let [u, s, cu, cs] = ticks;
        (
            pid,
            format!("{pid} (a (b) c) S {parent} 1 1 0 -1 0 0 0 0 0 {u} {s} {cu} {cs} 20 0 1 0 5"),
        )
    }

    #[test]
    fn fields_are_counted_past_a_command_with_parentheses() {
        let (_, line) = stat(4242, 1, [5, 1, 0, 0]);
        assert_eq!(stat_field::<u32>(&line, 4), Some(1));
        assert_eq!(stat_field::<u64>(&line, 14), Some(5));
        assert_eq!(stat_field::<i32>(&line, 19), Some(0));
        assert_eq!(stat_field::<i32>("garbage", 19), None);
        assert_eq!(stat_field::<i32>(&line, 2), None);
    }

    #[test]
    fn the_machine_counts_its_cores_and_its_busy_ticks() {
        let text = "cpu  100 5 20 1000 10 1 2 3 0 0\ncpu0 50 0 10 500 5 0 1 1 0 0\n\
                    cpu1 50 5 10 500 5 1 1 2 0 0\nintr 1 2 3\nctxt 9\n";
        assert_eq!(machine_ticks(text), Some((131, 1141, 2)));
        assert_eq!(machine_ticks("intr 1 2\n"), None);
        assert_eq!(machine_ticks("cpu  1 x 3 4\ncpu0 1 2 3 4\n"), None);
        assert_eq!(machine_ticks("cpu  1 2 3 4\n"), None, "no core line");
    }

    #[test]
    fn a_tree_is_its_root_and_every_descendant_not_its_siblings() {
        let stats = vec![
            stat(10, 1, [5, 1, 2, 0]),   // the root, 2 ticks of reaped children
            stat(11, 10, [30, 3, 0, 0]), // an engine
            stat(12, 11, [7, 0, 0, 0]),  // a grandchild
            stat(13, 1, [900, 0, 0, 0]), // another process
            stat(14, 13, [50, 0, 0, 0]), // ... and its child
        ];
        assert_eq!(tree_ticks(10, &stats), Some(8 + 33 + 7));
        assert_eq!(tree_ticks(13, &stats), Some(950));
        assert_eq!(tree_ticks(99, &stats), None);
    }

    #[test]
    fn others_are_the_busy_ticks_the_tree_did_not_use() {
        let at = |busy, total, own| CpuMark {
            busy,
            total,
            own,
            cores: 2,
        };
        // 200 ticks of two cores pass: 150 busy, 50 of them the tree's: one core of others.
        assert_eq!(at(0, 0, 0).others_since(&at(150, 200, 50)), Some(1.0));
        assert_eq!(at(0, 0, 0).others_since(&at(100, 400, 50)), Some(0.25));
        // Accounting skew never gives a negative load; no time passed gives none.
        assert_eq!(at(0, 0, 0).others_since(&at(40, 200, 50)), Some(0.0));
        assert_eq!(at(5, 100, 0).others_since(&at(5, 100, 0)), None);
    }

    #[test]
    fn the_line_gives_the_mean_the_most_and_the_games_above_a_quarter_core() {
        assert_eq!(others_line(&[]), None);
        let line = others_line(&[0.0, 0.1, 0.5, 0.2]).unwrap();
        assert!(
            line.contains("used 0.20 cores on average (the most in one game 0.50); 1 of 4 games"),
            "{line}"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_machine_can_be_read() {
        let a = CpuMark::now().expect("/proc is there");
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let b = CpuMark::now().unwrap();
        assert!(b.own >= a.own && b.total >= a.total && b.cores >= 1);
        if let Some(others) = a.others_since(&b) {
            assert!(others >= 0.0 && others <= f64::from(b.cores), "{others}");
        }
    }
}
