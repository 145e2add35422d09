//! `augur bench` from the command line: its last line, and `--eval-file`, which measures a
//! network that is not compiled in.

use std::process::Command;

fn bench(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_augur"))
        .arg("bench")
        .args(args)
        .output()
        .expect("augur runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.success(), text(out.stdout), text(out.stderr))
}

/// The node count of the last line, `<N> nodes <M> nps`.
fn nodes(stdout: &str) -> u64 {
    let last = stdout.lines().last().expect("a last line");
    let (n, rest) = last.split_once(' ').expect("two words");
    assert!(
        rest.starts_with("nodes ") && rest.ends_with(" nps"),
        "{last}"
    );
    n.parse().expect("a count")
}

#[test]
fn eval_file_loads_a_network_and_refuses_a_bad_one() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue");
    let (ok, embedded, _) = bench(&["4", "--eval", "nnue"]);
    assert!(ok);
    // The compiled-in network read from its file searches the same tree.
    let (ok, from_file, _) = bench(&["4", "--eval", "nnue", "--eval-file", net]);
    assert!(ok);
    assert_eq!(nodes(&from_file), nodes(&embedded));
    let (ok, hce, _) = bench(&["4", "--eval", "hce"]);
    assert!(ok);
    assert_ne!(
        nodes(&hce),
        nodes(&embedded),
        "another evaluation, another tree"
    );

    // A truncated network and a missing file: an error naming the file, exit status 2.
    let dir = std::env::temp_dir().join(format!("augur-bench-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("cut.nnue");
    let bytes = std::fs::read(net).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    for bad in [cut.to_str().unwrap(), "/no/such/network.nnue"] {
        let (ok, stdout, stderr) = bench(&["4", "--eval", "nnue", "--eval-file", bad]);
        assert!(!ok && stdout.is_empty(), "{bad}: {stdout}");
        assert!(stderr.contains(bad), "{bad}: {stderr}");
    }
    let (ok, _, stderr) = bench(&["4", "--eval-file"]);
    assert!(!ok && stderr.contains("needs a network file"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
