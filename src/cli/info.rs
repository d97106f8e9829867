//! `grundy info GAME`: the structure the engines exploit, for checking a spec says what you meant.

use clap::Args;

use super::output::Out;
use super::Status;
use grundy_core::catalog::spec::{self, Heaps};
use grundy_core::error::Error;
use grundy_core::game::hypergraph::format_face;
use grundy_core::game::hypergraph::HypergraphNim;
use grundy_core::game::symmetry::MAX_COSETS;

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// Game spec, e.g. projective-plane (`grundy games` lists them all).
    game: String,
    /// For a heap game: the number of heaps in a position (default 1).
    #[arg(long, value_name = "N")]
    heaps: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// First values of a heap game's nim sequence `info` shows.
const SHOWN_VALUES: usize = 24;

pub fn run(args: &InfoArgs) -> Result<Status, Error> {
    let heaps = Heaps {
        given: args.heaps,
        typed: Some(1),
    };
    let game = spec::parse(&args.game, heaps)?;
    if let Some(h) = game.kind().hypergraph() {
        return hypergraph(args, h);
    }
    let mut out = Out::new();
    let sequence = game
        .kind()
        .heaps()
        .map(|s| s.game().sequence(SHOWN_VALUES - 1));
    if args.json {
        out.json(&serde_json::json!({
            "game": game.name(),
            "kind": if sequence.is_some() { "heap game" } else { "game" },
            "variables": game.variables(),
            "sequence_start": sequence,
        }))?;
        return Ok(Status::Answered);
    }
    out.line(format_args!("game: {}", game.name()))?;
    let (one, many) = game.coordinate();
    let n = game.variables();
    out.line(format_args!("{}: {n}", if n == 1 { one } else { many }))?;
    if let Some(seq) = sequence {
        let shown: Vec<String> = seq.iter().map(|v| v.to_string()).collect();
        out.line(format_args!(
            "kind: heap game (a position's value is the xor of its heaps' values)"
        ))?;
        out.line(format_args!(
            "nim sequence G(0..{}): {}",
            SHOWN_VALUES - 1,
            shown.join(" ")
        ))?;
        out.line(format_args!(
            "its period, with proof: grundy period {}",
            game.name()
        ))?;
    }
    Ok(Status::Answered)
}

/// The faces, circuits and automorphisms of a game of hypergraph nim.
fn hypergraph(args: &InfoArgs, game: &HypergraphNim) -> Result<Status, Error> {
    let g = game.graph();
    let sym = game.symmetry();
    let faces: Vec<String> = g.faces().iter().map(|&f| format_face(f)).collect();
    let maximal: Vec<String> = g.maximal_faces().iter().map(|&f| format_face(f)).collect();
    let circuits: Vec<String> = g.circuits().iter().map(|&f| format_face(f)).collect();
    let twins: Vec<Vec<usize>> = sym
        .twin_classes()
        .iter()
        .filter(|c| c.len() > 1)
        .cloned()
        .collect();
    let order = match (sym.order(), sym.twin_product_order()) {
        (Some(o), _) => o.to_string(),
        (None, _) if sym.is_complete() => "more than 2^128".to_string(),
        (None, Some(t)) => format!(
            "not enumerated: it contains the {t} permutations within classes of \
             interchangeable vertices, and more than {MAX_COSETS} ways to permute those classes"
        ),
        (None, None) => "not enumerated (more than 2^128)".to_string(),
    };
    let isolated = g.isolated();
    let kind = if g.is_closed_downward() {
        "simplicial complex"
    } else {
        "hypergraph"
    };
    let mut out = Out::new();
    if args.json {
        let obj = serde_json::json!({
            "game": game.name(),
            "kind": kind,
            "vertices": g.vertices(),
            "faces": faces,
            "maximal_faces": maximal,
            "circuits": circuits,
            "automorphism_group_order": order,
            "automorphism_group_complete": sym.is_complete(),
            "twin_classes": twins,
            "isolated_vertices": isolated,
        });
        out.json(&obj)?;
        return Ok(Status::Answered);
    }
    out.line(format_args!("game: {}", game.name()))?;
    out.line(format_args!("kind: {kind}"))?;
    out.line(format_args!("vertices: {}", g.vertices()))?;
    out.line(format_args!("faces ({}): {}", faces.len(), faces.join(" ")))?;
    out.line(format_args!(
        "maximal faces ({}): {}",
        maximal.len(),
        maximal.join(" ")
    ))?;
    out.line(format_args!(
        "circuits ({}, the minimal sets of vertices that are not a face): {}",
        circuits.len(),
        circuits.join(" ")
    ))?;
    out.line(format_args!("automorphism group order: {order}"))?;
    if !isolated.is_empty() {
        let list: Vec<String> = isolated.iter().map(|v| v.to_string()).collect();
        out.line(format_args!(
            "isolated vertices (no face joins them to another: each is a plain nim heap): {}",
            list.join(" ")
        ))?;
    }
    if !twins.is_empty() {
        let shown: Vec<String> = twins
            .iter()
            .map(|c| {
                format!(
                    "{{{}}}",
                    c.iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                )
            })
            .collect();
        out.line(format_args!(
            "interchangeable vertices (swapping two in one class is a symmetry): {}",
            shown.join(" ")
        ))?;
    }
    Ok(Status::Answered)
}
