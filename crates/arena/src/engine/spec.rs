//! How to start a UCI engine: command, arguments, working directory and the
//! `setoption` lines to send. Specs come from the command line
//! (`name=a,cmd=path,option.Hash=16`) or from a TOML file with `[[engine]]` tables.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Deserialize;

/// One engine configuration. Two specs may share a command and differ only in options.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Name used in PGN tags, tables and ratings; unique within a match.
    pub name: String,
    pub cmd: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// UCI options in the order they are sent.
    pub options: Vec<(String, String)>,
    /// This engine's own node limit in a `--tc nodes=N` match (`nodes=M` in the spec), as
    /// fastchess gives each engine its own limit: a match of one engine at N nodes against
    /// itself at N/2 measures what a doubling of the search is worth.
    pub nodes: Option<u64>,
    /// This engine's own depth limit in a `--tc depth=N` match (`depth=M` in the spec): a
    /// reference whose strength is defined by a search depth (Stockfish's `UCI_Elo` picks its
    /// move at depth 1 + level) plays exactly that depth, while an engine with a limit of its
    /// own (Augur's `UCI_Elo` node cap) gets a depth it never reaches.
    pub depth: Option<u32>,
}

impl EngineSpec {
    pub fn new(name: &str, cmd: impl Into<PathBuf>) -> Self {
        EngineSpec {
            name: name.to_string(),
            cmd: cmd.into(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            nodes: None,
            depth: None,
        }
    }

    /// Sets an option, replacing an earlier value for the same name (UCI option
    /// names are case-insensitive).
    pub fn set_option(&mut self, name: &str, value: &str) {
        if let Some(slot) = self
            .options
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            slot.1 = value.to_string();
        } else {
            self.options.push((name.to_string(), value.to_string()));
        }
    }

    /// The value an option is sent with, if the spec sets it (names case-insensitive).
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Parses `name=X,cmd=PATH,arg=A,dir=D,option.NAME=VALUE,...`.
    pub fn parse_cli(text: &str) -> Result<Self> {
        let mut spec = EngineSpec::new("", "");
        let mut have_cmd = false;
        apply_pairs(&mut spec, text, &mut have_cmd)
            .with_context(|| format!("bad --engine '{text}'"))?;
        if !have_cmd {
            bail!("bad --engine '{text}': missing cmd=PATH");
        }
        if spec.name.is_empty() {
            spec.name = spec
                .cmd
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| "engine".to_string());
        }
        Ok(spec)
    }

    /// Applies `--each` settings (same syntax as `--engine`, without `cmd`/`name`).
    pub fn apply_each(&mut self, text: &str) -> Result<()> {
        let mut have_cmd = false;
        let name = self.name.clone();
        apply_pairs(self, text, &mut have_cmd).with_context(|| format!("bad --each '{text}'"))?;
        if self.name != name {
            bail!("bad --each '{text}': name= cannot be shared");
        }
        Ok(())
    }
}

fn apply_pairs(spec: &mut EngineSpec, text: &str, have_cmd: &mut bool) -> Result<()> {
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((key, value)) = part.split_once('=') else {
            bail!("'{part}' is not KEY=VALUE");
        };
        match key.trim() {
            "name" => spec.name = value.to_string(),
            "cmd" => {
                spec.cmd = PathBuf::from(value);
                *have_cmd = true;
            }
            "arg" => spec.args.push(value.to_string()),
            "dir" => spec.dir = Some(PathBuf::from(value)),
            "nodes" => {
                spec.nodes = Some(
                    value
                        .trim()
                        .parse()
                        .ok()
                        .filter(|&n: &u64| n > 0)
                        .with_context(|| format!("nodes={value}: not a positive node count"))?,
                )
            }
            "depth" => {
                spec.depth = Some(
                    value
                        .trim()
                        .parse()
                        .ok()
                        .filter(|&d: &u32| d > 0)
                        .with_context(|| format!("depth={value}: not a positive depth"))?,
                )
            }
            k => match k.strip_prefix("option.") {
                Some(opt) if !opt.is_empty() => spec.set_option(opt, value),
                _ => {
                    bail!("unknown key '{k}' (expected name, cmd, arg, dir, nodes, depth or option.NAME)")
                }
            },
        }
    }
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnginesFile {
    #[serde(default)]
    engine: Vec<EngineTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineTable {
    name: String,
    cmd: PathBuf,
    #[serde(default)]
    args: Vec<String>,
    dir: Option<PathBuf>,
    nodes: Option<u64>,
    depth: Option<u32>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
}

/// Reads `[[engine]]` tables from a TOML file:
///
/// ```toml
/// [[engine]]
/// name = "augur-nmp"
/// cmd = "target/release/augur"
/// options = { Nmp = true, Hash = 16 }
/// ```
///
/// Relative `cmd` paths containing a `/` are taken relative to the file's directory.
pub fn load_engines_file(path: &Path) -> Result<Vec<EngineSpec>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let file: EnginesFile =
        toml::from_str(&text).with_context(|| format!("bad engines file {}", path.display()))?;
    if file.engine.is_empty() {
        bail!("engines file {} has no [[engine]] table", path.display());
    }
    let base = path.parent().unwrap_or(Path::new("."));
    let mut specs = Vec::new();
    for t in file.engine {
        let mut cmd = t.cmd;
        if cmd.is_relative() && cmd.components().count() > 1 {
            cmd = base.join(cmd);
        }
        let mut spec = EngineSpec::new(&t.name, cmd);
        spec.args = t.args;
        spec.dir = t.dir;
        spec.nodes = t.nodes.filter(|&n| n > 0);
        spec.depth = t.depth.filter(|&d| d > 0);
        for (k, v) in t.options {
            let value = match v {
                toml::Value::String(s) => s,
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) => f.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => bail!(
                    "engines file {}: engine '{}' option '{k}' has unsupported value {other}",
                    path.display(),
                    spec.name
                ),
            };
            spec.set_option(&k, &value);
        }
        specs.push(spec);
    }
    Ok(specs)
}

/// The `[[engine]]` file that [`load_engines_file`] reads, for these specs: a run that ends
/// in engines to play (fitted margins, tuned parameters) hands them to `match --engines-file`
/// this way. A relative `cmd` is made absolute here, because the reader takes relative paths
/// from the file's own folder.
pub fn engines_file_text(specs: &[EngineSpec]) -> Result<String> {
    let mut tables = Vec::new();
    for spec in specs {
        let mut t = toml::Table::new();
        t.insert("name".into(), spec.name.clone().into());
        let cmd = if spec.cmd.components().count() > 1 {
            std::path::absolute(&spec.cmd)
                .with_context(|| format!("cannot make {} absolute", spec.cmd.display()))?
        } else {
            spec.cmd.clone()
        };
        t.insert("cmd".into(), cmd.display().to_string().into());
        if !spec.args.is_empty() {
            t.insert("args".into(), spec.args.clone().into());
        }
        if let Some(dir) = &spec.dir {
            t.insert("dir".into(), dir.display().to_string().into());
        }
        if let Some(n) = spec.nodes {
            t.insert("nodes".into(), i64::try_from(n)?.into());
        }
        if let Some(d) = spec.depth {
            t.insert("depth".into(), i64::from(d).into());
        }
        // Integers and switches keep their TOML type (the file is read by people too); any
        // other value goes as the string the engine is sent.
        let mut opts = toml::Table::new();
        for (k, v) in &spec.options {
            let value = match (v.parse::<i64>(), v.as_str()) {
                (Ok(i), _) => toml::Value::Integer(i),
                (_, "true") => toml::Value::Boolean(true),
                (_, "false") => toml::Value::Boolean(false),
                _ => toml::Value::String(v.clone()),
            };
            opts.insert(k.clone(), value);
        }
        t.insert("options".into(), opts.into());
        tables.push(toml::Value::Table(t));
    }
    let mut file = toml::Table::new();
    file.insert("engine".into(), toml::Value::Array(tables));
    Ok(toml::to_string(&file)?)
}

/// Checks that names are unique and non-empty.
pub fn check_names(specs: &[EngineSpec]) -> Result<()> {
    for (i, a) in specs.iter().enumerate() {
        if a.name.trim().is_empty() {
            bail!("engine #{} has an empty name", i + 1);
        }
        if specs[..i].iter().any(|b| b.name == a.name) {
            bail!(
                "engine name '{}' is used twice; give each engine a distinct name=",
                a.name
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_file_round_trips() {
        let mut a = EngineSpec::parse_cli(
            "name=tuned,cmd=/bin/x,arg=--uci,nodes=4000,option.Hash=16,option.Nmp=false,option.Ratio=0.5",
        )
        .unwrap();
        a.dir = Some(PathBuf::from("/tmp"));
        let b = EngineSpec::parse_cli("name=start,cmd=rel/x,option.Threads=1").unwrap();
        let dir = std::env::temp_dir().join(format!("augur-engines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("engines.toml");
        std::fs::write(&path, engines_file_text(&[a.clone(), b.clone()]).unwrap()).unwrap();
        let back = load_engines_file(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(back.len(), 2);
        let mut sorted = a.options.clone();
        sorted.sort();
        assert_eq!(
            (
                back[0].name.as_str(),
                &back[0].cmd,
                &back[0].args,
                &back[0].dir
            ),
            ("tuned", &a.cmd, &a.args, &a.dir)
        );
        assert_eq!((back[0].nodes, &back[0].options), (Some(4000), &sorted));
        // A relative command is written absolute: read from another folder it still names
        // the same file.
        assert_eq!(back[1].cmd, std::path::absolute("rel/x").unwrap());
    }

    #[test]
    fn parses_cli_spec() {
        let s = EngineSpec::parse_cli("name=a,cmd=/bin/x,option.Hash=16,option.Nmp=false").unwrap();
        assert_eq!(s.name, "a");
        assert_eq!(s.cmd, PathBuf::from("/bin/x"));
        assert_eq!(
            s.options,
            vec![
                ("Hash".to_string(), "16".to_string()),
                ("Nmp".to_string(), "false".to_string())
            ]
        );
        assert_eq!(s.nodes, None);
        let half = EngineSpec::parse_cli("name=half,cmd=/bin/x,nodes=5000").unwrap();
        assert_eq!(half.nodes, Some(5000));
        for bad in ["nodes=0", "nodes=-5", "nodes=5k", "nodes="] {
            assert!(
                EngineSpec::parse_cli(&format!("cmd=/bin/x,{bad}")).is_err(),
                "{bad}"
            );
        }
        let deep = EngineSpec::parse_cli("name=sf,cmd=/bin/x,depth=17").unwrap();
        assert_eq!((deep.depth, deep.nodes), (Some(17), None));
        for bad in ["depth=0", "depth=-1", "depth=deep"] {
            assert!(
                EngineSpec::parse_cli(&format!("cmd=/bin/x,{bad}")).is_err(),
                "{bad}"
            );
        }
        assert!(EngineSpec::parse_cli("name=a").is_err());
        assert!(EngineSpec::parse_cli("cmd=/x,bogus=1").is_err());
        assert_eq!(
            EngineSpec::parse_cli("cmd=/usr/games/glaurung")
                .unwrap()
                .name,
            "glaurung"
        );
    }

    #[test]
    fn bad_toml_names_the_file() {
        let dir = std::env::temp_dir().join(format!("augur-lab-spec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("engines.toml");
        std::fs::write(&path, "[[engine]]\nname = \"a\"\ncmd = \n").unwrap();
        let err = format!("{:#}", load_engines_file(&path).unwrap_err());
        assert!(err.contains("engines.toml"), "{err}");
        std::fs::write(
            &path,
            "[[engine]]\nname = \"a\"\ncmd = \"/bin/a\"\noptions = { Hash = 16, Nmp = false }\n",
        )
        .unwrap();
        let specs = load_engines_file(&path).unwrap();
        assert_eq!(specs[0].options.len(), 2);
        std::fs::remove_dir_all(&dir).ok();
    }
}
