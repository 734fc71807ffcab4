//! The Android entry point and lifecycle.
