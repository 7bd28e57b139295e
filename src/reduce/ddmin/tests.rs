//! Tests of ddmin and the sweeps.
use super::*;
use crate::oracle::{FnOracle, Outcome};

/// Interesting iff the candidate holds an `a` and a `z`.
fn a_and_z(c: &[u8]) -> Outcome {
    if c.contains(&b'a') && c.contains(&b'z') {
        Outcome::Interesting
    } else {
        Outcome::NotInteresting
    }
}

#[test]
fn reduces_to_one_minimal() {
    let mut o = FnOracle::new(a_and_z);
    let mut t = Tester::new(&mut o);
    assert_eq!(ddmin_bytes(b"xxaxxxxxxzxx", &mut t), b"az");
    let toks = ddmin_split(b"let a = 1; let z = 2;", tokens, &mut t);
    assert_eq!(toks, b"az");
}

#[test]
fn delete_sweep_is_one_minimal_and_deletes_runs_in_few_runs() {
    // a, then 1000 x, then z: the run goes in O(log 1000) runs, not
    // one sweep per x.
    let mut text = b"qa".to_vec();
    text.extend(std::iter::repeat_n(b'x', 1000));
    text.extend_from_slice(b"zq");
    let mut o = FnOracle::new(a_and_z);
    let mut t = Tester::new(&mut o);
    let r = delete_sweep(text, &mut t, &mut |u: &[u8]| u.to_vec());
    assert_eq!(r, b"az");
    assert!(t.stats().tests < 40, "{} runs", t.stats().tests);
    drop(t);
    // Scattered units, no runs: still 1-minimal.
    let mut t = Tester::new(&mut o);
    let r = delete_sweep(b"xaxbxcxzx".to_vec(), &mut t, &mut |u: &[u8]| u.to_vec());
    assert_eq!(r, b"az");
    // Never empty, even when everything could go.
    let mut always = FnOracle::new(|_: &[u8]| Outcome::Interesting);
    let mut t = Tester::new(&mut always);
    assert_eq!(
        delete_sweep(b"abc".to_vec(), &mut t, &mut |u: &[u8]| u.to_vec()).len(),
        1
    );
}

#[test]
fn a_sweep_does_not_build_the_twin_of_the_unit_it_just_tried() {
    // A nest of 1,000 `(` and 1,000 `)` that no deletion keeps failing:
    // two distinct candidates, built once each (building all 2,000,
    // each a copy of the rest, made the sweep quadratic).
    let mut text = vec![b'('; 1000];
    text.extend(vec![b')'; 1000]);
    let mut o = FnOracle::new(|_: &[u8]| Outcome::NotInteresting);
    let mut t = Tester::new(&mut o);
    let mut built = 0;
    let r = delete_sweep(text.clone(), &mut t, &mut |u: &[u8]| {
        built += 1;
        u.to_vec()
    });
    assert_eq!(r, text);
    assert_eq!((built, t.stats().tests), (2, 2));
    drop(t);
    // The chunk levels likewise: no chunk equal to the one after it,
    // which stayed, is built again (and answered from the cache).
    let units: Vec<&[u8]> = text.chunks(1).collect();
    let mut t = Tester::new(&mut o);
    let r = chunk_sweep_from_end(units, &mut t).concat();
    assert_eq!(r, text);
    assert!(
        t.stats().cache_hits < 40,
        "{} cache hits",
        t.stats().cache_hits
    );
    drop(t);
    // And the adjacent-token deletions.
    let mut t = Tester::new(&mut o);
    assert_eq!(delete_adjacent_tokens(&text, &mut t), text);
    assert!(
        t.stats().cache_hits < 10,
        "{} cache hits",
        t.stats().cache_hits
    );
}

/// From the end, a removable final token is found first: the same
/// 1-minimal result as the forward sweep in about half the runs (the
/// forward sweep passes every other token twice).
#[test]
fn sweep_from_the_end_finds_a_trailing_terminator_first() {
    let needs_call = |c: &[u8]| {
        let t = String::from_utf8_lossy(c);
        let mut it = t.chars();
        if "f(a,b,c,d,e)".chars().all(|x| it.any(|y| y == x)) {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    };
    let text = b"f(a,b,c,d,e);";
    let mut o = FnOracle::new(needs_call);
    let mut t = Tester::new(&mut o);
    let back = delete_sweep_from_end(tokens(text), &mut t).concat();
    let back_runs = t.stats().tests;
    drop(t);
    let mut t = Tester::new(&mut o);
    let fwd = delete_sweep(tokens(text), &mut t, &mut |u: &[&[u8]]| u.concat()).concat();
    let fwd_runs = t.stats().tests;
    assert_eq!(back, b"f(a,b,c,d,e)");
    assert_eq!(back, fwd);
    assert_eq!(
        back_runs,
        1 + 12,
        "one success, then each of 12 tokens once"
    );
    assert_eq!(fwd_runs, 13 + 12);
    // 1-minimal in either direction, on scattered removable units.
    let mut o = FnOracle::new(a_and_z);
    let mut t = Tester::new(&mut o);
    let r = delete_sweep_from_end(tokens(b"x a x b x c x z x"), &mut t).concat();
    assert_eq!(r, b"az");
}

/// One pass tries each unit once: a unit passed over stays even if a
/// later deletion frees it (`x` is needed while `y` is there); the full
/// sweep passes again and takes it.
#[test]
fn a_pass_tries_each_unit_once() {
    let y_needs_x = |c: &[u8]| {
        let ok =
            c.contains(&b'a') && c.contains(&b'z') && (!c.contains(&b'y') || c.contains(&b'x'));
        if ok {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    };
    let mut o = FnOracle::new(y_needs_x);
    let mut t = Tester::new(&mut o);
    let r = delete_pass_from_end(b"ayxz".chunks(1).collect(), &mut t).concat();
    assert_eq!(r, b"axz");
    assert_eq!(t.stats().tests, 4, "z, x, y (goes), a");
    drop(t);
    let mut t = Tester::new(&mut o);
    let r = delete_sweep_from_end(b"ayxz".chunks(1).collect(), &mut t).concat();
    assert_eq!(r, b"az");
}

#[test]
fn byte_polish_keeps_keywords_whole_and_stays_one_minimal() {
    let mut seen = Vec::new();
    // Interesting iff the text keeps "SELECT" and an `x` after it.
    let oracle = |c: &[u8]| {
        seen.push(c.to_vec());
        let s = String::from_utf8_lossy(c);
        match s.find("SELECT") {
            Some(i) if s[i..].contains('x') => Outcome::Interesting,
            _ => Outcome::NotInteresting,
        }
    };
    let kw = vec![b"FROM".to_vec(), b"SELECT".to_vec()];
    {
        let mut o = FnOracle::new(oracle);
        for fine in [false, true] {
            let mut t = Tester::new(&mut o);
            let r = ddmin_bytes_keeping(b"SELECT ax FROM t1", &kw, fine, &mut t);
            assert_eq!(r, b"SELECTx", "fine = {fine}");
        }
    }
    // No candidate cut into a keyword: "SELECT" and "FROM" occur whole
    // or not at all ("ELECT", "FRM", ... never reach the oracle).
    for c in &seen {
        let s = String::from_utf8_lossy(c);
        for part in ["ELECT", "SELEC", "ROM", "FRO"] {
            if s.contains(part) {
                let whole = if part.contains('E') { "SELECT" } else { "FROM" };
                assert!(s.contains(whole), "cut keyword in {s:?}");
            }
        }
    }
    // Without keywords it is plain byte ddmin.
    let mut o = FnOracle::new(a_and_z);
    let mut t = Tester::new(&mut o);
    assert_eq!(
        ddmin_bytes_keeping(b"xxaxxxxxxzxx", &[], true, &mut t),
        b"az"
    );
}

#[test]
fn cache_key_shares_runs_between_equal_images() {
    let mut runs = 0;
    let mut o = FnOracle::new(|c: &[u8]| {
        runs += 1;
        if c.len() > 1 {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    });
    // Image = the candidate without zero bytes.
    let mut t =
        Tester::new(&mut o).with_cache_key(|c| c.iter().copied().filter(|&b| b != 0).collect());
    assert_eq!(t.test(&[1, 2]), Outcome::Interesting);
    assert_eq!(t.test(&[1, 0, 2]), Outcome::Interesting);
    assert_eq!(t.test(&[0, 1, 2, 0]), Outcome::Interesting);
    assert_eq!(t.stats().tests, 1);
    assert_eq!(t.stats().cache_hits, 2);
    drop(t);
    assert_eq!(runs, 1);
}

#[test]
fn fill_variant_replaces_chunks_by_one_default() {
    let mut o = FnOracle::new(|c: &[u8]| {
        if c.first() == Some(&9) && c.last() == Some(&9) && c.len() >= 2 {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting
        }
    });
    let mut t = Tester::new(&mut o);
    let r = ddmin(
        vec![9u8, 1, 2, 3, 4, 5, 9],
        &mut t,
        &mut |u: &[u8]| u.to_vec(),
        Some(0),
    );
    // Chunks of one cannot shrink under the variant, so it stops early;
    // the plain pass finishes the job.
    assert!(r.len() < 7 && r[0] == 9 && r[r.len() - 1] == 9);
    assert_eq!(ddmin(r, &mut t, &mut |u: &[u8]| u.to_vec(), None), [9, 9]);
    assert_eq!(lines(b"a\nb\nc"), [&b"a\n"[..], b"b\n", b"c"]);
}

/// The coarse cut goes on below the largest chunks when every one of
/// them holds a needed unit: `a` in the first half of 64 lines, `z` in
/// the second, and the 62 other lines go in chunks of 16 and 8.
#[test]
fn the_coarse_cut_goes_past_halves_that_each_hold_a_needed_unit() {
    let mut lines: Vec<Vec<u8>> = (0..64).map(|i| format!("x{i}\n").into_bytes()).collect();
    lines[10] = b"a\n".to_vec();
    lines[50] = b"z\n".to_vec();
    let units: Vec<&[u8]> = lines.iter().map(Vec::as_slice).collect();
    let mut o = FnOracle::new(a_and_z);
    let mut t = Tester::new(&mut o);
    let kept = fruitful_chunks_from_end(units, &mut t);
    assert!(kept.len() <= 4, "{} lines kept", kept.len());
    assert!(a_and_z(&kept.concat()) == Outcome::Interesting);
    assert!(t.stats().tests <= 24, "{} runs", t.stats().tests);
}
