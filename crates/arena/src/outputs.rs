//! Where a command may write: never over one of its own inputs. A typo such as `--out` naming
//! the data file, or a summary path naming the PGN it summarises, would otherwise replace the
//! input before it is read, and the input may be hours of games or positions.

use std::path::Path;

use anyhow::{bail, Result};

/// Refuses `output` (given as `flag`) when it is the same file as one of `inputs`: the same
/// path after symbolic links, `.` and `..` are resolved. Inputs that do not exist are skipped,
/// and an output that does not exist yet cannot be one of them.
pub fn refuse_inputs(flag: &str, output: &Path, inputs: &[&Path]) -> Result<()> {
    let Ok(out) = output.canonicalize() else {
        return Ok(());
    };
    for input in inputs {
        if input.canonicalize().is_ok_and(|i| i == out) {
            bail!(
                "{flag} {} is one of this command's inputs ({}); name another file",
                output.display(),
                input.display()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_names_an_input_is_refused_by_any_spelling() {
        let dir = std::env::temp_dir().join(format!("augur-outputs-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let data = dir.join("data.bin");
        std::fs::write(&data, b"x").unwrap();
        let other = dir.join("other.bin");
        std::fs::write(&other, b"y").unwrap();
        let spelled = dir.join("sub/../data.bin");
        let err = refuse_inputs("--out", &spelled, &[&other, &data]).unwrap_err();
        assert!(err.to_string().contains("--out"), "{err}");
        assert!(refuse_inputs("--out", &other, &[&data]).is_ok());
        assert!(refuse_inputs("--out", &dir.join("new.bin"), &[&data]).is_ok());
        assert!(refuse_inputs("--out", &data, &[&dir.join("gone.bin")]).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
