//! What a run needs before it starts: the memory its values take, and the disk when they are
//! held there ([`super::Keeping`]); a run that lacks either is refused in one line.

use crate::error::Error;
use crate::game::heap::HeapRule;

/// Bytes [`super::analyse`] holds at most to value heaps up to `max_heap`: the valuation's
/// ([`HeapRule::compact_valuation_bytes`]). Examining a round's values for a period keeps
/// nothing per heap (`repeats`). (Measured peak: see docs/heap-games.md.)
pub fn memory_needed(rule: &dyn HeapRule, max_heap: usize) -> u64 {
    rule.compact_valuation_bytes(max_heap)
}

/// Refuses, before any heap is valued, a run to `max_heap` that needs more than `limit` bytes
/// ([`memory_needed`]).
pub fn check_memory(rule: &dyn HeapRule, max_heap: usize, limit: u64) -> Result<(), Error> {
    let bytes = memory_needed(rule, max_heap);
    if bytes <= limit {
        return Ok(());
    }
    use crate::units::format_bytes;
    Err(Error::limit(
        crate::error::Setting::MemoryLimit,
        format!(
            "valuing the heaps of {} up to {max_heap} needs {}; the memory limit is {}",
            rule.name(),
            format_bytes(bytes),
            format_bytes(limit)
        ),
    ))
}

/// Refuses, before any heap is valued, a run to `max_heap` that lacks what it needs: with its
/// values in a file of `disk`, [`check_on_disk`]; else [`check_memory`]. Every front end asks
/// this before [`super::analyse_kept`].
pub fn check_room(
    rule: &dyn HeapRule,
    max_heap: usize,
    limit: u64,
    disk: Option<&std::path::Path>,
) -> Result<(), Error> {
    match disk {
        Some(dir) => check_on_disk(rule, max_heap, limit, dir),
        None => check_memory(rule, max_heap, limit),
    }
}

/// Refuses, before any heap is valued, a run to `max_heap` holding its values in a file of
/// `dir` ([`crate::game::heap::Values::on_disk`]) when the rule's valuation cannot
/// ([`HeapRule::values_in_place`]), when memory lacks `limit` bytes for the rest
/// ([`memory_needed`] but the values), or when `dir` has no room for a byte a value.
pub fn check_on_disk(
    rule: &dyn HeapRule,
    max_heap: usize,
    limit: u64,
    dir: &std::path::Path,
) -> Result<(), Error> {
    use crate::error::Setting;
    use crate::units::format_bytes;
    valued_in_place(rule)?;
    let values = max_heap as u64 + 1;
    let rest = memory_needed(rule, max_heap).saturating_sub(values);
    if rest > limit {
        return Err(Error::limit(
            Setting::MemoryLimit,
            format!(
                "valuing the heaps of {} up to {max_heap} with the values on disk needs {} of \
                 memory; the memory limit is {}",
                rule.name(),
                format_bytes(rest),
                format_bytes(limit)
            ),
        ));
    }
    let free = fs4::available_space(dir).map_err(|e| Error::io(dir, e))?;
    if values > free {
        return Err(Error::limit(
            Setting::DiskRoom,
            format!(
                "the values of {} up to {max_heap} take {} on disk; {} has {} free",
                rule.name(),
                format_bytes(values),
                dir.display(),
                format_bytes(free)
            ),
        ));
    }
    Ok(())
}

/// Refuses values on disk for a rule whose valuation holds them in memory at full width
/// ([`HeapRule::values_in_place`]), where the file would only be copied from.
pub(super) fn valued_in_place(rule: &dyn HeapRule) -> Result<(), Error> {
    match rule.values_in_place() {
        true => Ok(()),
        false => Err(Error::refused(
            crate::error::OptionKey::OnDisk,
            format!(
                " holds the values of rules valued in place (Grundy's game, codes that split \
                 heaps into two, codes that never split one); {} is valued at full width in \
                 memory",
                rule.name()
            ),
        )),
    }
}
