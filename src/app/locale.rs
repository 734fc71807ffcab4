//! Picking the interface language from the system locale.
