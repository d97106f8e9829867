//! `grundy info GAME`: the structure the engines exploit, for checking a spec says what you meant.

use clap::Args;

use super::output::Out;
use super::Status;
use crate::error::Error;
use crate::game::hypergraph::format_face;
use crate::game::spec;

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// Game spec, e.g. projective-plane.
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
    let order = sym
        .order()
        .map_or_else(|| "more than 2^128".to_string(), |o| o.to_string());
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
            "twin_classes": twins,
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
        "circuits ({}): {}",
        circuits.len(),
        circuits.join(" ")
    ))?;
    out.line(format_args!("automorphism group order: {order}"))?;
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
            "interchangeable vertices: {}",
            shown.join(" ")
        ))?;
    }
    Ok(Status::Answered)
}
