use grundy::game::spec;
use grundy::game::hypergraph::vertices_of;
use grundy::sg::table::{tabulate, TableOptions};
fn main() {
    let game = spec::parse("projective-plane").unwrap();
    let g = game.graph();
    let d = 8usize;
    let dims = [d; 6];
    let t = tabulate(g, &dims, &TableOptions { threads: 2, memory_limit: 1 << 34, progress: false }).unwrap();
    let len = t.len();
    let mut sg = vec![0u32; len];
    let mut p = [0u32; 6];
    let mut bad = 0;
    for idx in 0..len {
        t.position_of(idx, &mut p);
        let mut seen = vec![false; 128];
        for &f in g.faces() {
            let verts: Vec<usize> = vertices_of(f).collect();
            if verts.iter().any(|&i| p[i] == 0) { continue; }
            let mut q = p;
            verts.iter().for_each(|&i| q[i] = 0);
            loop {
                seen[sg[t.index_of(&q)] as usize] = true;
                let Some(&i) = verts.iter().rev().find(|&&i| q[i] + 1 < p[i]) else { break };
                q[i] += 1; verts.iter().filter(|&&j| j > i).for_each(|&j| q[j] = 0);
            }
        }
        sg[idx] = seen.iter().position(|&s| !s).unwrap() as u32;
        if sg[idx] != t.value_at(idx) { bad += 1; }
    }
    println!("{len} positions, {bad} mismatches, sg(7^6) = {}", sg[len - 1]);
}
