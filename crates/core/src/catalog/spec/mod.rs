//! Game specs as typed on the command line: `path:3`, `circular:5,2`, `subtraction:1,3,4`, ...
//!
//! One registry, [`FAMILIES`], names every game; [`parse`] builds any of them as a
//! `Box<dyn AnyGame>` for the commands.

mod faces;
#[cfg(test)]
mod tables;

use super::{AnyGame, HeapSum};
use crate::error::{Error, OptionKey};
use crate::game::board::{self, Chomp};
use crate::game::heap::{GrundysGame, HeapGame, HeapRule, TakeBreak};
use crate::game::hypergraph::{Hypergraph, HypergraphNim};
use crate::game::Stones;
use faces::{
    circular, complex, complex_file, hypergraph, nim, path, projective_plane, shriek, square, star,
    y_graph,
};

/// One family of games as the command line spells it: the registry behind [`parse`], the
/// `grundy games` listing and the help texts. A new family is a builder and one line in
/// [`FAMILIES`].
pub struct Family {
    /// The word before the colon.
    pub name: &'static str,
    /// How it is written, e.g. `circular:N,K`.
    pub form: &'static str,
    /// What the game is.
    pub about: &'static str,
    /// A spec that works as typed.
    pub example: &'static str,
    build: Build,
}

/// How a family builds its game from the text after the colon (`None` when there is none).
enum Build {
    /// Hypergraph nim on the faces the argument describes.
    Faces(fn(Option<&str>) -> Result<Hypergraph, Error>),
    /// Sums of heaps under the rule the spec (whole, then its argument) describes.
    Heap(BuildRule),
    /// Any other game, from the whole spec and its argument.
    Game(BuildGame),
}

/// Builds a game from a whole spec and the text after its colon.
type BuildGame = fn(&str, Option<&str>) -> Result<Box<dyn AnyGame>, Error>;

/// Builds a heap rule from a whole spec and the text after its colon.
type BuildRule = fn(&str, Option<&str>) -> Result<Box<dyn HeapRule>, Error>;

/// The kinds of game, as `grundy games` groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Stones on the vertices of a hypergraph; a move takes from every vertex of one face.
    Hypergraph,
    /// Sums of heaps under one rule.
    Heap,
    /// Played on a board.
    Board,
}

impl Family {
    /// Which kind of game the family builds.
    pub fn kind(&self) -> Kind {
        match self.build {
            Build::Faces(_) => Kind::Hypergraph,
            Build::Heap(_) => Kind::Heap,
            Build::Game(_) => Kind::Board,
        }
    }
}

/// Every game family, in the order `grundy games` lists them.
pub const FAMILIES: &[Family] = &[
    Family { name: "nim", form: "nim:N", about: "plain nim on N heaps (no face joins two heaps)", example: "nim:3", build: Build::Faces(nim) },
    Family { name: "path", form: "path:N", about: "simplicial nim on the path with N vertices", example: "path:3", build: Build::Faces(path) },
    Family { name: "star", form: "star:K", about: "the star with K leaves; vertex 0 is the centre", example: "star:4", build: Build::Faces(star) },
    Family { name: "shriek", form: "shriek", about: "an edge 0-1 and the lone vertex 2", example: "shriek", build: Build::Faces(shriek) },
    Family { name: "circular", form: "circular:N,K", about: "circular nim CN(N,K): take from up to K adjacent heaps of N in a circle", example: "circular:5,2", build: Build::Faces(circular) },
    Family { name: "projective-plane", form: "projective-plane", about: "the thesis's 6-vertex projective plane: triangles 012 013 024 035 045 125 134 145 234 235", example: "projective-plane", build: Build::Faces(projective_plane) },
    Family { name: "y-graph", form: "y-graph", about: "the edges 0-1 1-2 2-3 2-4", example: "y-graph", build: Build::Faces(y_graph) },
    Family { name: "square", form: "square", about: "the 4-cycle 0-1-2-3", example: "square", build: Build::Faces(square) },
    Family { name: "complex", form: "complex:FACES", about: "the simplicial complex the listed faces generate (closed downward); vertices 0..max, a lone vertex as its own face", example: "complex:0-1,1-2,3", build: Build::Faces(complex) },
    Family { name: "hypergraph", form: "hypergraph:FACES", about: "exactly the listed faces, plus every singleton", example: "hypergraph:0-1-2,2-3", build: Build::Faces(hypergraph) },
    Family { name: "complex-file", form: "complex-file:PATH", about: "a complex from JSON {\"vertices\": n, \"faces\": [[0,1],[1,2]]}", example: "complex-file:k.json", build: Build::Faces(complex_file) },
    Family { name: "subtraction", form: "subtraction:SET", about: "take any amount in SET (e.g. 1,3,4) from one heap; subtraction:all-but:SET allows every amount but those", example: "subtraction:1,3,4", build: Build::Heap(subtraction) },
    Family { name: "octal", form: "octal:CODE", about: "the take-and-break game of an octal code (0.77 Kayles, 0.07 Dawson's Kayles, 0.137 Dawson's Chess)", example: "octal:0.77", build: Build::Heap(octal) },
    Family { name: "hex", form: "hex:CODE", about: "a hexadecimal take-and-break code: digit bit 8 lets a move leave three heaps", example: "hex:0.F", build: Build::Heap(hex) },
    Family { name: "grundy-game", form: "grundy-game", about: "Grundy's game: split one heap into two heaps of different sizes", example: "grundy-game", build: Build::Heap(grundys_game) },
    Family { name: "cram", form: "cram:RxC", about: "Cram on R rows of C cells: cover two empty adjacent cells with a domino; a board is typed as rows of . (empty) and # (filled)", example: "cram:3x4", build: Build::Game(cram) },
    Family { name: "chomp", form: "chomp:RxC", about: "Chomp on R rows of C columns: eat a cell and all above and right of it, never the poisoned bottom-left; a position is the column heights", example: "chomp:4x6", build: Build::Game(chomp) },
];

/// The largest heap a heap game values: its nim sequence is a vector of this many values.
pub const MAX_HEAP: usize = 1 << 28;

/// How many heaps a heap game's positions have; other games fix their own size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heaps {
    /// As `--heaps N` says (refused for games that are not heap games).
    pub given: Option<usize>,
    /// Else as many as a typed position has.
    pub typed: Option<usize>,
}

impl Heaps {
    /// `--heaps`, as given or not.
    pub fn given(heaps: Option<usize>) -> Self {
        Heaps {
            given: heaps,
            typed: None,
        }
    }
}

fn split_spec(spec: &str) -> (&str, Option<&str>) {
    match spec.split_once(':') {
        Some((h, a)) => (h, Some(a)),
        None => (spec, None),
    }
}

fn family(spec: &str) -> Result<&'static Family, Error> {
    let (head, _) = split_spec(spec);
    FAMILIES.iter().find(|f| f.name == head).ok_or_else(|| {
        let names: Vec<&str> = FAMILIES.iter().map(|f| f.form).collect();
        Error::spec(format!(
            "unknown game `{spec}`; known: {} (see grundy games)",
            names.join(", ")
        ))
    })
}

/// Parses a game spec into the game, its heap count (for heap games) taken from `heaps`.
pub fn parse(spec: &str, heaps: Heaps) -> Result<Box<dyn AnyGame>, Error> {
    let arg = split_spec(spec).1;
    match family(spec)?.build {
        Build::Faces(build) => {
            let game = HypergraphNim::new(spec, build(arg)?);
            if let Some(k) = heaps.given {
                return Err(Error::refused(
                    OptionKey::Heaps,
                    format!(
                        " {k} is for heap games; {spec} has its {} vertices",
                        game.graph().vertices()
                    ),
                ));
            }
            Ok(Box::new(game))
        }
        Build::Game(build) => {
            if let Some(k) = heaps.given {
                return Err(Error::refused(
                    OptionKey::Heaps,
                    format!(" {k} is for heap games; {spec} is played on its board"),
                ));
            }
            build(spec, arg)
        }
        Build::Heap(build) => {
            let rule = build(spec, arg)?;
            let k = heaps.given.or(heaps.typed).ok_or_else(|| {
                Error::refused(
                    OptionKey::Heaps,
                    format!(" is needed: {spec} is played on sums of heaps; say how many"),
                )
            })?;
            Ok(Box::new(HeapSum::new(rule, k)?))
        }
    }
}

/// Parses the spec of a game of hypergraph nim (`path:3`, `complex:0-1,1-2`, ...).
pub fn parse_hypergraph(spec: &str) -> Result<HypergraphNim, Error> {
    match family(spec)?.build {
        Build::Faces(build) => Ok(HypergraphNim::new(spec, build(split_spec(spec).1)?)),
        Build::Heap(_) => Err(Error::spec(format!(
            "`{spec}` is a heap game, not a game of hypergraph nim"
        ))),
        Build::Game(_) => Err(Error::spec(format!(
            "`{spec}` is a board game, not a game of hypergraph nim"
        ))),
    }
}

/// Parses the spec of a heap game (`subtraction:1,3,4`, `octal:0.77`, ...).
pub fn parse_heap(spec: &str) -> Result<HeapGame, Error> {
    let f = family(spec).map_err(|_| {
        let names: Vec<&str> = FAMILIES
            .iter()
            .filter(|f| f.kind() == Kind::Heap)
            .map(|f| f.form)
            .collect();
        Error::spec(format!(
            "`{spec}` is not a heap game; heap games: {}",
            names.join(", ")
        ))
    })?;
    match f.build {
        Build::Heap(build) => Ok(HeapGame::new(build(spec, split_spec(spec).1)?)),
        Build::Faces(_) => Err(Error::spec(format!(
            "`{spec}` is not a heap game (it is a hypergraph nim game)"
        ))),
        Build::Game(_) => Err(Error::spec(format!(
            "`{spec}` is not a heap game (it is a board game)"
        ))),
    }
}

fn needs<'a>(head: &str, arg: Option<&'a str>, example: &str) -> Result<&'a str, Error> {
    arg.ok_or_else(|| Error::spec(format!("`{head}` needs an argument, e.g. {example}")))
}

fn subtraction(spec: &str, arg: Option<&str>) -> Result<Box<dyn HeapRule>, Error> {
    let set = needs("subtraction", arg, "subtraction:1,3,4")?;
    Ok(Box::new(TakeBreak::subtraction(spec, set)?))
}

fn octal(spec: &str, arg: Option<&str>) -> Result<Box<dyn HeapRule>, Error> {
    let code = needs("octal", arg, "octal:0.77")?;
    Ok(Box::new(TakeBreak::octal(spec, code)?))
}

fn hex(spec: &str, arg: Option<&str>) -> Result<Box<dyn HeapRule>, Error> {
    let code = needs("hex", arg, "hex:0.F")?;
    Ok(Box::new(TakeBreak::hex(spec, code)?))
}

fn grundys_game(_: &str, arg: Option<&str>) -> Result<Box<dyn HeapRule>, Error> {
    match arg {
        Some(_) => Err(Error::spec("`grundy-game` takes no argument")),
        None => Ok(Box::new(GrundysGame)),
    }
}

fn cram(spec: &str, arg: Option<&str>) -> Result<Box<dyn AnyGame>, Error> {
    let (rows, cols) = board::parse_dims("cram", arg, board::cram::MAX_CELLS)?;
    super::boards::cram_any_width(spec, rows, cols)
}

fn chomp(spec: &str, arg: Option<&str>) -> Result<Box<dyn AnyGame>, Error> {
    let (rows, cols) = board::parse_dims("chomp", arg, 1 << 16)?;
    Ok(Box::new(Chomp::new(spec, rows, cols)?))
}

/// A game and a position of it.
pub type GameAt = (Box<dyn AnyGame>, Stones);

/// The game of `spec` and the position `words` type for it (a board game's full board when
/// none is typed), as every front end reads a game and a position: a heap game learns its
/// number of heaps from the position. `Ok(None)` when a position is needed and none is typed
/// (each front end says how to type one).
pub fn game_at(spec: &str, words: &[String]) -> Result<Option<GameAt>, Error> {
    let counts = super::parse_counts(words);
    let heaps = Heaps {
        given: None,
        typed: counts.as_ref().ok().map(|c| c.len()),
    };
    let game = match (parse(spec, heaps), counts) {
        // A heap game learns its number of heaps from the position.
        (
            Err(Error::Refused {
                key: OptionKey::Heaps,
                ..
            }),
            _,
        ) if words.is_empty() => return Ok(None),
        // ... and a position that does not parse says why, not that the heaps are unknown.
        (
            Err(Error::Refused {
                key: OptionKey::Heaps,
                ..
            }),
            Err(bad),
        ) => return Err(bad),
        (other, _) => other?,
    };
    let p = match (words.is_empty(), game.start()) {
        (true, Some(start)) => start,
        (true, None) => return Ok(None),
        (false, _) => game.read_position(words)?,
    };
    Ok(Some((game, p)))
}

/// The file a spec reads its game from, if any (`complex-file:k.json`): an input that no output
/// may replace.
pub fn input_file(spec: &str) -> Option<&std::path::Path> {
    spec.strip_prefix("complex-file:").map(std::path::Path::new)
}

/// The families, one line each, for `--help`.
pub fn help_text() -> String {
    let width = FAMILIES.iter().map(|f| f.form.len()).max().unwrap_or(0);
    let mut out = String::from("Games (GAME), also listed by `grundy games`:\n");
    for f in FAMILIES {
        out.push_str(&format!("  {:width$}  {}\n", f.form, f.about));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_have_the_documented_shapes() {
        let g = parse_hypergraph("projective-plane").unwrap();
        assert_eq!(g.graph().vertices(), 6);
        assert_eq!(g.graph().faces().len(), 6 + 15 + 10);
        assert_eq!(g.symmetry().order(), Some(60));
        assert_eq!(parse_hypergraph("star:4").unwrap().graph().vertices(), 5);
        assert_eq!(
            parse_hypergraph("circular:5,2")
                .unwrap()
                .graph()
                .maximal_faces()
                .len(),
            5
        );
        assert_eq!(
            parse_hypergraph("circular:3,3")
                .unwrap()
                .graph()
                .maximal_faces(),
            &[0b111]
        );
        assert_eq!(
            parse_hypergraph("shriek").unwrap().graph().maximal_faces(),
            &[0b100, 0b011]
        );
        assert_eq!(
            parse_hypergraph("complex:0-1,1-2,3")
                .unwrap()
                .graph()
                .vertices(),
            4
        );
        assert_eq!(
            parse_hypergraph("y-graph").unwrap().symmetry().order(),
            Some(2)
        );
        assert_eq!(
            parse_hypergraph("square").unwrap().symmetry().order(),
            Some(8)
        );
        assert_eq!(
            parse_hypergraph("circular:6,2").unwrap().symmetry().order(),
            Some(12)
        );
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (spec, needle) in [
            ("pathh:3", "unknown game"),
            ("path", "needs a size"),
            ("path:x", "whole number"),
            ("path:0", "too small"),
            ("circular:3", "expected N,K"),
            ("circular:3,4", "1 <= K <= N"),
            ("complex:0-1,,2", "empty face"),
            ("complex:", "empty"),
            ("complex:0-a", "whole number"),
            ("shriek:2", "no argument"),
            ("complex:0-0", "twice"),
            ("complex-file:/nonexistent/x.json", "No such file"),
            ("path:99999999999", "too large"),
            ("star:64", "at most 63"),
            ("nim:65", "at most 64"),
            ("circular:99999999999,2", "at most 64"),
            ("complex:0-99999999999", "out of range"),
            ("hypergraph:0-64", "out of range"),
            ("complex", "needs faces"),
        ] {
            let err = parse_hypergraph(spec).unwrap_err().to_string();
            assert!(err.contains(needle), "{spec}: {err}");
        }
    }

    /// Every example in the registry builds the game it describes.
    #[test]
    fn every_family_example_parses() {
        let two = Heaps {
            given: None,
            typed: Some(2),
        };
        for f in FAMILIES.iter().filter(|f| f.name != "complex-file") {
            let g = parse(f.example, two).unwrap_or_else(|e| panic!("{}: {e}", f.example));
            assert_eq!(g.name(), f.example);
            assert!(f.example.starts_with(f.name), "{}", f.form);
        }
        assert!(help_text().lines().count() > FAMILIES.len());
        let err = parse_hypergraph("pathh:3").unwrap_err().to_string();
        assert!(
            err.contains("grundy games") && err.contains("circular:N,K"),
            "{err}"
        );
        // The largest games set up at once (the group search is per class, not per vertex).
        assert_eq!(
            parse_hypergraph("nim:64").unwrap().symmetry().coset_count(),
            1
        );
        assert_eq!(parse_hypergraph("star:63").unwrap().graph().vertices(), 64);
        assert_eq!(
            parse_hypergraph("circular:64,3")
                .unwrap()
                .symmetry()
                .order(),
            Some(128)
        );
    }

    #[test]
    fn heap_specs_parse_and_bad_ones_say_what_is_wrong() {
        for f in FAMILIES.iter().filter(|f| f.kind() == Kind::Heap) {
            let g = parse_heap(f.example).unwrap_or_else(|e| panic!("{}: {e}", f.example));
            assert_eq!(g.rule().name(), f.example);
        }
        assert_eq!(
            parse_heap("subtraction:all-but:1,2").unwrap().sequence(3),
            [0, 0, 0, 1]
        );
        for (spec, needle) in [
            ("octal", "needs an argument"),
            ("octal:0.8", "need a hex code"),
            ("subtraction:0,1", "at least one token"),
            ("subtraction:2,2", "twice"),
            ("grundy-game:3", "no argument"),
            ("path:3", "hypergraph nim"),
            ("kayles", "not a heap game"),
        ] {
            let err = parse_heap(spec).unwrap_err().to_string();
            assert!(err.contains(needle), "{spec}: {err}");
        }
        let err = parse_hypergraph("octal:0.77").unwrap_err().to_string();
        assert!(err.contains("heap game"), "{err}");
        // As any game, a heap game is a sum of as many heaps as asked for, and only then.
        let sum = parse("octal:0.77", Heaps::given(Some(3))).unwrap();
        assert_eq!((sum.name(), sum.variables()), ("octal:0.77", 3));
        let typed = Heaps {
            given: None,
            typed: Some(2),
        };
        assert_eq!(parse("subtraction:1,2", typed).unwrap().variables(), 2);
        let err = parse("octal:0.77", Heaps::default()).err().unwrap();
        assert!(
            matches!(
                err,
                Error::Refused {
                    key: OptionKey::Heaps,
                    ..
                }
            ),
            "{err}"
        );
        let err = parse("path:3", Heaps::given(Some(3)))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("heap games"), "{err}");
        assert_eq!(parse("path:3", typed).unwrap().variables(), 3);
        assert!(parse("subtraction:1", Heaps::given(Some(0))).is_err());
    }

    #[test]
    fn complex_file_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.json");
        std::fs::write(&path, r#"{"vertices": 4, "faces": [[0,1,2],[2,3]]}"#).unwrap();
        let g = parse_hypergraph(&format!("complex-file:{}", path.display())).unwrap();
        assert_eq!(g.graph().faces().len(), 7 + 2);
        std::fs::write(&path, r#"{"vertices": 2, "faces": [[0,5]]}"#).unwrap();
        assert!(
            parse_hypergraph(&format!("complex-file:{}", path.display()))
                .unwrap_err()
                .to_string()
                .contains("out of range")
        );
        std::fs::write(&path, "not json").unwrap();
        assert!(parse_hypergraph(&format!("complex-file:{}", path.display())).is_err());
    }
}
