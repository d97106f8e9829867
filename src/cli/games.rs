//! `grundy games`: every game spec the command line accepts, with an example of each.

use clap::Args;

use super::output::Out;
use super::Status;
use crate::error::Error;
use crate::game::spec::{FAMILIES, HEAP_FAMILIES};

#[derive(Args, Debug)]
pub struct GamesArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &GamesArgs) -> Result<Status, Error> {
    let mut out = Out::new();
    if args.json {
        let games: Vec<serde_json::Value> = FAMILIES
            .iter()
            .map(|f| serde_json::json!({"spec": f.form, "example": f.example, "about": f.about}))
            .collect();
        let heap_games: Vec<serde_json::Value> = HEAP_FAMILIES
            .iter()
            .map(|f| serde_json::json!({"spec": f.form, "example": f.example, "about": f.about}))
            .collect();
        out.json(&serde_json::json!({ "games": games, "heap_games": heap_games }))?;
        return Ok(Status::Answered);
    }
    let form = FAMILIES.iter().map(|f| f.form.len()).max().unwrap_or(0);
    let example = FAMILIES.iter().map(|f| f.example.len()).max().unwrap_or(0);
    out.line(format_args!(
        "{:form$}  {:example$}  what it is",
        "spec", "example"
    ))?;
    for f in FAMILIES {
        out.line(format_args!(
            "{:form$}  {:example$}  {}",
            f.form, f.example, f.about
        ))?;
    }
    out.line(format_args!(
        "\nA move picks a face and removes at least one stone from every vertex of it. FACES are\n\
         vertex lists joined by `-`, separated by `,` (vertices count from 0)."
    ))?;
    out.line(format_args!("\nHeap games (`grundy period` takes them):"))?;
    let form = HEAP_FAMILIES
        .iter()
        .map(|f| f.form.len())
        .max()
        .unwrap_or(0);
    let example = HEAP_FAMILIES
        .iter()
        .map(|f| f.example.len())
        .max()
        .unwrap_or(0);
    for f in HEAP_FAMILIES {
        out.line(format_args!(
            "{:form$}  {:example$}  {}",
            f.form, f.example, f.about
        ))?;
    }
    Ok(Status::Answered)
}
