//! Mixing grammar inputs into `#[derive(Arbitrary)]` structs: a calc
//! program plus a plain option, via `GrammarInput` and `grammar_source!`.
#![no_main]

use grammar_min::fuzz_input::GrammarInput;

grammar_min::grammar_source!(Calc = include_str!("../../grammars/calc.json"));

#[derive(arbitrary::Arbitrary, Debug)]
struct Case {
    twice: bool,
    program: GrammarInput<Calc>,
}

libfuzzer_sys::fuzz_target!(|case: Case| {
    let program = case.program.as_str().expect("calc.json is ASCII");
    grammar_min_fuzz::calc(program);
    if case.twice {
        grammar_min_fuzz::calc(program);
    }
});
