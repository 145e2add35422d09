//! Reading UCI command lines from a byte stream.
//!
//! `BufRead::lines` ends the iteration at the first line that is not UTF-8, and would grow a
//! `String` without bound on a line that never ends. A GUI that sends a Latin-1 file path or a
//! runaway line would then see the engine vanish. This reader yields such lines as errors, so
//! the protocol loop can answer them and go on, and keeps at most `MAX_LINE` bytes of a line.

use std::io::{BufRead, ErrorKind};
use thiserror::Error;

/// The longest line kept. A game of 10,000 moves is about 50 KB of `position` text; anything
/// past this is read and dropped so that memory stays bounded whatever arrives.
pub const MAX_LINE: usize = 16 << 20;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum InputError {
    #[error("input line {line} is not valid UTF-8 (byte {at}); ignored")]
    NotUtf8 { line: u64, at: usize },
    #[error("input line {line} is longer than {} MiB; ignored", MAX_LINE >> 20)]
    TooLong { line: u64 },
}

/// An iterator over the lines of `input`: `Ok(text)` without the line ending, or the reason a
/// line was skipped. It ends at end of input or on a read error (the GUI is gone either way).
pub struct Lines<R> {
    input: R,
    max: usize,
    number: u64,
    buf: Vec<u8>,
    /// The last line ended in CR: a LF right after it is the rest of a CRLF, not a line.
    after_cr: bool,
}

impl<R: BufRead> Lines<R> {
    pub fn new(input: R) -> Self {
        Self::with_limit(input, MAX_LINE)
    }

    /// A reader that keeps at most `max` bytes of a line (tests use a small limit).
    pub fn with_limit(input: R, max: usize) -> Self {
        Lines {
            input,
            max,
            number: 0,
            buf: Vec::new(),
            after_cr: false,
        }
    }

    /// Reads up to and including the next line ending into `buf` (at most `max` bytes of
    /// it); returns whether anything was read and whether the line was cut. LF, CRLF and a
    /// lone CR each end a line, as some terminals and old GUIs send the last.
    fn read_raw(&mut self) -> Option<bool> {
        self.buf.clear();
        let mut read_any = false;
        let mut too_long = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            if chunk.is_empty() {
                break;
            }
            if std::mem::take(&mut self.after_cr) && chunk[0] == b'\n' {
                self.input.consume(1);
                continue;
            }
            read_any = true;
            let (part, done) = match chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    self.after_cr = chunk[i] == b'\r';
                    (&chunk[..i], Some(i + 1))
                }
                None => (chunk, None),
            };
            if self.buf.len() + part.len() > self.max {
                too_long = true;
            } else {
                self.buf.extend_from_slice(part);
            }
            let used = done.unwrap_or(chunk.len());
            self.input.consume(used);
            if done.is_some() {
                break;
            }
        }
        read_any.then_some(too_long)
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<String, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        let too_long = self.read_raw()?;
        self.number += 1;
        let line = self.number;
        if too_long {
            return Some(Err(InputError::TooLong { line }));
        }
        Some(match String::from_utf8(std::mem::take(&mut self.buf)) {
            Ok(s) => Ok(s),
            Err(e) => Err(InputError::NotUtf8 {
                line,
                at: e.utf8_error().valid_up_to(),
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8], max: usize) -> Vec<Result<String, InputError>> {
        // A tiny buffer makes lines span several `fill_buf` chunks.
        let r = std::io::BufReader::with_capacity(3, bytes);
        Lines::with_limit(r, max).collect()
    }

    #[test]
    fn bad_lines_are_reported_and_reading_goes_on() {
        let got = read(
            b"uci\r\nsetoption name X value \xe9t\xe9\nisready\n\nlast",
            100,
        );
        assert_eq!(
            got,
            vec![
                Ok("uci".into()),
                Err(InputError::NotUtf8 { line: 2, at: 23 }),
                Ok("isready".into()),
                Ok("".into()),
                Ok("last".into()),
            ]
        );
    }

    #[test]
    fn long_lines_are_dropped_whole() {
        let mut input = vec![b'x'; 25];
        input.extend_from_slice(b"\nisready\n");
        input.extend(vec![b'y'; 10]);
        assert_eq!(
            read(&input, 10),
            vec![
                Err(InputError::TooLong { line: 1 }),
                Ok("isready".into()),
                Ok("y".repeat(10)),
            ]
        );
        assert!(read(b"", 10).is_empty());
    }

    /// CRLF is one line ending, a lone CR another (also across chunk boundaries), and an
    /// empty CRLF line stays one empty line.
    #[test]
    fn crlf_and_lone_cr_end_lines() {
        assert_eq!(
            read(b"uci\r\nisready\rgo\r\r\nd\n\rquit\r", 100),
            vec![
                Ok("uci".into()),
                Ok("isready".into()),
                Ok("go".into()),
                Ok("".into()),
                Ok("d".into()),
                Ok("".into()),
                Ok("quit".into()),
            ]
        );
    }
}
