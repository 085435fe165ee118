//! Generates the attack tables: leaper attacks, rays, squares between, and
//! magic-bitboard tables for sliders. Magic numbers are found by a search with a
//! fixed seed, so every build writes the same tables.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

fn step(sq: i32, df: i32, dr: i32) -> Option<i32> {
    let (f, r) = (sq % 8 + df, sq / 8 + dr);
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some(r * 8 + f)
}

fn leaper(sq: i32, deltas: &[(i32, i32)]) -> u64 {
    deltas.iter().filter_map(|&(df, dr)| step(sq, df, dr)).fold(0, |bb, s| bb | 1 << s)
}

fn slider(sq: i32, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let mut s = sq;
        while let Some(next) = step(s, df, dr) {
            attacks |= 1 << next;
            if occupied & (1 << next) != 0 {
                break;
            }
            s = next;
        }
    }
    attacks
}

/// The relevant occupancy: the slider's rays without their last square.
fn mask(sq: i32, dirs: &[(i32, i32)]) -> u64 {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let mut s = sq;
        while let Some(next) = step(s, df, dr) {
            if step(next, df, dr).is_none() {
                break;
            }
            bb |= 1 << next;
            s = next;
        }
    }
    bb
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32)], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = mask(sq, dirs);
        let bits = mask.count_ones();
        // every subset of the mask (carry-rippler), with its attack set
        let mut subsets = Vec::with_capacity(1 << bits);
        let mut sub = 0u64;
        loop {
            subsets.push((sub, slider(sq, sub, dirs)));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut slots = vec![0u64; 1 << bits];
        let mut used = vec![0u32; 1 << bits];
        let mut attempt = 0u32;
        let magic = loop {
            attempt += 1;
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            let ok = subsets.iter().all(|&(occ, att)| {
                let index = (occ.wrapping_mul(magic) >> shift) as usize;
                if used[index] != attempt {
                    used[index] = attempt;
                    slots[index] = att;
                    true
                } else {
                    slots[index] == att
                }
            });
            if ok {
                break magic;
            }
        };
        let offset = table.len();
        table.extend_from_slice(&slots);
        magics.push(Magic { mask, magic, shift, offset });
    }
    magics
}

fn write_array(out: &mut String, name: &str, ty: &str, values: impl Iterator<Item = u64>) {
    let values: Vec<u64> = values.collect();
    writeln!(out, "pub(crate) static {name}: [{ty}; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut out = String::new();
    let mut table = Vec::new();
    let mut rng = Rng(0x5a4f_e3b1_9d2c_0718);
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);
    for (name, magics) in [("ROOK_MAGICS", &rook), ("BISHOP_MAGICS", &bishop)] {
        writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
        for m in magics.iter() {
            writeln!(
                out,
                "    Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
                m.mask, m.magic, m.shift, m.offset
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    write_array(&mut out, "SLIDER_ATTACKS", "u64", table.into_iter());
    write_array(&mut out, "KNIGHT_ATTACKS", "u64", (0..64).map(|sq| leaper(sq, &KNIGHT)));
    write_array(&mut out, "KING_ATTACKS", "u64", (0..64).map(|sq| leaper(sq, &KING)));
    write_array(&mut out, "WHITE_PAWN_ATTACKS", "u64", (0..64).map(|sq| leaper(sq, &[(-1, 1), (1, 1)])));
    write_array(&mut out, "BLACK_PAWN_ATTACKS", "u64", (0..64).map(|sq| leaper(sq, &[(-1, -1), (1, -1)])));
    // RAYS[a * 64 + b]: the whole line through a and b (both included), empty if not aligned.
    // BETWEEN[a * 64 + b]: the squares strictly between a and b on such a line.
    let mut rays = Vec::with_capacity(4096);
    let mut between = Vec::with_capacity(4096);
    for a in 0..64 {
        for b in 0..64 {
            let mut ray = 0;
            let mut btw = 0;
            if a != b {
                for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                    let from_a = slider(a, 0, dirs);
                    if from_a & (1 << b) != 0 {
                        ray = (from_a & slider(b, 0, dirs)) | (1 << a) | (1 << b);
                        // keep only the one line: squares aligned with both a and b
                        ray = (0..64).filter(|&s| ray & (1 << s) != 0 && aligned(a, b, s)).fold(0, |bb, s| bb | 1 << s);
                        btw = slider(a, 1 << b, dirs) & slider(b, 1 << a, dirs) & ray & !(1 << a) & !(1 << b);
                    }
                }
            }
            rays.push(ray);
            between.push(btw);
        }
    }
    write_array(&mut out, "RAYS", "u64", rays.into_iter());
    write_array(&mut out, "BETWEEN", "u64", between.into_iter());
    let path = Path::new(&env::var("OUT_DIR").unwrap()).join("attack_tables.rs");
    fs::write(path, out).unwrap();
}

/// Whether s lies on the line through a and b (a != b).
fn aligned(a: i32, b: i32, s: i32) -> bool {
    let (af, ar, bf, br, sf, sr) = (a % 8, a / 8, b % 8, b / 8, s % 8, s / 8);
    (bf - af) * (sr - ar) == (br - ar) * (sf - af)
}
