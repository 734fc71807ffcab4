//! Play over the network between two in-process peers on loopback TCP: a whole game, a
//! connection cut while a move is in flight, a side killed and restarted from its saved
//! game, and a hostile peer speaking the protocol of docs/NETWORK.md by hand.

use halma_ai::{choose_action, Level, SearchRequest};
use halma_core::correspondence::GameId;
use halma_core::lan::agree::digest;
use halma_core::lan::{proof, ByeReason, DropReason, HostConfig, JoinCode, JoinConfig, LanEvent, LanLink, Wire};
use halma_record::Record;
use halma_rules::{Action, Game, Seat, SeatSet, Setup};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(15);

fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

fn computer_move(game: &Game, seed: u64) -> Action {
    let request = SearchRequest::new(Level::Greedy).with_seed(seed);
    choose_action(game, &request, &AtomicBool::new(false)).expect("the game goes on")
}

/// One side: its link and the game its "UI" holds, kept by the link's events.
struct Peer {
    link: LanLink,
    game: Option<Game>,
    seats: SeatSet,
}

impl Peer {
    fn new(link: LanLink, game: Option<Game>, seats: SeatSet) -> Peer {
        Peer { link, game, seats }
    }

    /// Applies events until one matches `until`, which is returned; fails after [`WAIT`].
    fn pump(&mut self, what: &str, until: impl Fn(&LanEvent) -> bool) -> LanEvent {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(event) = self.link.next_event(left) else { panic!("no '{what}' within {WAIT:?}") };
            match &event {
                LanEvent::Synced { game, guest_seats, .. } => {
                    self.game = Some(game.clone());
                    if self.seats.is_empty() {
                        self.seats = *guest_seats;
                    }
                }
                LanEvent::Played { action, .. } => {
                    let game = self.game.as_mut().expect("a game before moves");
                    game.play_action(action).expect("the link checked it");
                }
                LanEvent::DrawOffered { .. } => {
                    self.game.as_mut().expect("a game").offer_draw().expect("the link checked it");
                }
                LanEvent::DrawVoted { seat, accept } => {
                    self.game.as_mut().expect("a game").answer_draw(*seat, *accept).expect("the link checked it");
                }
                LanEvent::Undone { to } => {
                    let game = self.game.as_mut().expect("a game");
                    let mut fresh = Game::from_position(*game.start_position());
                    for action in &game.history()[..*to] {
                        fresh.play_action(action).expect("replays");
                    }
                    *game = fresh;
                }
                LanEvent::Refused(refusal) => panic!("refused: {refusal:?}"),
                _ => {}
            }
            if until(&event) {
                return event;
            }
        }
    }

    fn game(&self) -> &Game {
        self.game.as_ref().expect("a game")
    }

    fn to_move_here(&self) -> bool {
        self.seats.contains(self.game().to_move())
    }

    /// Plays the computer's move for this side's seat, as the UI would after Confirm.
    fn play(&mut self, seed: u64) -> Action {
        let action = computer_move(self.game(), seed);
        self.game.as_mut().expect("a game").play_action(&action).expect("legal");
        self.link.play(action.clone());
        action
    }
}

fn synced(event: &LanEvent) -> bool {
    matches!(event, LanEvent::Synced { .. })
}

fn host_and_guest(game: Game, via: Option<&Proxy>) -> (Peer, Peer, HostConfig) {
    let config = HostConfig { id: GameId::random(), code: JoinCode::random(), guest_seats: SeatSet::single(Seat::C) };
    let host = LanLink::host(loopback(), config, game.clone()).expect("hosting");
    let addr = host.local_addr().expect("an address");
    let addr = match via {
        Some(proxy) => {
            proxy.target(addr);
            proxy.addr
        }
        None => addr,
    };
    let guest = LanLink::join(JoinConfig { addr, code: config.code, id: None }, None);
    let mut host = Peer::new(host, Some(game), SeatSet::single(Seat::A));
    let mut guest = Peer::new(guest, None, SeatSet::EMPTY);
    host.pump("host synced", synced);
    guest.pump("guest synced", synced);
    assert_eq!(guest.seats, SeatSet::single(Seat::C));
    assert_eq!(guest.game(), host.game());
    (host, guest, config)
}

/// Plays one move of whichever side is to move and waits for the other to see it.
fn one_move(a: &mut Peer, b: &mut Peer, seed: u64) {
    let (mover, watcher) = if a.to_move_here() { (a, b) } else { (b, a) };
    let action = mover.play(seed);
    let seen = watcher.pump("the move", |event| matches!(event, LanEvent::Played { .. }));
    assert_eq!(seen, LanEvent::Played { seat: mover.game().actor(mover.game().history().len() - 1), action });
    assert_eq!(watcher.game(), mover.game());
}

#[test]
fn a_whole_game_over_loopback() {
    let (mut host, mut guest, _) = host_and_guest(Game::new(Setup::TwoPlayers, Seat::A), None);
    let mut seed = 0;
    while !host.game().is_over() {
        seed += 1;
        assert!(seed < 2000, "the game did not end");
        one_move(&mut host, &mut guest, seed);
    }
    assert!(guest.game().is_over());
    assert_eq!(guest.game(), host.game());
    guest.link.close();
    let event = host.pump("the guest's bye", |event| matches!(event, LanEvent::Disconnected { .. }));
    assert_eq!(
        event,
        LanEvent::Disconnected {
            reason: DropReason::PeerSaid { reason: ByeReason::Done, text: String::new() },
            retrying: true
        }
    );
}

#[test]
fn draw_offers_and_undo_need_the_other_sides_word() {
    let (mut host, mut guest, _) = host_and_guest(Game::new(Setup::TwoPlayers, Seat::A), None);
    for seed in 1..=4 {
        one_move(&mut host, &mut guest, seed);
    }
    // Blue (the host's seat) offers a draw; Purple (the guest's) refuses; Blue's turn goes on.
    host.game.as_mut().expect("a game").offer_draw().expect("may offer");
    host.link.offer_draw();
    assert_eq!(
        guest.pump("the offer", |e| matches!(e, LanEvent::DrawOffered { .. })),
        LanEvent::DrawOffered { seat: Seat::A }
    );
    guest.game.as_mut().expect("a game").answer_draw(Seat::C, false).expect("may refuse");
    guest.link.vote(false);
    let vote = host.pump("the vote", |e| matches!(e, LanEvent::DrawVoted { .. }));
    assert_eq!(vote, LanEvent::DrawVoted { seat: Seat::C, accept: false });
    assert_eq!(host.game(), guest.game());
    one_move(&mut host, &mut guest, 5);
    one_move(&mut host, &mut guest, 6);

    // Purple asks to take back its move; Blue agrees: both games lose it.
    guest.link.request_undo(5);
    assert_eq!(
        host.pump("the request", |e| matches!(e, LanEvent::UndoRequested { .. })),
        LanEvent::UndoRequested { to: 5 }
    );
    host.link.answer_undo(true);
    host.pump("undone here", |e| matches!(e, LanEvent::Undone { .. }));
    assert_eq!(guest.pump("undone there", |e| matches!(e, LanEvent::Undone { .. })), LanEvent::Undone { to: 5 });
    assert_eq!(host.game().history().len(), 5);
    assert_eq!(host.game(), guest.game());
    // Asked again after its new move, Blue refuses: nothing changes.
    one_move(&mut host, &mut guest, 7);
    guest.link.request_undo(5);
    host.pump("the request", |e| matches!(e, LanEvent::UndoRequested { .. }));
    host.link.answer_undo(false);
    assert_eq!(guest.pump("refused", |e| matches!(e, LanEvent::UndoRefused { .. })), LanEvent::UndoRefused { to: 5 });
    assert_eq!(host.game().history().len(), 6);
    one_move(&mut host, &mut guest, 8);
    assert_eq!(host.game(), guest.game());
}

/// A TCP relay between the guest and the host that the test can cut and restore, as a
/// Wi-Fi network that drops out.
struct Proxy {
    addr: SocketAddr,
    target: Arc<Mutex<Option<SocketAddr>>>,
    cut: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn start() -> Proxy {
        let listener = TcpListener::bind(loopback()).expect("a relay");
        let addr = listener.local_addr().expect("its address");
        let target = Arc::new(Mutex::new(None));
        let cut = Arc::new(AtomicBool::new(false));
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::new(Mutex::new(Vec::new()));
        let (t, c, o) = (target.clone(), cut.clone(), open.clone());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let to = *t.lock().expect("lock");
                if c.load(Ordering::SeqCst) || to.is_none() {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Some(to) = to else { continue };
                let Ok(server) = TcpStream::connect(to) else { continue };
                let mut list = o.lock().expect("lock");
                for (from, into) in [(&client, &server), (&server, &client)] {
                    let (Ok(mut from), Ok(mut into)) = (from.try_clone(), into.try_clone()) else { continue };
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut into);
                        let _ = into.shutdown(Shutdown::Both);
                    });
                }
                list.push(client);
                list.push(server);
            }
        });
        Proxy { addr, target, cut, open }
    }

    fn target(&self, addr: SocketAddr) {
        *self.target.lock().expect("lock") = Some(addr);
    }

    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for stream in self.open.lock().expect("lock").drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

#[test]
fn a_cut_connection_comes_back_and_agrees_on_the_history() {
    let proxy = Proxy::start();
    let (mut host, mut guest, _) = host_and_guest(Game::new(Setup::TwoPlayers, Seat::A), Some(&proxy));
    for seed in 1..=6 {
        one_move(&mut host, &mut guest, seed);
    }
    // The host's move goes out while the network is down: it is in flight when the cut comes.
    assert!(host.to_move_here());
    proxy.cut();
    let in_flight = host.play(7);
    let dropped = guest.pump("the guest sees the cut", |event| matches!(event, LanEvent::Disconnected { .. }));
    assert!(matches!(dropped, LanEvent::Disconnected { retrying: true, .. }), "{dropped:?}");
    proxy.restore();
    let event = guest.pump("the guest's resync", synced);
    let LanEvent::Synced { gained, taken_back, .. } = event else { unreachable!() };
    assert_eq!((gained, taken_back), (1, 0), "the move in flight arrives by the sync");
    assert_eq!(guest.game().history().last(), Some(&in_flight));
    assert_eq!(guest.game(), host.game());
    // Play goes on over the new connection.
    host.pump("the host's resync", synced);
    for seed in 8..=12 {
        one_move(&mut host, &mut guest, seed);
    }
    assert_eq!(guest.game(), host.game());
    assert_eq!(host.game().history().len(), 12);
}

#[test]
fn a_side_killed_and_restarted_from_its_save_agrees_on_the_longest_history() {
    let (mut host, mut guest, config) = host_and_guest(Game::new(Setup::TwoPlayers, Seat::A), None);
    for seed in 1..=4 {
        one_move(&mut host, &mut guest, seed);
    }
    // The guest's last save is from here; then it moves, and is killed before saving again.
    let guest_save = guest.game().clone();
    one_move(&mut host, &mut guest, 5);
    one_move(&mut host, &mut guest, 6);
    assert_eq!(host.game().history().len(), 6);
    let guest_link = std::mem::replace(
        &mut guest.link,
        LanLink::join(
            JoinConfig { addr: SocketAddr::from(([127, 0, 0, 1], 9)), code: config.code, id: Some(config.id) },
            None,
        ),
    );
    drop(guest_link);
    host.pump("the host sees the guest gone", |event| matches!(event, LanEvent::Disconnected { .. }));

    // Restarted from its save, with the game's id: the host's longer history is agreed.
    let addr = host.link.local_addr().expect("an address");
    let restarted =
        LanLink::join(JoinConfig { addr, code: config.code, id: Some(config.id) }, Some(guest_save.clone()));
    let mut guest = Peer::new(restarted, Some(guest_save), SeatSet::single(Seat::C));
    let event = guest.pump("the restarted guest's sync", synced);
    let LanEvent::Synced { gained, taken_back, .. } = event else { unreachable!() };
    assert_eq!((gained, taken_back), (2, 0));
    host.pump("the host's sync", synced);
    assert_eq!(guest.game(), host.game());

    // Now the host is killed: its save is older than the game (it lacks the guest's move).
    let host_save = host.game().clone();
    one_move(&mut host, &mut guest, 7);
    one_move(&mut host, &mut guest, 8);
    let host_save_len = host_save.history().len();
    drop(host);
    guest.pump("the guest sees the host gone", |event| matches!(event, LanEvent::Disconnected { retrying: true, .. }));
    let link = LanLink::host(addr, config, host_save.clone()).expect("hosting again on the same port");
    let mut host = Peer::new(link, Some(host_save), SeatSet::single(Seat::A));
    let event = host.pump("the restarted host's sync", synced);
    let LanEvent::Synced { gained, taken_back, .. } = event else { unreachable!() };
    assert_eq!((gained, taken_back), (2, 0));
    guest.pump("the guest's sync", synced);
    assert_eq!(host.game(), guest.game());
    assert_eq!(host.game().history().len(), host_save_len + 2);
}

/// A peer written by hand from docs/NETWORK.md.
struct Hostile {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Hostile {
    fn connect(addr: SocketAddr) -> Hostile {
        let stream = TcpStream::connect(addr).expect("connects");
        stream.set_read_timeout(Some(Duration::from_secs(5))).expect("a timeout");
        let reader = BufReader::new(stream.try_clone().expect("a clone"));
        Hostile { stream, reader }
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("a line in time");
        line.trim_end_matches('\n').to_string()
    }

    fn send(&mut self, text: &str) {
        self.stream.write_all(text.as_bytes()).expect("sent");
    }

    /// Reads lines until a `bye`, answering nothing.
    fn bye(&mut self) -> String {
        loop {
            let line = self.line();
            if line.starts_with("bye") || line.is_empty() {
                return line;
            }
        }
    }

    /// Joins properly (the right code, no game of its own); returns the host's game.
    fn join(addr: SocketAddr, code: JoinCode) -> (Hostile, Game) {
        let mut peer = Hostile::connect(addr);
        let greeting = peer.line();
        let host_nonce = greeting.split(' ').nth(2).expect("a nonce").to_string();
        let nonce = "0123456789abcdef";
        peer.send(&format!("hello 1 - {nonce} {}\n", proof("guest", code, &host_nonce, nonce, "-")));
        let welcome = peer.line();
        assert!(welcome.starts_with("welcome "), "{welcome}");
        let mut record = String::new();
        loop {
            let line = peer.line();
            if let Some(text) = line.strip_prefix("record ") {
                record.push_str(text);
                record.push('\n');
            } else {
                assert!(line.starts_with("record-end "), "{line}");
                break;
            }
        }
        let game = Record::parse(&record).expect("the host's record").game;
        peer.send("record-end 0\n");
        let synced = peer.line();
        assert_eq!(synced, format!("synced {} {}", game.history().len(), digest(&game)));
        peer.send(&format!("{synced}\n"));
        (peer, game)
    }
}

fn hosted() -> (Peer, HostConfig, SocketAddr) {
    let config = HostConfig { id: GameId::random(), code: JoinCode::random(), guest_seats: SeatSet::single(Seat::C) };
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    game.play_text("c3-d4").expect("legal");
    let link = LanLink::host(loopback(), config, game.clone()).expect("hosting");
    let addr = link.local_addr().expect("an address");
    (Peer::new(link, Some(game), SeatSet::single(Seat::A)), config, addr)
}

fn we_said(host: &mut Peer, expected: ByeReason) {
    let event = host.pump("the host ends the connection", |event| matches!(event, LanEvent::Disconnected { .. }));
    match event {
        LanEvent::Disconnected { reason: DropReason::WeSaid { reason, .. }, retrying: true } => {
            assert_eq!(reason, expected)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_wrong_code_is_refused() {
    let (mut host, config, addr) = hosted();
    let mut peer = Hostile::connect(addr);
    let greeting = peer.line();
    assert!(greeting.starts_with("halma-lan 1 "), "{greeting}");
    let host_nonce = greeting.split(' ').nth(2).expect("a nonce").to_string();
    let wrong = JoinCode::parse(if config.code.as_str() == "AAAAAA" { "BBBBBB" } else { "AAAAAA" }).expect("a code");
    let nonce = "0123456789abcdef";
    peer.send(&format!("hello 1 - {nonce} {}\n", proof("guest", wrong, &host_nonce, nonce, "-")));
    assert_eq!(peer.line(), "bye wrong-code");
    assert!(matches!(host.pump("told", |e| matches!(e, LanEvent::WrongCodeTried(_))), LanEvent::WrongCodeTried(_)));
    // A hello replayed from another connection fails too: the host's nonce is new each time.
    let mut again = Hostile::connect(addr);
    let _ = again.line();
    again.send(&format!("hello 1 - {nonce} {}\n", proof("guest", config.code, &host_nonce, nonce, "-")));
    assert_eq!(again.line(), "bye wrong-code");
}

#[test]
fn garbage_oversized_replayed_and_wrong_seat_messages_end_the_connection() {
    let (mut host, config, addr) = hosted();
    let before = host.game().clone();

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.send("garbage \u{2603}\n");
    assert_eq!(peer.bye(), "bye malformed malformed message: unknown message 'garbage'");
    we_said(&mut host, ByeReason::Malformed);

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.send(&"x".repeat(20_000));
    assert!(peer.bye().starts_with("bye too-long"));
    we_said(&mut host, ByeReason::TooLong);

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.send("move 1 a1-a2\n");
    assert!(peer.bye().starts_with("bye illegal"));
    we_said(&mut host, ByeReason::Illegal);
    assert_eq!(host.game(), &before, "nothing changed");

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.send("move 1 n14-m13\n");
    host.pump("the move", |e| matches!(e, LanEvent::Played { .. }));
    peer.send("move 1 n14-m13\n");
    assert!(peer.bye().starts_with("bye replayed"));
    we_said(&mut host, ByeReason::Replayed);
    assert_eq!(host.game().history().len(), 2, "the move counted once");

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.send("move 2 e2-f3\n");
    assert!(peer.bye().starts_with("bye wrong-seat"));
    we_said(&mut host, ByeReason::WrongSeat);
    assert_eq!(host.game().history().len(), 2);

    // A hello once joined is out of place.
    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.send(&Wire::Ping("abc".into()).to_line());
    assert_eq!(peer.line(), "pong abc");
    peer.send("hello 1 - 0123456789abcdef 0123456789abcdef0123456789abcdef\n");
    assert!(peer.bye().starts_with("bye malformed"));
    we_said(&mut host, ByeReason::Malformed);

    // A record of another game at the sync.
    let mut peer = Hostile::connect(addr);
    let greeting = peer.line();
    let host_nonce = greeting.split(' ').nth(2).expect("a nonce").to_string();
    let nonce = "fedcba9876543210";
    peer.send(&format!("hello 1 - {nonce} {}\n", proof("guest", config.code, &host_nonce, nonce, "-")));
    let _welcome = peer.line();
    let other = Record::new(Game::new(Setup::TwoPlayers, Seat::C)).to_text();
    for line in other.lines() {
        peer.send(&format!("record {line}\n"));
    }
    peer.send(&format!("record-end {}\n", other.lines().count()));
    assert!(peer.bye().starts_with("bye out-of-sync"));
    we_said(&mut host, ByeReason::OutOfSync);
    let mut rest = Vec::new();
    let _ = peer.reader.read_to_end(&mut rest);
    assert_eq!(host.game().history().len(), 2, "the host's game is untouched");
}

/// Discovery by mDNS where the network allows multicast: the host's announcement is found
/// with its game and port. Where multicast is blocked, starting either side fails or nothing
/// is heard, and players join by address; the test says so instead of failing.
#[test]
fn a_host_is_found_by_mdns_where_multicast_works() {
    use halma_core::lan::discovery::{Advertiser, Browser};
    let id = GameId::random();
    let (advertiser, browser) = match (Advertiser::start(id, 40404), Browser::start()) {
        (Ok(advertiser), Ok(browser)) => (advertiser, browser),
        (Err(why), _) | (_, Err(why)) => {
            eprintln!("mDNS not available here ({why}): joining by address is the way");
            return;
        }
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Some(found) = browser.poll().into_iter().find(|found| found.id == id) {
            assert!(found.addrs.iter().all(|addr| addr.port() == 40404), "{found:?}");
            assert!(!found.addrs.is_empty());
            drop(advertiser);
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!("no mDNS answer within 5 s: multicast is blocked on this machine");
}
