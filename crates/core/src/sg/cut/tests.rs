use super::*;

/// Every successor of the root marked as expanded by another thread: the search takes
/// them all after the others (here, after none), and finds the value it finds alone.
#[test]
fn successors_another_thread_expands_are_searched_last() {
    use crate::game::board::Cram;
    use crate::sg::naive::Naive;
    use crate::sg::shared::SharedValues;
    use std::sync::Arc;

    let cram = Cram::<u64>::new("cram", 4, 5).unwrap();
    let full = cram.full();
    let want = Naive::new(&cram, SearchConfig::default()).nimber(full);
    for name in ["cut_cEA", "cut_cE", "scut_cE", "cut_E"] {
        let table = Arc::new(SharedValues::new(2, None));
        let share = Sharing {
            table: Arc::clone(&table),
            index: 0,
            threads: 2,
            plies: 0,
        };
        let cfg = SearchConfig::default();
        let variant = name.parse().unwrap();
        let mut s = CutSearch::new(&cram, variant, cfg).sharing(share);
        let (mut moves, mut parts) = (Vec::new(), Vec::new());
        crate::sg::list_moves(&cram, &cfg, &full, &mut moves);
        for m in moves {
            s.shaper.shape_into(m, &mut parts);
        }
        parts.sort_unstable();
        parts.dedup();
        let marks: Vec<_> = parts.iter().filter_map(|p| table.enter(p)).collect();
        assert!(marks.len() > 5, "{name}: {} marks", marks.len());
        assert_eq!(s.nimber(full), want, "{name}");
        // The search left the other thread's marks as they were.
        assert_eq!(
            parts.iter().filter(|p| table.searched(p)).count(),
            marks.len()
        );
        marks.into_iter().for_each(|m| table.leave(m));
        assert!(!parts.iter().any(|p| table.searched(p)));
    }
}

#[test]
fn names_round_trip() {
    for name in Variant::PAPER {
        let v: Variant = name.parse().unwrap();
        assert_eq!(v.to_string(), name);
    }
}

#[test]
fn an_entry_with_a_word_key_fills_sixteen_bytes() {
    assert_eq!(std::mem::size_of::<Option<(u64, Entry)>>(), 16);
    for v in [0, 1, PARTIAL - 1] {
        assert!(matches!(Entry::exact(v).held(), Held::Exact(x) if x == v));
    }
    for i in [0, 5, (PARTIAL - 2) as usize] {
        assert!(matches!(Entry::partial(i).held(), Held::Partial(j) if j == i));
    }
}

#[test]
fn bad_names_are_refused() {
    for bad in ["cutt", "cut_X", "def_E", "cut_RE", "def_A"] {
        assert!(bad.parse::<Variant>().is_err(), "{bad}");
    }
}
