//! The stdin line reader: every byte sequence splits into exactly the lines a reader of
//! `\n`-separated text expects, each either its text (without `\r\n`) or the reason it was
//! skipped (not UTF-8, longer than the limit).
#![no_main]

use augur::uci::input::{InputError, Lines};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&limit, rest)) = data.split_first() else {
        return;
    };
    let limit = limit as usize % 64;
    // A small buffer so lines straddle reads.
    let reader = std::io::BufReader::with_capacity(1 + limit % 7, rest);
    let got: Vec<_> = Lines::with_limit(reader, limit).collect();

    let mut segments: Vec<&[u8]> = rest.split(|&b| b == b'\n').collect();
    if rest.ends_with(b"\n") || rest.is_empty() {
        segments.pop();
    }
    assert_eq!(got.len(), segments.len());
    for (i, (item, seg)) in got.iter().zip(&segments).enumerate() {
        let line = i as u64 + 1;
        if seg.len() > limit {
            assert_eq!(item, &Err(InputError::TooLong { line }));
            continue;
        }
        let text = seg.strip_suffix(b"\r").unwrap_or(seg);
        match std::str::from_utf8(text) {
            Ok(t) => assert_eq!(item, &Ok(t.to_string())),
            Err(e) => assert_eq!(
                item,
                &Err(InputError::NotUtf8 {
                    line,
                    at: e.valid_up_to()
                })
            ),
        }
    }
});
