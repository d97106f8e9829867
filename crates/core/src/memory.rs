//! How much memory the machine can give: read in this one place, so every default limit is
//! the same fraction of the same reading.

/// Used when `/proc/meminfo` cannot be read.
const FALLBACK: u64 = 8 << 30;

/// Bytes of memory the system can still hand out (`MemAvailable` in `/proc/meminfo`), or 8 GiB
/// when that cannot be read.
pub fn available() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| parse_available(&info))
        .unwrap_or(FALLBACK)
}

/// The default memory limit of every computation: 80% of what is available.
pub fn default_limit() -> u64 {
    available() / 5 * 4
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn parse_available(info: &str) -> Option<u64> {
    info.lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|kib| kib.trim().parse::<u64>().ok())
        .map(|kib| kib.saturating_mul(1024))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_read_in_bytes() {
        let info = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20480 kB\n";
        assert_eq!(parse_available(info), Some(20480 * 1024));
        assert_eq!(parse_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_available("MemAvailable: lots\n"), None);
    }
}
