//! Sprague-Grundy engines: from positions to nimbers and whole tables.

pub mod nimset;
pub mod tt;
