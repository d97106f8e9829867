//! `grundy info GAME`: the structure the engines exploit, for checking a spec says what you meant.

use clap::Args;

use super::output::Out;
use super::Status;
use crate::error::Error;
use crate::game::hypergraph::format_face;
use crate::game::spec;
use crate::game::symmetry::MAX_COSETS;

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// Game spec, e.g. projective-plane (`grundy games` lists them all).
    game: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &InfoArgs) -> Result<Status, Error> {
    let game = spec::parse(&args.game)?;
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
