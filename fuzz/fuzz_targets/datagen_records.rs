//! The datagen record reader (bullet's 32-byte ChessBoard plus Augur's extra bytes): any
//! bytes give records or errors, never a panic; a record that describes a legal position
//! encodes back to the same 32 bytes.
#![no_main]

use augur_lab::data::records::{Record, RecordReader, RECORD_SIZE};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for (i, record) in RecordReader::new(data).enumerate() {
        let Ok(record) = record else {
            continue;
        };
        let _ = record.to_text();
        let Ok(pos) = record.to_position() else {
            continue;
        };
        let again = Record::from_position(&pos, record.score(), record.result());
        let bytes: &[u8; RECORD_SIZE] = data[i * RECORD_SIZE..(i + 1) * RECORD_SIZE]
            .try_into()
            .unwrap();
        assert_eq!(
            &again.to_bytes(),
            bytes,
            "record {i} ({}) does not encode back",
            record.to_fen()
        );
    }
});
