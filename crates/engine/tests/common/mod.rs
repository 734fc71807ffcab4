//! The shared test helpers (`halma-test-support`) and a live `halma-engine` (`engine`),
//! whose binary only this crate's tests can name.
#[allow(unused_imports)]
pub use halma_test_support::*;

pub mod engine;
