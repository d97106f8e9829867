//! Games played on a rectangular board: Cram and Chomp.
//!
//! A board is `RxC`: R rows of C cells. Both games take the full board when no position is
//! given; a partial Cram board is typed as rows of `.` (an empty cell, still playable) and `#`
//! (a filled one), the rows separated by `/` or whitespace, inline or from a file (`@FILE`).

pub(crate) mod chomp;
pub(crate) mod cram;

pub use chomp::Chomp;
pub use cram::{Cells, Cram};

use crate::error::Error;

/// Parses the `RxC` of a board spec (`cram:5x4`), each side from 1 and the board at most
/// `max_cells` cells.
pub(crate) fn parse_dims(
    head: &str,
    arg: Option<&str>,
    max_cells: usize,
) -> Result<(usize, usize), Error> {
    let example = format!("{head}:5x4");
    let arg =
        arg.ok_or_else(|| Error::spec(format!("`{head}` needs a board size, e.g. {example}")))?;
    let bad = || {
        Error::spec(format!(
            "`{head}:{arg}`: the board is ROWSxCOLUMNS, e.g. {example}"
        ))
    };
    let (r, c) = arg.split_once(['x', 'X']).ok_or_else(bad)?;
    let (rows, cols): (usize, usize) = (
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    );
    if rows == 0 || cols == 0 {
        return Err(Error::spec(format!(
            "`{head}:{arg}`: a board needs at least one row and one column"
        )));
    }
    if rows.saturating_mul(cols) > max_cells {
        return Err(Error::spec(format!(
            "`{head}:{arg}`: {} cells; boards of up to {max_cells} cells are supported",
            rows.saturating_mul(cols)
        )));
    }
    Ok((rows, cols))
}

/// The rows of a board typed as `.` and `#` (`..#./..../....`), or read from `@FILE`: for each
/// row, which cells are empty. Checks the shape against `rows` x `cols`.
pub(crate) fn parse_board(
    words: &[String],
    rows: usize,
    cols: usize,
) -> Result<Vec<Vec<bool>>, Error> {
    let text = match words {
        [one] if one.starts_with('@') => {
            let path = &one[1..];
            std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?
        }
        _ => words.join(" "),
    };
    let lines: Vec<&str> = text
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    if lines.len() != rows {
        return Err(Error::position(format!(
            "the board has {} rows but the game has {rows} (rows of `.` empty and `#` filled, separated by `/`)",
            lines.len()
        )));
    }
    lines
        .iter()
        .enumerate()
        .map(|(r, line)| {
            if line.chars().count() != cols {
                return Err(Error::position(format!(
                    "row {r} `{line}` has {} cells but the board has {cols} columns",
                    line.chars().count()
                )));
            }
            line.chars()
                .map(|ch| match ch {
                    '.' => Ok(true),
                    '#' => Ok(false),
                    other => Err(Error::position(format!(
                        "`{other}` in row {r}: a cell is `.` (empty) or `#` (filled)"
                    ))),
                })
                .collect()
        })
        .collect()
}

/// Rows of `.` (empty) and `#` (filled) joined by `/`: the form [`parse_board`] reads.
pub(crate) fn format_board(rows: impl Iterator<Item = Vec<bool>>) -> String {
    rows.map(|row| {
        row.iter()
            .map(|&e| if e { '.' } else { '#' })
            .collect::<String>()
    })
    .collect::<Vec<_>>()
    .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn boards_parse_and_print_back() {
        let b = parse_board(&words("..#/.#."), 2, 3).unwrap();
        assert_eq!(b, [vec![true, true, false], vec![true, false, true]]);
        assert_eq!(format_board(b.into_iter()), "..#/.#.");
        assert_eq!(parse_board(&words("..# .#."), 2, 3).unwrap().len(), 2);
        assert!(parse_board(&words("..#"), 2, 3).is_err());
        assert!(parse_board(&words("..#/.#"), 2, 3).is_err());
        assert!(parse_board(&words("..#/.x."), 2, 3).is_err());
    }

    #[test]
    fn sizes_parse_with_clear_errors() {
        assert_eq!(parse_dims("cram", Some("5x4"), 64).unwrap(), (5, 4));
        for bad in ["5", "5x", "0x4", "ax4", "9x9"] {
            assert!(parse_dims("cram", Some(bad), 64).is_err(), "{bad}");
        }
        assert!(parse_dims("cram", None, 64).is_err());
    }
}
