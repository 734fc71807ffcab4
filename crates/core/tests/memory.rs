//! Memory (#39 item 6, docs/MEMORY.md): what the computer's searches and the analysis hold
//! on the heap, counted by this binary's own allocator, so that the figures are exact
//! bytes, not the resident size of a process (which the allocator and the system blur).
//! A kept search memory allocates nothing until its first search, an analysis holds one
//! transposition table per thread at most, and everything it allocated is given back
//! when it ends.
//!
//! `write_memory_fixture` (ignored) writes the data folders `tools/memory.sh` measures:
//! `HALMA_MEMORY_FIXTURE=<dir> cargo test --release --test memory -- --ignored`.

use halma_ai::analysis::{self, AnalysisRequest, Quality};
use halma_ai::{Level, SearchMemory, SearchRequest};
use halma_core::session::{GameConfig, Player, Session};
use halma_core::settings::Settings;
use halma_core::storage::{Store, SESSION, SETTINGS};
use halma_rules::{Game, Seat, Setup};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The system's allocator, counting the bytes allocated and not yet freed (`LIVE`) and
/// the most there were since the last [`reset_peak`] (`PEAK`).
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            counted(layout.size());
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if !pointer.is_null() {
            counted(layout.size());
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: `pointer` was allocated by `System` with `layout` (every path above).
        unsafe { System.dealloc(pointer, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        on_this_thread(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`, and `new_size` is the caller's.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            on_this_thread(-(layout.size() as isize));
            counted(new_size);
        }
        moved
    }
}

fn counted(size: usize) {
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
    on_this_thread(size as isize);
}

thread_local! {
    /// Bytes allocated minus bytes freed by the current thread: what one thread's own work
    /// holds, whatever the test harness's other threads allocate meanwhile (a whole-process
    /// count saw 1,325 bytes of the harness's once).
    static THIS_THREAD: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
}

fn on_this_thread(bytes: isize) {
    // `try_with`: a thread being torn down frees after its locals are gone.
    let _ = THIS_THREAD.try_with(|held| held.set(held.get() + bytes));
}

fn held_by_this_thread() -> isize {
    THIS_THREAD.try_with(std::cell::Cell::get).unwrap_or(0)
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The tests of this file one at a time: each counts the whole process's allocations.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Starts a new peak from what is allocated now.
fn reset_peak() -> usize {
    let now = live();
    PEAK.store(now, Ordering::Relaxed);
    now
}

const MIB: usize = 1 << 20;

/// A 2-player game of `actions` actions or fewer (less when it ends): Strong (A) against
/// Casual (C), seeded.
fn computer_game(seed: u64, actions: usize) -> Game {
    let stop = AtomicBool::new(false);
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    while !game.is_over() && game.history().len() < actions {
        let level = if game.to_move() == Seat::A { Level::Strong } else { Level::Casual };
        let request = SearchRequest::new(level).with_seed(seed * 1000 + game.history().len() as u64);
        let action = halma_ai::choose_action(&game, &request, &stop).expect("an ongoing game has an action");
        game.play_action(&action).expect("the computer's action is legal");
    }
    game
}

#[test]
fn a_search_memory_allocates_nothing_before_its_first_search() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // Counted on this thread only: SearchMemory::new runs here, and nothing else does.
    let before = held_by_this_thread();
    let memory = SearchMemory::new();
    let held = held_by_this_thread() - before;
    assert!(held < 1024, "{held} bytes for an unused memory");
    drop(memory);
}

#[test]
fn an_analysis_holds_one_table_per_thread_and_gives_everything_back() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let game = computer_game(1, 40);
    let threads = 2;
    let before = reset_peak();
    let analysed = analysis::analyse(
        &game,
        &AnalysisRequest::new(Quality::QUICK).with_threads(threads),
        &AtomicBool::new(false),
        &mut |_, _| {},
    )
    .expect("the analysis ends");
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert_eq!(analysed.actions.len(), game.history().len());
    drop(analysed);
    // Each thread's table (2^17 slots of 16 bytes, 2 MiB), and under a MiB besides.
    let tables = threads * analysis::TABLE_BYTES;
    assert!(peak <= tables + MIB, "peak {peak} bytes for {threads} tables of {} bytes", analysis::TABLE_BYTES);
    // The test harness may allocate a few bytes meanwhile (another test's thread).
    let left = live().saturating_sub(before);
    assert!(left < 4096, "{left} bytes still allocated after the analysis and its result went");
}

/// Writes the data folders `tools/memory.sh` starts the app with: `analysed/` holds a
/// finished 2-player game of about 175 actions (a person against Casual) with its analysis at the
/// app's quality, `unanalysed/` the same game without it, `fresh/` nothing.
#[test]
#[ignore = "a tool: tools/memory.sh runs it"]
fn write_memory_fixture() {
    let Some(root) = std::env::var_os("HALMA_MEMORY_FIXTURE").map(PathBuf::from) else {
        panic!("HALMA_MEMORY_FIXTURE names the folder to write");
    };
    // The first seed whose game ends with 175 to 180 actions (seed 2: 177).
    let game = (0..50).map(|seed| computer_game(seed, 181)).find(|game| game.is_over() && game.history().len() >= 175);
    let game = game.expect("a seed whose game ends with 175 to 180 actions");
    let config = GameConfig {
        setup: Setup::TwoPlayers,
        first: Seat::A,
        players: [Player::Human, Player::Human, Player::Computer(Level::Casual), Player::Human].into(),
    };
    let plain = Session::with_game(config, game.clone()).expect("the seats fit the game");
    let request = AnalysisRequest::new(Quality::DEFAULT);
    let analysed = analysis::analyse(&game, &request, &AtomicBool::new(false), &mut |_, _| {}).expect("analysed");
    let mut with_analysis = plain.clone();
    assert!(with_analysis.set_analysis(analysed), "the analysis is the game's");
    for (name, session) in [("analysed", Some(&with_analysis)), ("unanalysed", Some(&plain)), ("fresh", None)] {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir).expect("a folder");
        if let Some(session) = session {
            // A returning player: the first-game guide was seen.
            let settings = Settings { guide_seen: true, ..Settings::default() };
            Store::new(&dir).save(SETTINGS, &settings).expect("saved");
            Store::new(&dir).save(SESSION, session).expect("saved");
        }
    }
}
