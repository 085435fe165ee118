//! Fuzz target `san`: for any bytes, in every language and both modes,
//!
//! - `parse_san` never panics;
//! - what strict mode accepts is written back (`Display`) exactly as given,
//!   and lenient reading of it gives the same single reading with no lint;
//! - every lenient reading's canonical text reads strictly and is its own
//!   canonical text (coordinate moves, which have no SAN without a position,
//!   read back leniently to the same value instead);
//! - spans of lints and errors lie within the input;
//! - what the fast path `parse_canonical` reads, `parse_san` reads the same,
//!   as one reading with no lint.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sanfen::san::{Letters, San, SanOptions, parse_canonical, parse_san};

fuzz_target!(|data: &[u8]| {
    let strict = parse_san(data, SanOptions::STRICT);
    match &strict {
        Ok(parsed) => {
            assert_eq!(parsed.readings.len(), 1);
            assert!(parsed.lints.is_empty());
            let written = parsed.readings[0].to_string();
            assert_eq!(written.as_bytes(), data, "strict SAN written back otherwise");
            let lenient = parse_san(data, SanOptions::LENIENT).expect("strict SAN reads leniently");
            assert_eq!(lenient.readings, parsed.readings);
            assert!(lenient.lints.is_empty());
        }
        Err(err) => {
            assert!(err.span.start <= err.span.end && err.span.end <= data.len(), "{err:?}");
            assert!(!err.expected.is_empty());
        }
    }
    for letters in Letters::ALL {
        if let Some(fast) = parse_canonical(data, letters) {
            let parsed = parse_san(data, SanOptions { strict: false, letters }).expect("the fast path's token reads");
            assert_eq!(parsed.readings.as_slice(), [fast]);
            assert!(parsed.lints.is_empty());
        }
        let Ok(parsed) = parse_san(data, SanOptions { strict: false, letters }) else { continue };
        for index in 0..parsed.readings.len() {
            for lint in parsed.lints_for(index) {
                assert!(lint.span.start < lint.span.end && lint.span.end <= data.len(), "{lint:?}");
            }
        }
        for reading in &parsed.readings {
            let canonical = reading.to_string();
            if let San::Squares { .. } = reading.san {
                let again = parse_san(canonical.as_bytes(), SanOptions::LENIENT)
                    .unwrap_or_else(|err| panic!("{canonical:?} does not read back: {err}"));
                assert_eq!(
                    again.readings.as_slice(),
                    [*reading].map(|mut r| {
                        r.en_passant_mark = false;
                        r
                    })
                );
                continue;
            }
            let again = parse_san(canonical.as_bytes(), SanOptions::STRICT)
                .unwrap_or_else(|err| panic!("canonical {canonical:?} of {reading:?} is not strict SAN: {err}"));
            assert_eq!(again.readings[0].to_string(), canonical);
        }
    }
});
