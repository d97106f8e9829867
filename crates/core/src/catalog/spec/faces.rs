//! The hypergraph families' builders: from the text after a spec's colon to the faces of
//! the hypergraph it names, every size checked against [`MAX_VERTICES`] before anything is
//! built.

use crate::error::Error;
use crate::game::hypergraph::{Hypergraph, MAX_VERTICES};

/// The triangles of the thesis's projective plane complex (all edges are faces too).
const PROJECTIVE_PLANE_TRIANGLES: [[usize; 3]; 10] = [
    [0, 1, 2],
    [0, 1, 3],
    [0, 2, 4],
    [0, 3, 5],
    [0, 4, 5],
    [1, 2, 5],
    [1, 3, 4],
    [1, 4, 5],
    [2, 3, 4],
    [2, 3, 5],
];

pub(super) fn nim(arg: Option<&str>) -> Result<Hypergraph, Error> {
    let n = count("nim", arg, 1, MAX_VERTICES)?;
    Hypergraph::complex(n, &[])
}

pub(super) fn path(arg: Option<&str>) -> Result<Hypergraph, Error> {
    let n = count("path", arg, 1, MAX_VERTICES)?;
    Hypergraph::complex(n, &(1..n).map(|v| vec![v - 1, v]).collect::<Vec<_>>())
}

pub(super) fn star(arg: Option<&str>) -> Result<Hypergraph, Error> {
    // The centre is a vertex too.
    let k = count("star", arg, 1, MAX_VERTICES - 1)?;
    Hypergraph::complex(k + 1, &(1..=k).map(|v| vec![0, v]).collect::<Vec<_>>())
}

pub(super) fn circular(arg: Option<&str>) -> Result<Hypergraph, Error> {
    let arg = arg.ok_or_else(|| Error::spec("`circular` needs N,K, e.g. circular:5,2"))?;
    let (n, k) = arg
        .split_once(',')
        .ok_or_else(|| Error::spec(format!("`circular:{arg}`: expected N,K, e.g. circular:5,2")))?;
    let n = number(n, "N in circular:N,K")?;
    let k = number(k, "K in circular:N,K")?;
    if n == 0 || k == 0 || k > n {
        return Err(Error::spec(format!("circular:{n},{k} needs 1 <= K <= N")));
    }
    if n > MAX_VERTICES {
        return Err(too_many_vertices(n));
    }
    Hypergraph::complex(
        n,
        &(0..n)
            .map(|s| (s..s + k).map(|v| v % n).collect())
            .collect::<Vec<_>>(),
    )
}

/// A family that takes no argument.
fn fixed(
    name: &str,
    arg: Option<&str>,
    n: usize,
    faces: &[Vec<usize>],
) -> Result<Hypergraph, Error> {
    match arg {
        Some(_) => Err(Error::spec(format!("`{name}` takes no argument"))),
        None => Hypergraph::complex(n, faces),
    }
}

pub(super) fn shriek(arg: Option<&str>) -> Result<Hypergraph, Error> {
    fixed("shriek", arg, 3, &[vec![0, 1], vec![2]])
}

pub(super) fn projective_plane(arg: Option<&str>) -> Result<Hypergraph, Error> {
    fixed(
        "projective-plane",
        arg,
        6,
        &PROJECTIVE_PLANE_TRIANGLES.map(|t| t.to_vec()),
    )
}

pub(super) fn y_graph(arg: Option<&str>) -> Result<Hypergraph, Error> {
    fixed(
        "y-graph",
        arg,
        5,
        &[vec![0, 1], vec![1, 2], vec![2, 3], vec![2, 4]],
    )
}

pub(super) fn square(arg: Option<&str>) -> Result<Hypergraph, Error> {
    fixed(
        "square",
        arg,
        4,
        &[vec![0, 1], vec![1, 2], vec![2, 3], vec![0, 3]],
    )
}

pub(super) fn complex(arg: Option<&str>) -> Result<Hypergraph, Error> {
    let faces = inline_faces("complex", arg)?;
    Hypergraph::complex(vertex_count(&faces), &faces)
}

pub(super) fn hypergraph(arg: Option<&str>) -> Result<Hypergraph, Error> {
    let faces = inline_faces("hypergraph", arg)?;
    Hypergraph::with_faces(vertex_count(&faces), &faces)
}

/// Vertices 0..=the largest one named (the faces are checked against the limit already).
fn vertex_count(faces: &[Vec<usize>]) -> usize {
    faces.iter().flatten().max().map_or(0, |&m| m + 1)
}

fn too_many_vertices(n: usize) -> Error {
    Error::spec(format!(
        "{n} vertices; at most {MAX_VERTICES} are supported"
    ))
}

fn number(s: &str, what: &str) -> Result<usize, Error> {
    s.trim().parse().map_err(|_| {
        Error::spec(format!(
            "{what} must be a non-negative whole number, got `{s}`"
        ))
    })
}

/// The size argument of `head:N`, checked against its range before anything is built.
fn count(head: &str, arg: Option<&str>, min: usize, max: usize) -> Result<usize, Error> {
    let arg = arg.ok_or_else(|| Error::spec(format!("`{head}` needs a size, e.g. {head}:3")))?;
    let n = number(arg, &format!("the size in {head}:N"))?;
    if n < min {
        return Err(Error::spec(format!(
            "{head}:{n} is too small (at least {min})"
        )));
    }
    if n > max {
        return Err(Error::spec(format!(
            "{head}:{n} is too large (at most {max}: faces are 64-bit masks, so games have at most {MAX_VERTICES} vertices)"
        )));
    }
    Ok(n)
}

fn inline_faces(head: &str, arg: Option<&str>) -> Result<Vec<Vec<usize>>, Error> {
    let arg =
        arg.ok_or_else(|| Error::spec(format!("`{head}` needs faces, e.g. {head}:0-1,1-2")))?;
    if arg.trim().is_empty() {
        return Err(Error::spec("the face list is empty"));
    }
    arg.split(',')
        .map(|face| {
            if face.trim().is_empty() {
                return Err(Error::spec(
                    "an empty face in the list (two commas in a row?)",
                ));
            }
            face.split('-')
                .map(|v| {
                    let v = number(v, "a vertex")?;
                    if v >= MAX_VERTICES {
                        return Err(Error::spec(format!(
                            "vertex {v} is out of range (at most {MAX_VERTICES} vertices: 0..{})",
                            MAX_VERTICES - 1
                        )));
                    }
                    Ok(v)
                })
                .collect()
        })
        .collect()
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ComplexFile {
    vertices: usize,
    faces: Vec<Vec<usize>>,
}

pub(super) fn complex_file(arg: Option<&str>) -> Result<Hypergraph, Error> {
    let path =
        arg.ok_or_else(|| Error::spec("`complex-file` needs a path, e.g. complex-file:k.json"))?;
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let file: ComplexFile = serde_json::from_str(&text).map_err(|e| Error::Data {
        path: path.into(),
        msg: format!("not a complex file: {e}"),
    })?;
    if file.vertices > MAX_VERTICES {
        return Err(Error::Data {
            path: path.into(),
            msg: format!(
                "{} vertices; at most {MAX_VERTICES} are supported",
                file.vertices
            ),
        });
    }
    Hypergraph::complex(file.vertices, &file.faces)
}
