//! The `halma-engine` text protocol and the programs that speak it.
//!
//! - [`protocol`]: the engine's side: the interpreter, its answers, record files and I/O;
//! - [`engine_client`]: the client side, for engine programs the app or the arena runs;
//! - [`files`]: opening and creating files without blocking on a FIFO or following a
//!   planted link (the engine's record files, the app's saves).
//!
//! The binaries: `halma-engine` (crates/engine/src/bin/halma-engine.rs) and `halma-arena`.

pub mod engine_client;
pub mod files;
pub mod protocol;
