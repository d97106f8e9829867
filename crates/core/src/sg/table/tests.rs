use std::collections::HashMap;

use super::*;
use crate::catalog::spec;

/// SG by the definition: memoised recursion over every move of every face.
struct Reference<'a> {
    faces: &'a [u64],
    memo: HashMap<Vec<u32>, u32>,
}

impl<'a> Reference<'a> {
    fn new(graph: &'a Hypergraph) -> Self {
        Reference {
            faces: graph.faces(),
            memo: HashMap::new(),
        }
    }

    fn sg(&mut self, p: &[u32]) -> u32 {
        if let Some(&v) = self.memo.get(p) {
            return v;
        }
        let mut seen = Vec::new();
        for &face in self.faces {
            let verts: Vec<usize> = vertices_of(face).collect();
            if verts.iter().any(|&i| p[i] == 0) {
                continue;
            }
            // Every q with q_i in [0, p_i) on the face: an odometer.
            let mut q = p.to_vec();
            verts.iter().for_each(|&i| q[i] = 0);
            loop {
                seen.push(self.sg(&q));
                let Some(&i) = verts.iter().rev().find(|&&i| q[i] + 1 < p[i]) else {
                    break;
                };
                q[i] += 1;
                verts.iter().filter(|&&j| j > i).for_each(|&j| q[j] = 0);
            }
        }
        let v = (0..).find(|v| !seen.contains(v)).unwrap();
        self.memo.insert(p.to_vec(), v);
        v
    }
}

fn opts(threads: usize) -> TableOptions {
    TableOptions {
        threads,
        memory_limit: 1 << 32,
        ..TableOptions::default()
    }
}

/// Tabulates with 1, 2 and 3 threads and compares every value with the reference.
fn check(graph: &Hypergraph, dims: &[usize]) {
    let mut reference = Reference::new(graph);
    let mut p = vec![0u32; dims.len()];
    for threads in [1, 2, 3] {
        let table = tabulate(graph, dims, &opts(threads)).unwrap();
        assert_eq!(table.len(), dims.iter().product::<usize>());
        assert_eq!(table.dims(), dims);
        for index in 0..table.len() {
            table.position_of(index, &mut p);
            assert_eq!(table.index_of(&p), index);
            assert_eq!(
                table.get(&p),
                Some(reference.sg(&p)),
                "at {p:?} on {dims:?} with {threads} threads"
            );
        }
    }
}

fn path3() -> Hypergraph {
    Hypergraph::complex(3, &[vec![0, 1], vec![1, 2]]).unwrap()
}

#[test]
fn path_matches_reference() {
    check(&path3(), &[6, 6, 6]);
}

#[test]
fn simplex_matches_reference() {
    check(
        &Hypergraph::complex(3, &[vec![0, 1, 2]]).unwrap(),
        &[6, 6, 6],
    );
}

#[test]
fn hypergraph_matches_reference() {
    check(
        &Hypergraph::with_faces(4, &[vec![0, 1, 2], vec![2, 3]]).unwrap(),
        &[5, 4, 5, 4],
    );
}

#[test]
fn uneven_sides_match_reference() {
    check(&path3(), &[3, 5, 2]);
    check(
        &Hypergraph::complex(3, &[vec![0, 1, 2]]).unwrap(),
        &[2, 7, 3],
    );
}

#[test]
fn sides_of_one_match_reference() {
    check(&path3(), &[3, 1, 4]);
    check(&path3(), &[1, 4, 3]);
    check(&path3(), &[4, 3, 1]);
    check(&Hypergraph::complex(1, &[]).unwrap(), &[7]);
}

#[test]
fn projective_plane_matches_reference() {
    let game = spec::parse_hypergraph("projective-plane").unwrap();
    check(game.graph(), &[4; 6]);
}

#[test]
fn threads_agree_on_a_box_with_long_slabs() {
    // Slabs of 32768 positions: followers run a lag of stride_1 = 4096 behind, many batches deep.
    let game = spec::parse_hypergraph("projective-plane").unwrap();
    let one = tabulate(game.graph(), &[8; 6], &opts(1)).unwrap();
    for threads in [2, 3] {
        let many = tabulate(game.graph(), &[8; 6], &opts(threads)).unwrap();
        assert!(one.values() == many.values(), "{threads} threads disagree");
    }
    // Checked once against enumerating every move of the whole box (all 262144 values agreed).
    assert_eq!(one.get(&[7, 7, 7, 7, 7, 7]), Some(5));
}

#[test]
fn sets_wider_than_one_pass_match_reference() {
    // The box has 301 stones: sets of 5 words run as two passes of 4.
    let layout = Layout::new(&path3(), &[2, 300, 2]).unwrap();
    assert_eq!((layout.chunk, layout.blocks), (4, 2));
    check(&path3(), &[2, 300, 2]);
}

#[test]
fn plain_nim_is_xor() {
    let nim = Hypergraph::complex(3, &[]).unwrap();
    let table = tabulate(&nim, &[8, 8, 8], &opts(2)).unwrap();
    for a in 0..8 {
        for b in 0..8 {
            for c in 0..8 {
                assert_eq!(table.get(&[a, b, c]), Some(a ^ b ^ c));
            }
        }
    }
}

#[test]
fn path_zeros_are_outer_piles_equal() {
    let table = tabulate(&path3(), &[9, 9, 9], &opts(2)).unwrap();
    let mut p = [0u32; 3];
    for index in 0..table.len() {
        table.position_of(index, &mut p);
        let zero = p[1] == 0 && p[0] == p[2];
        assert_eq!(table.value_at(index) == Some(0), zero, "at {p:?}");
    }
}

#[test]
fn more_threads_than_slabs() {
    let graph = path3();
    let one = tabulate(&graph, &[3, 5, 2], &opts(1)).unwrap();
    for threads in [0, 8] {
        assert_eq!(
            tabulate(&graph, &[3, 5, 2], &opts(threads))
                .unwrap()
                .values(),
            one.values()
        );
    }
}

#[test]
fn refuses_boxes_over_the_memory_limit() {
    let graph = path3();
    let tiny = TableOptions {
        threads: 1,
        memory_limit: 1000,
        ..TableOptions::default()
    };
    let err = tabulate(&graph, &[40, 40, 40], &tiny).unwrap_err();
    assert_eq!(err.kind(), crate::error::Kind::Resource);
    assert_eq!(err.raise(), Some(crate::error::Setting::MemoryLimit));
    let msg = err.to_string();
    assert!(
        msg.contains("[0,40)^3 needs about") && msg.contains("the limit is"),
        "{msg}"
    );
    assert!(estimate_bytes(&graph, &[40, 40, 40], 1) > 40 * 40 * 40 * 4);
}

#[test]
fn refuses_bad_boxes() {
    let graph = path3();
    for dims in [&[3, 3][..], &[3, 0, 3], &[usize::MAX, usize::MAX, 2]] {
        assert!(
            matches!(
                tabulate(&graph, dims, &opts(1)),
                Err(Error::Resource(_) | Error::Usage(_))
            ),
            "{dims:?}"
        );
        assert_eq!(estimate_bytes(&graph, dims, 1), u64::MAX);
    }
}

/// A listener that asks for a stop once `after` positions are reported.
struct StopAfter {
    after: u64,
    done: std::sync::atomic::AtomicU64,
}

impl crate::progress::Progress for StopAfter {
    fn start(&self, _: &str, _: u64) {}
    fn advance(&self, n: u64) {
        self.done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }
    fn finish(&self) {}
    fn stopped(&self) -> bool {
        self.done.load(std::sync::atomic::Ordering::Relaxed) >= self.after
    }
}

/// A stop asked through the progress listener ends every worker (none left waiting on a slab
/// that will not come) with a time-limit error, not a table; a listener that never asks lets
/// the same box finish.
#[test]
fn a_stopped_tabulation_ends_without_a_table() {
    let nim = spec::parse_hypergraph("nim:3").unwrap();
    let dims = [40, 40, 40];
    for threads in [1, 2, 3] {
        let listen = |after| {
            let progress = Arc::new(StopAfter {
                after,
                done: Default::default(),
            });
            TableOptions {
                progress,
                ..opts(threads)
            }
        };
        let e = tabulate(nim.graph(), &dims, &listen(1)).unwrap_err();
        assert_eq!(e.kind(), crate::error::Kind::Timeout, "{e}");
        let t = tabulate(nim.graph(), &dims, &listen(u64::MAX)).unwrap();
        assert_eq!(t.position_count(), 40 * 40 * 40);
    }
}
