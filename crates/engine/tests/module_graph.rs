//! No import circle in the engine, the arena (issue 29) or the lab: the files of `src/` that take
//! items from each other must form a graph without a cycle, so that each vocabulary has one
//! home and every file can be read (and changed) after the files it depends on.
//!
//! The graph: one node per source file of the library (`src/main.rs` is the binary, another
//! crate, and is left out). An edge A → B for every path in A, in a `use` declaration or in
//! code (types, calls, macros), that names an item of B: paths from `crate::`, `$crate::`,
//! `super::` or `self::`, and paths through a name that A imported from one of those (`use
//! crate::eval;` then `eval::tapered::PawnCache`). A path that reaches an item through a
//! re-export (`pub use team::SearchTeam` in `search/mod.rs`) is followed to the file that
//! defines it, so a face module neither hides a cycle nor creates one. Test modules count
//! like any other code: a test that takes from a file is a dependency on it.
//!
//! Left out, on purpose: a module's references to its own submodules by their bare name
//! (`mod tapered;`, `tapered::evaluate_white(..)`, `pub use trace::Trace`). That is the module
//! tree itself (a parent owns its children), and a child's use of its parent's shared
//! vocabulary through `super::` is the usual Rust face pattern, counted like any other edge.
//! (The evaluation's modules follow that pattern: `eval/mod.rs` calls `classic` and `classic`
//! takes `attacks_by` from `super`.)
//!
//! Not seen, since they name no path: method calls. The files that extend `Searcher` with
//! `impl` blocks (negamax, qsearch, probcut::cuts, deepening) call each other's methods, the
//! search's own recursion (`self.negamax(..)` in the cuts, `self.probcut(..)` in negamax); each
//! of them takes `Searcher` from thread.rs, and that edge is counted.
//!
//! The checker reads source text: comments, strings and character literals are skipped, and
//! `mod name { .. }` blocks are tracked so that `super::` inside them resolves correctly.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

/// A token of Rust source as far as paths are concerned.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// An identifier or keyword (`$crate` included); numbers come out as identifiers too.
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
}

/// Tokens with their line numbers; comments, strings and character literals dropped.
fn tokenize(text: &str) -> Vec<(Tok, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
            }
        } else if c == '"' || ((c == 'b' || c == 'r') && matches!(at(i + 1), '"' | '#' | 'r')) {
            // A string: plain, byte (`b"`), raw (`r"`, `r#"`, `br#"`).
            let start = i;
            if c == 'b' {
                i += 1;
            }
            let raw = at(i) == 'r';
            if raw {
                i += 1;
            }
            let mut hashes = 0;
            while at(i) == '#' {
                hashes += 1;
                i += 1;
            }
            if at(i) != '"' {
                // `r#ident` or an identifier starting with b/r: not a string after all.
                i = start;
                let (word, next) = ident_at(&chars, i);
                out.push((Tok::Ident(word), line));
                i = next;
                continue;
            }
            i += 1;
            loop {
                let ch = at(i);
                if i >= chars.len() {
                    break;
                }
                if ch == '\n' {
                    line += 1;
                }
                if !raw && ch == '\\' {
                    line += usize::from(at(i + 1) == '\n');
                    i += 2;
                    continue;
                }
                if ch == '"' && (0..hashes).all(|k| at(i + 1 + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
        } else if c == '\'' {
            // A character literal ('a', '\n', '\'') or a lifetime/label ('a, 'static).
            if at(i + 1) == '\\' {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push((Tok::Sep, line));
            i += 2;
        } else if c == '$' && at(i + 1).is_alphanumeric() {
            let (word, next) = ident_at(&chars, i + 1);
            out.push((Tok::Ident(format!("${word}")), line));
            i = next;
        } else if c.is_alphanumeric() || c == '_' {
            let (word, next) = ident_at(&chars, i);
            out.push((Tok::Ident(word), line));
            i = next;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

fn ident_at(chars: &[char], mut i: usize) -> (String, usize) {
    let start = i;
    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
        i += 1;
    }
    (chars[start..i].iter().collect(), i)
}

/// One leaf of a `use` tree: the path as written, and the name it binds (`None` for a glob).
#[derive(Debug)]
struct UseLeaf {
    path: Vec<String>,
    name: Option<String>,
}

/// Parses the use tree starting at `toks[i]` (after the `use` keyword) up to its `;`; returns
/// the leaves and the index after the `;`.
fn parse_use(toks: &[(Tok, usize)], i: usize) -> (Vec<UseLeaf>, usize) {
    fn tree(
        toks: &[(Tok, usize)],
        mut i: usize,
        prefix: &[String],
        out: &mut Vec<UseLeaf>,
    ) -> usize {
        let mut path = prefix.to_vec();
        if toks.get(i).map(|t| &t.0) == Some(&Tok::Sep) {
            i += 1; // `use ::std::..`
        }
        loop {
            match toks.get(i).map(|t| &t.0) {
                Some(Tok::Ident(w)) => {
                    path.push(w.clone());
                    i += 1;
                }
                Some(Tok::Punct('{')) => {
                    i += 1;
                    while toks.get(i).map(|t| &t.0) != Some(&Tok::Punct('}')) && i < toks.len() {
                        i = tree(toks, i, &path, out);
                        if toks.get(i).map(|t| &t.0) == Some(&Tok::Punct(',')) {
                            i += 1;
                        }
                    }
                    return i + 1;
                }
                Some(Tok::Punct('*')) => {
                    out.push(UseLeaf { path, name: None });
                    return i + 1;
                }
                _ => break,
            }
            if toks.get(i).map(|t| &t.0) == Some(&Tok::Sep) {
                i += 1;
            } else {
                break;
            }
        }
        // `a::b as c`
        let mut name = path.last().cloned();
        if toks.get(i).map(|t| &t.0) == Some(&Tok::Ident("as".into())) {
            if let Some((Tok::Ident(alias), _)) = toks.get(i + 1) {
                name = Some(alias.clone());
            }
            i += 2;
        }
        if path.last().map(String::as_str) == Some("self") {
            path.pop();
            if name.as_deref() == Some("self") {
                name = path.last().cloned();
            }
        }
        out.push(UseLeaf { path, name });
        i
    }
    let mut leaves = Vec::new();
    let mut j = tree(toks, i, &[], &mut leaves);
    while j < toks.len() && toks[j].0 != Tok::Punct(';') {
        j += 1;
    }
    (leaves, j + 1)
}

/// A path found in a file: the module it was written in, the path, and its line.
struct Reference {
    module: Vec<String>,
    path: Vec<String>,
    line: usize,
    /// The path as written (before an imported name is substituted).
    written: String,
    /// Inside an item under `#[cfg(test)]`.
    test: bool,
}

struct SourceFile {
    /// Relative to `src/`, for messages.
    name: String,
    module: Vec<String>,
    /// Every `crate`/`super`/`self` path and every path through a name imported from one.
    refs: Vec<Reference>,
    /// The file's top-level `use` declarations, by the name they bind: what a path through
    /// this module may be re-exported from.
    imports: BTreeMap<String, (Vec<String>, Vec<String>)>,
}

/// The module path of a file below `src/`: `search/mod.rs` → `search`, `search/tt.rs` →
/// `search::tt`, `lib.rs` → the crate root.
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

struct Graph {
    files: Vec<SourceFile>,
    by_module: BTreeMap<Vec<String>, usize>,
}

/// An edge with the first reference that makes it: (line, path as written).
type Edges = BTreeMap<(usize, usize), (usize, String)>;

impl Graph {
    /// The graph of `sources`: (path relative to `src/`, text); `tests`: with the code under
    /// `#[cfg(test)]`.
    fn new(sources: &[(String, String)], tests: bool) -> Graph {
        let mut files: Vec<SourceFile> = sources
            .iter()
            .map(|(name, text)| scan(name, text))
            .collect();
        if !tests {
            for f in &mut files {
                f.refs.retain(|r| !r.test);
            }
        }
        let by_module = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.module.clone(), i))
            .collect();
        Graph { files, by_module }
    }

    /// `path` written in `module` as an absolute module path (`crate` first), or `None` when it
    /// starts elsewhere (an external crate, a local name).
    fn absolute(&self, module: &[String], path: &[String]) -> Option<Vec<String>> {
        let first = path.first()?;
        let mut base: Vec<String>;
        let mut rest = path;
        match first.as_str() {
            "crate" | "$crate" => {
                base = Vec::new();
                rest = &path[1..];
            }
            "self" => {
                base = module.to_vec();
                rest = &path[1..];
            }
            "super" => {
                base = module.to_vec();
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            _ => return None,
        }
        base.extend(rest.iter().cloned());
        let mut out = vec!["crate".to_string()];
        out.extend(base);
        Some(out)
    }

    /// The file whose item an absolute path names, following re-exports; `None` for an item
    /// outside the engine.
    fn resolve(&self, path: &[String], hops: usize) -> Option<usize> {
        let mut module: Vec<String> = Vec::new();
        let mut file = *self.by_module.get(&module)?;
        for (i, seg) in path.iter().enumerate().skip(1) {
            module.push(seg.clone());
            if let Some(&child) = self.by_module.get(&module) {
                file = child;
                continue;
            }
            module.pop();
            // An item of `file`, unless the file imports the name from elsewhere.
            if hops < 16 {
                if let Some((from, target)) = self.files[file].imports.get(seg) {
                    let mut next = match self.absolute(from, target) {
                        Some(p) => p,
                        // `pub(crate) use name;`: a macro of this file made a path item.
                        None if target.len() == 1 => return Some(file),
                        None => {
                            // `pub use child::Item` (a child module by its bare name), or an
                            // external crate's item.
                            let mut child = from.clone();
                            child.push(target[0].clone());
                            if !self.by_module.contains_key(&child) {
                                return None;
                            }
                            let mut p = vec!["crate".to_string()];
                            p.extend(child);
                            p.extend(target[1..].iter().cloned());
                            p
                        }
                    };
                    next.extend(path[i + 1..].iter().cloned());
                    return self.resolve(&next, hops + 1);
                }
            }
            return Some(file);
        }
        Some(file)
    }

    fn edges(&self) -> Edges {
        let mut edges = Edges::new();
        for (a, f) in self.files.iter().enumerate() {
            for r in &f.refs {
                let Some(abs) = self.absolute(&r.module, &r.path) else {
                    continue;
                };
                if let Some(b) = self.resolve(&abs, 0) {
                    if a != b {
                        edges
                            .entry((a, b))
                            .or_insert_with(|| (r.line, r.written.clone()));
                    }
                }
            }
        }
        edges
    }

    /// The strongly connected components with more than one file (Tarjan), each with one
    /// cycle through it written out edge by edge.
    fn circles(&self) -> Vec<String> {
        let edges = self.edges();
        let n = self.files.len();
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b) in edges.keys() {
            next[a].push(b);
        }
        let sccs = tarjan(&next);
        let mut out = Vec::new();
        for scc in sccs.into_iter().filter(|s| s.len() > 1) {
            let members: BTreeSet<usize> = scc.iter().copied().collect();
            let names: Vec<&str> = members
                .iter()
                .map(|&i| self.files[i].name.as_str())
                .collect();
            let cycle = shortest_cycle(&next, &members);
            let mut text = format!(
                "{} files in a circle: {}\n  for one:",
                names.len(),
                names.join(", ")
            );
            for w in cycle.windows(2) {
                let (line, path) = &edges[&(w[0], w[1])];
                text.push_str(&format!(
                    "\n    {}:{line} uses {path} ({})",
                    self.files[w[0]].name, self.files[w[1]].name
                ));
            }
            out.push(text);
        }
        out
    }
}

/// Reads one file: its module, its `use` declarations and the paths of its code.
fn scan(name: &str, text: &str) -> SourceFile {
    let module = module_of(name);
    let toks = tokenize(text);
    let mut refs = Vec::new();
    let mut imports = BTreeMap::new();
    // Names bound by a `use` of a crate/super/self path, anywhere in the file: a code path
    // through one of them is a path into the engine.
    let mut aliases: BTreeMap<String, (Vec<String>, Vec<String>)> = BTreeMap::new();
    // Inline `mod name {` blocks open at this brace depth.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let here = |inline: &[(String, usize)]| {
        let mut m = module.clone();
        m.extend(inline.iter().map(|(n, _)| n.clone()));
        m
    };
    let mut i = 0;
    // `#[cfg(test)]` seen and its item not yet opened; the depth of the item's braces.
    let mut pending_test = false;
    let mut test_depth: Option<usize> = None;
    const CFG_TEST: [&str; 7] = ["#", "[", "cfg", "(", "test", ")", "]"];
    while i < toks.len() {
        let cfg_test = CFG_TEST
            .iter()
            .enumerate()
            .all(|(k, want)| match toks.get(i + k) {
                Some((Tok::Ident(w), _)) => w == want,
                Some((Tok::Punct(c), _)) => want.len() == 1 && want.starts_with(*c),
                _ => false,
            });
        if cfg_test {
            pending_test |= test_depth.is_none();
            i += CFG_TEST.len();
            continue;
        }
        match &toks[i].0 {
            Tok::Punct('{') => {
                depth += 1;
                if pending_test {
                    pending_test = false;
                    test_depth = Some(depth);
                }
                i += 1;
            }
            Tok::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                if test_depth == Some(depth) {
                    test_depth = None;
                }
                depth -= 1;
                i += 1;
            }
            Tok::Punct(';') if pending_test => {
                pending_test = false;
                i += 1;
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some((Tok::Ident(m), _)), Some((Tok::Punct('{'), _))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((m.clone(), depth + 1));
                }
                i += 1;
            }
            Tok::Ident(w) if w == "use" => {
                let line = toks[i].1;
                let (leaves, after) = parse_use(&toks, i + 1);
                let m = here(&inline);
                for leaf in leaves {
                    let start = leaf.path.first().map(String::as_str);
                    let engine = matches!(start, Some("crate" | "$crate" | "super" | "self"));
                    if engine {
                        refs.push(Reference {
                            module: m.clone(),
                            path: leaf.path.clone(),
                            line,
                            written: leaf.path.join("::"),
                            test: test_depth.is_some() || pending_test,
                        });
                    }
                    if let Some(name) = leaf.name {
                        if engine {
                            aliases.insert(name.clone(), (m.clone(), leaf.path.clone()));
                        }
                        if inline.is_empty() {
                            imports.insert(name, (m.clone(), leaf.path));
                        }
                    }
                }
                i = after;
                pending_test = false;
            }
            Tok::Ident(w) => {
                let starts_path = i == 0 || !matches!(toks[i - 1].0, Tok::Sep | Tok::Punct('.'));
                if starts_path && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Sep) {
                    let mut path = vec![w.clone()];
                    let mut j = i + 1;
                    while toks.get(j).map(|t| &t.0) == Some(&Tok::Sep) {
                        match toks.get(j + 1) {
                            Some((Tok::Ident(s), _)) => path.push(s.clone()),
                            _ => break,
                        }
                        j += 2;
                    }
                    refs.push(Reference {
                        module: here(&inline),
                        written: path.join("::"),
                        path,
                        line: toks[i].1,
                        test: test_depth.is_some() || pending_test,
                    });
                    i = j;
                } else {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    // Code paths through an imported name: substitute the import.
    for r in &mut refs {
        let first = r.path[0].as_str();
        if matches!(first, "crate" | "$crate" | "super" | "self") {
            continue;
        }
        if let Some((m, target)) = aliases.get(first) {
            let mut p = target.clone();
            p.extend(r.path[1..].iter().cloned());
            r.module = m.clone();
            r.path = p;
        }
    }
    refs.retain(|r| matches!(r.path[0].as_str(), "crate" | "$crate" | "super" | "self"));
    SourceFile {
        name: name.to_string(),
        module,
        refs,
        imports,
    }
}

/// Tarjan's strongly connected components.
fn tarjan(next: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        next: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.counter);
        s.low[v] = s.counter;
        s.counter += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for k in 0..s.next[v].len() {
            let w = s.next[v][k];
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut scc = Vec::new();
            loop {
                let w = s.stack.pop().expect("v is on the stack");
                s.on_stack[w] = false;
                scc.push(w);
                if w == v {
                    break;
                }
            }
            s.out.push(scc);
        }
    }
    let n = next.len();
    let mut s = State {
        next,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        counter: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The shortest cycle through the smallest member of `members`, staying inside them (a
/// breadth-first search back to the start).
fn shortest_cycle(next: &[Vec<usize>], members: &BTreeSet<usize>) -> Vec<usize> {
    let start = *members.iter().next().expect("a component has members");
    let mut parent: BTreeMap<usize, usize> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in &next[v] {
            if !members.contains(&w) {
                continue;
            }
            if w == start {
                let mut path = vec![start, v];
                let mut u = v;
                while u != start {
                    u = parent[&u];
                    path.push(u);
                }
                path.reverse();
                return path;
            }
            if let std::collections::btree_map::Entry::Vacant(e) = parent.entry(w) {
                e.insert(v);
                queue.push_back(w);
            }
        }
    }
    vec![start]
}

/// A library's sources below `root` (`src/` of a crate): (path relative to `src/`, text),
/// `main.rs` and the binaries of `bin/` left out.
fn library_sources(root: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("read src/")
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(root)
                    .expect("below src/")
                    .to_string_lossy()
                    .replace('\\', "/");
                if rel != "main.rs" && !rel.starts_with("bin/") {
                    let text = std::fs::read_to_string(&path).expect("a source file");
                    out.push((rel, text));
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

fn engine_sources() -> Vec<(String, String)> {
    library_sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// `sources` (a crate's library) alone and with its tests has no circle; `min_files` and
/// `min_edges` make sure the sources and their imports were found at all.
fn assert_no_circle(krate: &str, sources: &[(String, String)], min_files: usize, min_edges: usize) {
    assert!(
        sources.len() > min_files,
        "the {krate}'s sources were found"
    );
    let mut report = String::new();
    for (tests, what) in [(false, "the library's code"), (true, "with its tests")] {
        let graph = Graph::new(sources, tests);
        assert!(
            graph.edges().len() > min_edges,
            "the graph has the {krate}'s imports"
        );
        let circles = graph.circles();
        if !circles.is_empty() {
            report.push_str(&format!("{what}:\n{}\n", circles.join("\n")));
        }
    }
    assert!(report.is_empty(), "import circles in the {krate}, {report}");
}

/// The match runner's library (`crates/arena`), read from the engine's tests because it is
/// the workspace's other library whose vocabulary must have one home (issue 29: its `elo` and
/// `sprt` used each other's counts).
#[test]
fn the_arena_has_no_import_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../arena/src");
    assert_no_circle("arena", &library_sources(&root), 15, 20);
}

/// The laboratory's library (`crates/lab`): its data formats, experiments and trainer keep one
/// home per vocabulary too (the record format once had a second name under `datagen`, and the
/// PGN reader and the tuner's samples took from each other).
#[test]
fn the_lab_has_no_import_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lab/src");
    assert_no_circle("lab", &library_sources(&root), 60, 150);
}

/// The library's code alone, and with its tests: neither has a circle.
#[test]
fn the_engine_has_no_import_circle() {
    assert_no_circle("engine", &engine_sources(), 30, 80);
}

/// The checker itself: a planted circle (through a re-export, and a code path through an
/// imported module) is found and named; the same files with the circle broken are not
/// reported. Comments, strings and a test module's `super::` do not make edges.
#[test]
fn the_checker_finds_a_planted_circle() {
    let source = |name: &str, text: &str| (name.to_string(), text.to_string());
    let files = |c_text: &str| {
        vec![
            source("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
            source(
                "a/mod.rs",
                "mod inner;\npub use inner::Thing;\n// crate::b::Item in a comment\nconst S: &str = \"crate::b::Item\";\n",
            ),
            source(
                "a/inner.rs",
                "pub struct Thing;\n#[cfg(test)]\nmod tests {\n    use super::Thing;\n}\n",
            ),
            source("b.rs", "use crate::a;\npub struct Item(a::Thing);\n"),
            source("c.rs", c_text),
        ]
    };
    let planted = Graph::new(
        &files("pub struct Other;\nfn f(_: &crate::b::Item) {}\n"),
        true,
    );
    let index = |n: &str| planted.files.iter().position(|f| f.name == n).unwrap();
    let edges = planted.edges();
    // `a::Thing` through the import of `a` and the re-export reaches the defining file.
    assert!(edges.contains_key(&(index("b.rs"), index("a/inner.rs"))));
    assert!(planted.circles().is_empty(), "{:?}", planted.circles());
    assert!(!edges.contains_key(&(index("a/mod.rs"), index("b.rs"))));
    assert!(!edges.contains_key(&(index("a/inner.rs"), index("a/mod.rs"))));

    // a/inner.rs → c.rs → b.rs → a/inner.rs
    let mut circled = files("pub struct Other;\nfn f(_: &crate::b::Item) {}\n");
    circled[2]
        .1
        .push_str("fn g() -> super::super::c::Other { todo!() }\n");
    let circles = Graph::new(&circled, true).circles();
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert!(
        circles[0].starts_with("3 files in a circle: a/inner.rs, b.rs, c.rs"),
        "{}",
        circles[0]
    );
    assert!(
        circles[0].contains("b.rs:2 uses a::Thing"),
        "{}",
        circles[0]
    );
}
