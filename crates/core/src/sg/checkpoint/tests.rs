//! Saved tables: written and read back, refused when damaged or another game's, never
//! shrunk by a save, and saved by a plan when asked.

use super::*;
use crate::game::board::Cram;
use crate::game::Stones;
use crate::sg::SearchConfig;
use std::sync::Mutex;

/// The plan's hook saves when asked (`now`), clears the request, and reports each save.
#[test]
fn a_plan_saves_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    let game = Cram::<u64>::new("cram:4x5", 4, 5).unwrap();
    let mut plan = Plan::new(&path, Duration::MAX);
    let heard = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&heard);
    plan.on_save = Arc::new(move |s, _| log.lock().unwrap().push(s.as_ref().unwrap().entries));
    plan.now.store(true, Ordering::Relaxed);
    let engine: crate::sg::SearchEngine = "cut_cEA".parse().unwrap();
    let mut s = engine.searcher(&game, SearchConfig::default());
    assert_eq!(
        keep(s.as_mut(), "cram:4x5", &plan).unwrap(),
        Loaded::default()
    );
    assert_eq!(s.nimber(game.full()), 2);
    assert!(!plan.now.load(Ordering::Relaxed), "the request was met");
    let heard = heard.lock().unwrap();
    assert_eq!(heard.len(), 1, "once asked, never due otherwise");
    assert_eq!(
        load(&path, "cram:4x5", &mut |_: u64, _, _| {})
            .unwrap()
            .map(|l| l.entries),
        Some(heard[0])
    );
}

/// Saves made while other threads write to the shared table (Young Brothers Wait and the
/// naive split, on 2 threads) are whole: each header counts the entries written, and every
/// entry of the last file is the position's nimber.
#[test]
fn saves_while_other_threads_search_are_whole() {
    let game = Cram::<u64>::new("cram:5x5", 5, 5).unwrap();
    let mut naive = crate::sg::naive::Naive::new(&game, SearchConfig::default());
    for engine in ["cut_cEA", "naive"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.table");
        let mut plan = Plan::new(&path, Duration::ZERO);
        let heard = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&heard);
        plan.on_save = Arc::new(move |s: &Result<Saved, Error>, _| {
            log.lock()
                .unwrap()
                .push(s.as_ref().map(|s| s.entries).map_err(|e| e.to_string()))
        });
        let engine: crate::sg::SearchEngine = engine.parse().unwrap();
        let cfg = SearchConfig {
            threads: 2,
            ..SearchConfig::default()
        };
        let mut s = engine.searcher(&game, cfg);
        keep(s.as_mut(), "cram:5x5", &plan).unwrap();
        assert_eq!(s.nimber(game.full()), naive.nimber(game.full()));
        let heard = heard.lock().unwrap();
        assert!(
            heard.len() > 1,
            "{engine}: {} saves {:?}",
            heard.len(),
            s.stats()
        );
        for saved in heard.iter() {
            assert!(saved.is_ok(), "{engine}: {saved:?}");
        }
        let mut entries = Vec::new();
        load(&path, "cram:5x5", &mut |p: u64, v, _| entries.push((p, v))).unwrap();
        assert!(!entries.is_empty());
        for (p, v) in entries {
            assert_eq!(v, naive.nimber(p), "{engine}: {p:#x}");
        }
    }
}

/// A table as a list, for the tests.
struct List<P>(Vec<(P, Nimber, Weight)>);

/// A list of entries that weigh 7.
fn list<P>(entries: impl IntoIterator<Item = (P, Nimber)>) -> List<P> {
    List(entries.into_iter().map(|(p, v)| (p, v, 7)).collect())
}

impl<P> Known<P> for List<P> {
    fn each_known(&self, f: &mut dyn FnMut(&P, Nimber, Weight)) {
        for (p, v, w) in &self.0 {
            f(p, *v, *w);
        }
    }

    fn held_still(&self, f: &mut dyn FnMut(&dyn Known<P>)) {
        f(self)
    }
}

fn round_trip<P: Record + Clone + PartialEq + std::fmt::Debug>(entries: Vec<(P, Nimber, Weight)>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    let saved = save(&path, "g:1", &List(entries.clone())).unwrap();
    assert_eq!(saved.entries, entries.len() as u64);
    let mut back = Vec::new();
    let n = load(&path, "g:1", &mut |p, v, w| back.push((p, v, w))).unwrap();
    assert_eq!(n.map(|l| l.learned), Some(entries.len() as u64));
    assert_eq!(back, entries);
}

#[test]
fn tables_read_back_as_written() {
    round_trip(vec![
        (5u64, 1, 3),
        (u64::MAX, MAX_VALUE, UNKNOWN),
        (0, 0, 0),
    ]);
    round_trip(vec![(1u128 << 100 | 7, 3, 40)]);
    round_trip::<u64>(vec![]);
    let stones = |v: &[u32]| v.iter().copied().collect::<Stones>();
    round_trip(vec![
        (stones(&[3, 0, 3]), 0, 1),
        (stones(&[]), 0, 0),
        (stones(&[9; 12]), 1, 20),
    ]);
}

/// A file of the first version (entries without weights) is read, each entry of unknown
/// weight; its checksum is still checked.
#[test]
fn first_version_tables_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    let mut bytes = b"grundy table 1\ngame g\nkey u64\nentries 00000000000000000002\n\n".to_vec();
    let mut body = Vec::new();
    for (p, v) in [(9u64, 2u32), (4, 0)] {
        body.extend_from_slice(&p.to_le_bytes());
        body.extend_from_slice(&v.to_le_bytes());
    }
    bytes.extend_from_slice(&body);
    bytes.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let mut back = Vec::new();
    load(&path, "g", &mut |p: u64, v, w| back.push((p, v, w))).unwrap();
    assert_eq!(back, [(9, 2, UNKNOWN), (4, 0, UNKNOWN)]);
    let at = bytes.len() - 6;
    bytes[at] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(load(&path, "g", &mut |_: u64, _, _| {}).is_err(), "damaged");
}

/// A learner with room for fewer entries than the file holds gets every k-th.
#[test]
fn a_small_learner_gets_an_even_share() {
    struct Small(Vec<u64>);
    impl Learner<u64> for Small {
        fn room(&mut self, entries: u64) -> u64 {
            assert_eq!(entries, 100);
            10
        }
        fn learn(&mut self, p: u64, _: Nimber, _: Weight) {
            self.0.push(p);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    save(&path, "g", &list((0..100u64).map(|i| (i, 0)))).unwrap();
    let mut small = Small(Vec::new());
    let loaded = load(&path, "g", &mut small).unwrap();
    assert_eq!(
        loaded,
        Some(Loaded {
            entries: 100,
            learned: 10
        })
    );
    assert_eq!(small.0, (0..100).step_by(10).collect::<Vec<u64>>());
    let mut seen = Vec::new();
    load(&path, "g", &mut |p: u64, _, _| seen.push(p)).unwrap();
    assert_eq!(seen, (0..100).collect::<Vec<u64>>(), "a closure takes all");
}

#[test]
fn no_file_is_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let got = load::<u64>(&dir.path().join("none"), "g", &mut |_, _, _| {
        panic!("no entry")
    });
    assert_eq!(got.unwrap(), None);
}

/// A file of another game or key, cut short, damaged or grown is refused, and nothing of
/// it is learned.
#[test]
fn other_or_damaged_tables_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    let entries: Vec<(u64, Nimber)> = (0..100).map(|i| (i * 7919, (i % 5) as u32)).collect();
    save(&path, "cram:4x5", &list(entries)).unwrap();
    let good = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8], game: &str| {
        std::fs::write(&path, bytes).unwrap();
        let mut learned = 0;
        let got = load::<u64>(&path, game, &mut |_, _, _| learned += 1);
        assert_eq!(learned, 0);
        match got {
            Err(e @ Error::Data { .. }) => e.to_string(),
            other => panic!("{other:?}"),
        }
    };
    assert!(refused(&good, "cram:5x4").contains("a table of cram:4x5, not of cram:5x4"));
    assert!(
        load::<u128>(&path, "cram:4x5", &mut |_, _, _| {}).is_err(),
        "another key"
    );
    assert!(refused(&good[..good.len() - 1], "cram:4x5").contains("checksum"));
    assert!(refused(&good[..good.len() - 9], "cram:4x5").contains("an entry"));
    let mut flipped = good.clone();
    let at = good.len() - 30;
    flipped[at] ^= 4;
    assert!(refused(&flipped, "cram:4x5").contains("damaged"));
    let mut longer = good.clone();
    longer.push(0);
    assert!(refused(&longer, "cram:4x5").contains("follow"));
    assert!(refused(b"hello\n", "cram:4x5").contains("first line"));
    assert!(refused(b"", "cram:4x5").contains("first line"));
}

/// A save never replaces a larger table of its game: the file is kept, and the save is
/// refused as a resource error; an equal or larger table, or another game's file, is
/// replaced.
#[test]
fn a_save_never_shrinks_the_table_it_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    save(&path, "g", &list((0..100u64).map(|i| (i, 0)))).unwrap();
    let before = std::fs::read(&path).unwrap();
    let smaller = save(&path, "g", &list((0..10u64).map(|i| (i, 1))));
    match smaller {
        Err(e @ Error::Resource(_)) => {
            assert!(e.to_string().contains("holds 100 entries"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read(&path).unwrap(), before, "the file is kept");
    let same = save(&path, "g", &list((0..100u64).map(|i| (i, 2)))).unwrap();
    assert_eq!(same.entries, 100);
    save(&path, "other", &list([(1u64, 2)])).unwrap();
    let mut back = Vec::new();
    load(&path, "other", &mut |p: u64, v, _| back.push((p, v))).unwrap();
    assert_eq!(back, [(1, 2)]);
}

/// A save that cannot be made leaves the last one whole.
#[test]
fn a_failed_save_keeps_the_last_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    save(&path, "g", &list([(1u64, 2)])).unwrap();
    assert!(save(&dir.path().join("no/such/dir/t"), "g", &list([(1u64, 2)])).is_err());
    let mut back = Vec::new();
    load(&path, "g", &mut |p: u64, v, _| back.push((p, v))).unwrap();
    assert_eq!(back, [(1, 2)]);
}

/// The checksum covers the header: a file whose game line was edited to another game of the
/// same key is refused as damaged, not read as that game's table; a file of the second
/// version, whose checksum covers its entries only, is still read.
#[test]
fn an_edited_header_is_refused_and_second_version_tables_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    save(&path, "cram:4x5", &list([(9u64, 2), (4, 0)])).unwrap();
    let good = std::fs::read(&path).unwrap();
    let text = String::from_utf8_lossy(&good).into_owned();
    assert!(text.starts_with("grundy table 3\n"), "{text}");
    let edited = String::from_utf8_lossy(&good).replacen("cram:4x5", "cram:5x4", 1);
    std::fs::write(&path, edited.as_bytes()).unwrap();
    let mut learned = 0;
    let got = load::<u64>(&path, "cram:5x4", &mut |_, _, _| learned += 1);
    assert_eq!(learned, 0);
    assert!(
        matches!(&got, Err(e @ Error::Data { .. }) if e.to_string().contains("damaged")),
        "{got:?}"
    );
    // The second version: the same entries, the checksum of the entries alone.
    let header = b"grundy table 2\ngame g\nkey u64\nentries 00000000000000000002\n\n";
    let mut body = Vec::new();
    for (p, v, w) in [(9u64, 2u32, 7u8), (4, 0, 1)] {
        body.extend_from_slice(&p.to_le_bytes());
        body.extend_from_slice(&v.to_le_bytes());
        body.push(w);
    }
    let mut bytes = header.to_vec();
    bytes.extend_from_slice(&body);
    bytes.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let mut back = Vec::new();
    load(&path, "g", &mut |p: u64, v, w| back.push((p, v, w))).unwrap();
    assert_eq!(back, [(9, 2, 7), (4, 0, 1)]);
}
