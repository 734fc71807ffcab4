//! Saving the game and settings atomically, and loading them back safely.
