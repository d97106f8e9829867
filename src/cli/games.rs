//! `grundy games`: every game spec the command line accepts, with an example of each.

use clap::Args;

use super::output::Out;
use super::Status;
use grundy_core::catalog::spec::{Family, Kind, FAMILIES};
use grundy_core::error::Error;

#[derive(Args, Debug)]
pub struct GamesArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

fn entry(f: &Family) -> serde_json::Value {
    serde_json::json!({"spec": f.form, "example": f.example, "about": f.about})
}

pub fn run(args: &GamesArgs) -> Result<Status, Error> {
    let mut out = Out::new();
    let of = |kind: Kind| FAMILIES.iter().filter(move |f| f.kind() == kind);
    if args.json {
        let games: Vec<_> = of(Kind::Hypergraph).map(entry).collect();
        let heap_games: Vec<_> = of(Kind::Heap).map(entry).collect();
        let board_games: Vec<_> = of(Kind::Board).map(entry).collect();
        out.json(&serde_json::json!({
            "games": games,
            "heap_games": heap_games,
            "board_games": board_games,
        }))?;
        return Ok(Status::Answered);
    }
    let form = FAMILIES.iter().map(|f| f.form.len()).max().unwrap_or(0);
    let example = FAMILIES.iter().map(|f| f.example.len()).max().unwrap_or(0);
    out.line(format_args!(
        "{:form$}  {:example$}  what it is",
        "spec", "example"
    ))?;
    // One row per family of a kind, in the columns of the header.
    let list = |out: &mut Out, kind: Kind| -> Result<(), Error> {
        for f in of(kind) {
            out.line(format_args!(
                "{:form$}  {:example$}  {}",
                f.form, f.example, f.about
            ))?;
        }
        Ok(())
    };
    list(&mut out, Kind::Hypergraph)?;
    out.line(format_args!(
        "\nA move picks a face and removes at least one stone from every vertex of it. FACES are\n\
         vertex lists joined by `-`, separated by `,` (vertices count from 0)."
    ))?;
    out.line(format_args!(
        "\nHeap games: a position is a list of heaps (`grundy sg subtraction:1,3,4 5,6,7`); \
         `table` and `synth` take --heaps N; `grundy period` proves the nim sequence's period."
    ))?;
    list(&mut out, Kind::Heap)?;
    out.line(format_args!(
        "\nBoard games: the position defaults to the full board (`grundy sg cram:4x5`); a Cram \
         board is typed as rows of . and # joined by / (`grundy sg cram:2x3 ..#/...`) or read \
         from @FILE, a Chomp position as its column heights from the left."
    ))?;
    list(&mut out, Kind::Board)?;
    Ok(Status::Answered)
}
