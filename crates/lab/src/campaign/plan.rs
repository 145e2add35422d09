//! The stages a campaign file declares, with what each waits for. The network loop unrolls
//! into named stages per generation; `[[stage]]` entries are taken as they are.
//!
//! Generation g: `genG/datagen` (after the previous generation's datagen, not its gate, so that
//! the data of the next generation grows beside a gate's SPRT), `genG/convert` (the previous
//! gate's games), `genG/train-NAME` (every recipe, on all the campaign's data so far),
//! `genG/choose`, `genG/gate` (after the previous promotion: it plays the best network) and
//! `genG/promote`.

use super::file::CampaignFile;

/// What a stage does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The held-out datagen file, never trained on.
    HeldOut,
    Datagen {
        gen: u32,
    },
    /// The previous generation's gate games as records.
    Convert {
        gen: u32,
    },
    Train {
        gen: u32,
        run: usize,
    },
    /// The lowest held-out loss among the generation's runs (in the runner, no process).
    Choose {
        gen: u32,
    },
    Gate {
        gen: u32,
    },
    /// The gate's verdict: the candidate becomes the best network on H1 (in the runner).
    Promote {
        gen: u32,
    },
    /// A declared `[[stage]]`, by its index.
    Command {
        index: usize,
    },
}

impl Step {
    /// Stages the runner does itself, in a moment, without a process or a core.
    pub fn is_internal(&self) -> bool {
        matches!(self, Step::Choose { .. } | Step::Promote { .. })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// Its name and its folder under the campaign's.
    pub id: String,
    pub step: Step,
    pub after: Vec<String>,
    pub cores: usize,
}

pub fn gen_id(gen: u32, what: &str) -> String {
    format!("gen{gen}/{what}")
}

/// The stages in the order the runner considers them.
pub fn stages(file: &CampaignFile) -> Vec<Stage> {
    let mut out = Vec::new();
    let cap = |n: usize| n.clamp(1, file.cores);
    if let Some(n) = &file.network {
        out.push(Stage {
            id: "held-out".into(),
            step: Step::HeldOut,
            after: vec![],
            cores: cap(n.held_out.threads),
        });
        for gen in 1..=n.generations {
            let previous = |what: &str| (gen > 1).then(|| gen_id(gen - 1, what));
            out.push(Stage {
                id: gen_id(gen, "datagen"),
                step: Step::Datagen { gen },
                after: previous("datagen").into_iter().collect(),
                cores: cap(n.datagen.threads),
            });
            let convert = n.convert_gates && gen > 1;
            if convert {
                out.push(Stage {
                    id: gen_id(gen, "convert"),
                    step: Step::Convert { gen },
                    after: vec![gen_id(gen - 1, "gate")],
                    cores: 1,
                });
            }
            let mut train_after = vec!["held-out".to_string(), gen_id(gen, "datagen")];
            if convert {
                train_after.push(gen_id(gen, "convert"));
            }
            let mut runs = Vec::new();
            for (run, t) in n.train.iter().enumerate() {
                let id = gen_id(gen, &format!("train-{}", t.name));
                runs.push(id.clone());
                out.push(Stage {
                    id,
                    step: Step::Train { gen, run },
                    after: train_after.clone(),
                    cores: cap(t.threads),
                });
            }
            out.push(Stage {
                id: gen_id(gen, "choose"),
                step: Step::Choose { gen },
                after: runs,
                cores: 0,
            });
            let mut gate_after = vec![gen_id(gen, "choose")];
            gate_after.extend(previous("promote"));
            out.push(Stage {
                id: gen_id(gen, "gate"),
                step: Step::Gate { gen },
                after: gate_after,
                cores: cap(n.gate.concurrency),
            });
            out.push(Stage {
                id: gen_id(gen, "promote"),
                step: Step::Promote { gen },
                after: vec![gen_id(gen, "gate")],
                cores: 0,
            });
        }
    }
    for (index, s) in file.stage.iter().enumerate() {
        // A stage that runs only on an SPRT's H1 waits for that SPRT.
        let mut after = s.after.clone();
        if let Some(on) = s.if_h1.as_ref().filter(|on| !after.contains(on)) {
            after.push(on.clone());
        }
        out.push(Stage {
            id: s.id.clone(),
            step: Step::Command { index },
            after,
            cores: cap(s.cores),
        });
    }
    out
}

/// Refuses a plan whose stages wait for a stage that does not exist or for each other.
pub fn check(stages: &[Stage]) -> anyhow::Result<()> {
    use std::collections::HashMap;
    let index: HashMap<&str, usize> = stages
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i))
        .collect();
    for s in stages {
        for a in &s.after {
            if !index.contains_key(a.as_str()) {
                anyhow::bail!("stage '{}' waits for '{a}', which is not a stage", s.id);
            }
        }
    }
    // Depth-first search for a circle (0 unseen, 1 on the path, 2 finished) with a stack of
    // its own: a chain of tens of thousands of stages would overflow the thread's.
    let mut mark = vec![0u8; stages.len()];
    for root in 0..stages.len() {
        if mark[root] != 0 {
            continue;
        }
        mark[root] = 1;
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some((i, next)) = path.last_mut() {
            let Some(a) = stages[*i].after.get(*next) else {
                mark[*i] = 2;
                path.pop();
                continue;
            };
            *next += 1;
            let j = index[a.as_str()];
            match mark[j] {
                1 => anyhow::bail!("stage '{}' waits for itself through others", stages[j].id),
                0 => {
                    mark[j] = 1;
                    path.push((j, 0));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(extra: &str) -> CampaignFile {
        toml::from_str(&format!(
            r#"
name = "t"
cores = 2
[network]
generations = 2
[network.held_out]
seed = 1
positions = 10
[network.datagen]
seed = 10
positions = 10
threads = 4
[[network.train]]
name = "a"
[[network.train]]
name = "b"
[network.gate]
bounds = [0.0, 5.0]
games = 10
{extra}"#
        ))
        .unwrap()
    }

    #[test]
    fn the_network_loop_unrolls_by_generation() {
        let s = stages(&file(""));
        let ids: Vec<_> = s.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "held-out",
                "gen1/datagen",
                "gen1/train-a",
                "gen1/train-b",
                "gen1/choose",
                "gen1/gate",
                "gen1/promote",
                "gen2/datagen",
                "gen2/convert",
                "gen2/train-a",
                "gen2/train-b",
                "gen2/choose",
                "gen2/gate",
                "gen2/promote"
            ]
        );
        let by_id = |id: &str| s.iter().find(|x| x.id == id).unwrap();
        // The next generation's data grows beside the gate; its gate plays the best network.
        assert_eq!(by_id("gen2/datagen").after, ["gen1/datagen"]);
        assert_eq!(by_id("gen2/gate").after, ["gen2/choose", "gen1/promote"]);
        assert_eq!(
            by_id("gen2/train-a").after,
            ["held-out", "gen2/datagen", "gen2/convert"]
        );
        // Threads beyond the campaign's cores are capped.
        assert_eq!(by_id("gen1/datagen").cores, 2);
        check(&s).unwrap();
    }

    #[test]
    fn unknown_and_circular_waits_are_refused() {
        let s = stages(&file(
            "[[stage]]\nid = \"x\"\ncommand = [\"m\"]\nafter = [\"nope\"]\n",
        ));
        assert!(format!("{:#}", check(&s).unwrap_err()).contains("nope"));
        let s = stages(&file(
            "[[stage]]\nid = \"x\"\ncommand = [\"m\"]\nafter = [\"y\"]\n\
             [[stage]]\nid = \"y\"\ncommand = [\"m\"]\nafter = [\"x\"]\n",
        ));
        assert!(format!("{:#}", check(&s).unwrap_err()).contains("itself"));
    }

    /// A chain of 200,000 stages (each waiting for the one before) is checked without
    /// overflowing the stack, and closing the chain into a circle is found.
    #[test]
    fn a_very_long_chain_is_checked() {
        let chain = |circle: bool| -> Vec<Stage> {
            let n = 200_000;
            (0..n)
                .map(|i| Stage {
                    id: format!("s{i}"),
                    step: Step::Command { index: i },
                    after: match i {
                        0 if circle => vec![format!("s{}", n - 1)],
                        0 => vec![],
                        _ => vec![format!("s{}", i - 1)],
                    },
                    cores: 1,
                })
                .collect()
        };
        check(&chain(false)).unwrap();
        assert!(format!("{:#}", check(&chain(true)).unwrap_err()).contains("itself"));
    }
}
