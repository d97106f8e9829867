//! Human-readable quantities for messages.

/// A byte count in the largest binary unit that keeps it at least 1: `512 bytes`, `3.2 GiB`.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A duration for people: `0.25 s`, `12 s`, `29 min`, `3.1 h`, `5.2 days`.
pub(crate) fn format_seconds(seconds: f64) -> String {
    match seconds {
        s if s < 0.01 => "<0.01 s".to_string(),
        s if s < 10.0 => format!("{s:.2} s"),
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s if s < 3.0e7 => format!("{:.1} days", s / 86_400.0),
        s if s < 3.16e13 => format!("{:.0} years", s / 3.156e7),
        _ => "more than a million years".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{format_bytes, format_seconds};

    #[test]
    fn durations() {
        assert_eq!(format_seconds(0.001), "<0.01 s");
        assert_eq!(format_seconds(0.25), "0.25 s");
        assert_eq!(format_seconds(59.4), "59 s");
        assert_eq!(format_seconds(1750.0), "29 min");
        assert_eq!(format_seconds(4.0 * 3600.0), "4.0 h");
        assert_eq!(format_seconds(5.0 * 86_400.0), "5.0 days");
        assert_eq!(format_seconds(3.156e9), "100 years");
        assert_eq!(format_seconds(1e20), "more than a million years");
    }

    #[test]
    fn units() {
        assert_eq!(format_bytes(512), "512 bytes");
        assert_eq!(format_bytes(3 << 29), "1.5 GiB");
        assert_eq!(format_bytes(1 << 40), "1.0 TiB");
    }
}
