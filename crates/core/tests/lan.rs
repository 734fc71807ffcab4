//! Play over the network between two in-process peers on loopback TCP: a whole game, a
//! connection cut while a move is in flight, a side killed and restarted from its saved
//! game, and a hostile peer speaking the protocol of docs/NETWORK.md by hand.

use halma_ai::{choose_action, Level, SearchRequest};
use halma_core::correspondence::GameId;
use halma_core::lan::agree::digest;
use halma_core::lan::secure::{LineKeys, Pake};
use halma_core::lan::wire::hello_start;
use halma_core::lan::{ByeReason, DropReason, HostConfig, JoinCode, JoinConfig, LanEvent, LanLink, Wire};
use halma_record::Record;
use halma_rules::{Action, Game, Seat, SeatSet, Setup};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
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

/// A peer written by hand from docs/NETWORK.md, connecting from `source` (127.0.0.2,
/// 127.0.0.3 …: strangers on the network each have their own address).
struct Hostile {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
    /// The lines' keys once joined.
    keys: Option<LineKeys>,
}

fn from(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

impl Hostile {
    fn connect(addr: SocketAddr) -> Hostile {
        Hostile::connect_from(from(1), addr)
    }

    fn connect_from(source: IpAddr, addr: SocketAddr) -> Hostile {
        let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("a socket");
        socket.bind(&SocketAddr::new(source, 0).into()).expect("bound to its source address");
        socket.connect(&addr.into()).expect("connects");
        let stream: TcpStream = socket.into();
        stream.set_read_timeout(Some(Duration::from_secs(8))).expect("a timeout");
        let reader = BufReader::new(stream.try_clone().expect("a clone"));
        Hostile { stream, reader, keys: None }
    }

    /// The next raw line ("" once the connection closed).
    fn line(&mut self) -> String {
        let mut line = String::new();
        let _ = self.reader.read_line(&mut line);
        line.trim_end_matches('\n').to_string()
    }

    /// The next line after the join, its tag checked.
    fn message(&mut self) -> String {
        let line = self.line();
        let keys = self.keys.as_mut().expect("joined");
        keys.open(&line).unwrap_or_else(|_| panic!("a line that fails its tag: {line}")).to_string()
    }

    fn send(&mut self, text: &str) {
        self.stream.write_all(text.as_bytes()).expect("sent");
    }

    /// Sends a message after the join, with its tag.
    fn say(&mut self, message: &str) {
        let line = self.keys.as_mut().expect("joined").seal(message);
        self.send(&line);
    }

    /// The next message that is not the host's keep-alive `ping`.
    fn answer(&mut self) -> String {
        loop {
            let message = self.message();
            if !message.starts_with("ping ") {
                return message;
            }
        }
    }

    /// Reads messages until a `bye`, answering nothing.
    fn bye(&mut self) -> String {
        loop {
            let message = self.message();
            if message.starts_with("bye") || message.is_empty() {
                return message;
            }
        }
    }

    /// Reads the greeting, sends a hello with `code` (and `game`), and returns the host's
    /// answer: the welcome (its confirmation checked; the keys kept) or a `bye`.
    fn hello(&mut self, code: JoinCode, game: Option<GameId>) -> String {
        let greeting = self.line();
        let Some(host_message) = greeting.strip_prefix("halma-lan 2 ") else { return greeting };
        let (pake, message) = Pake::guest(code);
        let key = pake.finish(host_message).expect("a point");
        let start = hello_start(2, game, &message);
        self.send(&format!("{start} {}\n", key.guest_confirm(&start)));
        let answer = self.line();
        if let Some(words) = answer.strip_prefix("welcome ") {
            let words: Vec<&str> = words.split(' ').collect();
            let expected = key.host_confirm(&format!("welcome {} {}", words[0], words[2]));
            assert_eq!(words[1], expected, "the host's confirmation");
            self.keys = Some(key.lines(false));
        }
        answer
    }

    /// Joins properly (the right code, no game of its own); returns the host's game.
    fn join(addr: SocketAddr, code: JoinCode) -> (Hostile, Game) {
        Hostile::join_from(from(1), addr, code)
    }

    fn join_from(source: IpAddr, addr: SocketAddr, code: JoinCode) -> (Hostile, Game) {
        let mut peer = Hostile::connect_from(source, addr);
        let welcome = peer.hello(code, None);
        assert!(welcome.starts_with("welcome "), "{welcome}");
        let mut record = String::new();
        loop {
            let line = peer.message();
            if let Some(text) = line.strip_prefix("record ") {
                record.push_str(text);
                record.push('\n');
            } else {
                assert!(line.starts_with("record-end "), "{line}");
                break;
            }
        }
        let game = Record::parse(&record).expect("the host's record").game;
        peer.say("record-end 0");
        let synced = peer.message();
        assert_eq!(synced, format!("synced {} {}", game.history().len(), digest(&game)));
        peer.say(&synced);
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

fn other_code(code: JoinCode) -> JoinCode {
    JoinCode::parse(if code.as_str() == "AAAAAA" { "BBBBBB" } else { "AAAAAA" }).expect("a code")
}

#[test]
fn a_wrong_code_is_refused() {
    let (mut host, config, addr) = hosted();
    let mut peer = Hostile::connect(addr);
    assert_eq!(peer.hello(other_code(config.code), None), "bye wrong-code");
    assert!(matches!(host.pump("told", |e| matches!(e, LanEvent::WrongCodeTried(_))), LanEvent::WrongCodeTried(_)));
    // A hello replayed on another connection fails: the host's SPAKE2 message is new each
    // time, so the key the replayed confirmation was made with is not the new one.
    let mut first = Hostile::connect(addr);
    let greeting = first.line();
    let (pake, message) = Pake::guest(config.code);
    let key = pake.finish(greeting.strip_prefix("halma-lan 2 ").expect("a greeting")).expect("a point");
    let hello = format!("{} {}\n", hello_start(2, None, &message), key.guest_confirm(&hello_start(2, None, &message)));
    first.send(&hello);
    assert!(first.line().starts_with("welcome "));
    let mut again = Hostile::connect(addr);
    let _ = again.line();
    again.send(&hello);
    assert_eq!(again.line(), "bye wrong-code");
    // An older guest is told the version.
    let mut old = Hostile::connect(addr);
    let _ = old.line();
    old.send("hello 1 - 0123456789abcdef 0123456789abcdef0123456789abcdef\n");
    assert_eq!(old.line(), "bye version this host speaks version 2");
}

/// 20 wrong codes in a second from one stranger (127.0.0.2): after 3 it must wait, and is
/// told so; the real guest from its own address joins at once, and another address keeps
/// its own count.
#[test]
fn wrong_codes_are_limited_per_address_and_the_real_guest_still_joins() {
    let (mut host, config, addr) = hosted();
    let wrong = other_code(config.code);
    let mut answers = Vec::new();
    for _ in 0..20 {
        let mut stranger = Hostile::connect_from(from(2), addr);
        answers.push(stranger.hello(wrong, None));
    }
    assert_eq!(answers[..3], ["bye wrong-code", "bye wrong-code", "bye wrong-code"]);
    assert!(answers[3..].iter().all(|answer| answer.starts_with("bye too-many-attempts wait ")), "{answers:?}");
    // Even the right code waits, from that address.
    let mut stranger = Hostile::connect_from(from(2), addr);
    assert!(stranger.hello(config.code, None).starts_with("bye too-many-attempts"));
    // Another address has its own three.
    for _ in 0..3 {
        assert_eq!(Hostile::connect_from(from(3), addr).hello(wrong, None), "bye wrong-code");
    }
    // The real guest, from 127.0.0.1, joins.
    let started = Instant::now();
    let guest = LanLink::join(JoinConfig { addr, code: config.code, id: None }, None);
    let mut guest = Peer::new(guest, None, SeatSet::EMPTY);
    guest.pump("the real guest joins", synced);
    assert!(started.elapsed() < Duration::from_secs(2), "joined in {:?}", started.elapsed());
    host.pump("synced", synced);
    assert_eq!(guest.game(), host.game());
}

/// The waits grow per address: 3 wrong codes free, then 1 s, 2 s, 4 s … up to a minute.
#[test]
fn the_wait_after_wrong_codes_doubles_to_a_minute() {
    use halma_core::lan::Throttle;
    let (a, b) = (from(2), from(3));
    let mut throttle = Throttle::default();
    let now = Instant::now();
    for _ in 0..3 {
        assert_eq!(throttle.wait(a, now), None);
        throttle.wrong(a, now);
    }
    assert_eq!(throttle.wait(a, now), Some(Duration::from_secs(1)));
    assert_eq!(throttle.wait(a, now + Duration::from_secs(1)), None);
    throttle.wrong(a, now);
    assert_eq!(throttle.wait(a, now), Some(Duration::from_secs(2)));
    for _ in 0..10 {
        throttle.wrong(a, now);
    }
    assert_eq!(throttle.wait(a, now), Some(Duration::from_secs(60)));
    assert_eq!(throttle.wait(b, now), None, "another address is not held up");
    throttle.forget(a);
    assert_eq!(throttle.wait(a, now), None);
}

/// The host draws a new code while its guest plays: the guest stays, the old code no longer
/// joins, the new one does; a second guest with the right code takes the place, and the
/// first is told why (`bye replaced`) and stops.
#[test]
fn a_new_code_keeps_the_guest_and_a_second_guest_replaces_the_first() {
    let (mut host, mut guest, config) = host_and_guest(Game::new(Setup::TwoPlayers, Seat::A), None);
    one_move(&mut host, &mut guest, 1);
    let new = other_code(config.code);
    host.link.set_code(new);
    one_move(&mut host, &mut guest, 2);
    let addr = host.link.local_addr().expect("an address");
    assert_eq!(Hostile::connect_from(from(4), addr).hello(config.code, None), "bye wrong-code");
    host.pump("told", |e| matches!(e, LanEvent::WrongCodeTried(_)));
    one_move(&mut host, &mut guest, 3);
    let (mut second, game) = Hostile::join_from(from(5), addr, new);
    assert_eq!(&game, host.game());
    let ended = guest.pump("the first guest told", |e| matches!(e, LanEvent::Disconnected { .. }));
    match ended {
        LanEvent::Disconnected { reason: DropReason::PeerSaid { reason, text }, retrying } => {
            assert_eq!(
                (reason, text.as_str(), retrying),
                (ByeReason::Replaced, "another device joined with the code", false)
            );
        }
        other => panic!("{other:?}"),
    }
    host.pump("the second guest synced", synced);
    second.say("ping z1");
    assert_eq!(second.answer(), "pong z1");
}

/// Silent connections hold no place: a connection without its hello is dropped after
/// 3 s, each address waits with at most 2, and a new connection evicts the oldest of the
/// address with the most, so the real guest joins at once.
#[test]
fn silent_connections_are_dropped_and_give_way_to_the_real_guest() {
    let (mut host, config, addr) = hosted();
    let started = Instant::now();
    let mut silent: Vec<Hostile> = (0..8).map(|i| Hostile::connect_from(from(10 + i / 2), addr)).collect();
    for peer in &mut silent {
        assert!(peer.line().starts_with("halma-lan 2 "));
    }
    // A ninth from an address already waiting with two evicts that address's oldest.
    let mut ninth = Hostile::connect_from(from(10), addr);
    assert!(ninth.line().starts_with("halma-lan 2 "));
    assert_eq!(silent[0].line(), "bye busy another connection took the place");
    // The real guest evicts one of the strangers and joins.
    let guest = LanLink::join(JoinConfig { addr, code: config.code, id: None }, None);
    let mut guest = Peer::new(guest, None, SeatSet::EMPTY);
    guest.pump("the real guest joins", synced);
    host.pump("synced", synced);
    assert!(started.elapsed() < Duration::from_secs(3), "joined in {:?}", started.elapsed());
    // The others are dropped by the hello's time limit.
    let answer = ninth.line();
    let waited = started.elapsed();
    assert_eq!(answer, "bye timeout no answer in time");
    assert!(waited >= Duration::from_millis(2900) && waited < Duration::from_secs(5), "{waited:?}");
}

/// After the join every line carries its tag: a line without one, altered, or replayed is
/// refused with `bye forged`, which names it, and changes nothing.
#[test]
fn forged_lines_end_the_connection_and_change_nothing() {
    let (mut host, config, addr) = hosted();
    let before = host.game().clone();

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.send("move 1 n14-m13\n");
    assert_eq!(peer.bye(), "bye forged line 2 'move 1 n14-m13' fails its check");
    we_said(&mut host, ByeReason::Forged);

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    let line = peer.keys.as_mut().expect("keys").seal("move 1 n14-m13");
    peer.send(&line.replace("n14-m13", "n14-l13"));
    assert_eq!(peer.bye(), "bye forged line 2 'move 1 n14-l13' fails its check");
    we_said(&mut host, ByeReason::Forged);
    assert_eq!(host.game(), &before);

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    let line = peer.keys.as_mut().expect("keys").seal("ping a1");
    peer.send(&line);
    assert_eq!(peer.answer(), "pong a1");
    peer.send(&line);
    assert_eq!(peer.bye(), "bye forged line 3 'ping a1' fails its check");
    we_said(&mut host, ByeReason::Forged);
    assert_eq!(host.game(), &before);
}

#[test]
fn garbage_oversized_replayed_and_wrong_seat_messages_end_the_connection() {
    let (mut host, config, addr) = hosted();
    let before = host.game().clone();

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.say("garbage \u{2603}");
    assert_eq!(peer.bye(), "bye malformed malformed message: unknown message 'garbage'");
    we_said(&mut host, ByeReason::Malformed);

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.send(&"x".repeat(20_000));
    assert!(peer.bye().starts_with("bye too-long"));
    we_said(&mut host, ByeReason::TooLong);

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.say("move 1 a1-a2");
    assert!(peer.bye().starts_with("bye illegal"));
    we_said(&mut host, ByeReason::Illegal);
    assert_eq!(host.game(), &before, "nothing changed");

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.say("move 1 n14-m13");
    host.pump("the move", |e| matches!(e, LanEvent::Played { .. }));
    peer.say("move 1 n14-m13");
    assert!(peer.bye().starts_with("bye replayed"));
    we_said(&mut host, ByeReason::Replayed);
    assert_eq!(host.game().history().len(), 2, "the move counted once");

    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.say("move 2 e2-f3");
    assert!(peer.bye().starts_with("bye wrong-seat"));
    we_said(&mut host, ByeReason::WrongSeat);
    assert_eq!(host.game().history().len(), 2);

    // A hello once joined is out of place.
    let (mut peer, _) = Hostile::join(addr, config.code);
    host.pump("synced", synced);
    peer.say(Wire::Ping("abc".into()).text().as_str());
    assert_eq!(peer.answer(), "pong abc");
    peer.say("hello 2 - 0123456789abcdef 0123456789abcdef0123456789abcdef");
    assert!(peer.bye().starts_with("bye malformed"));
    we_said(&mut host, ByeReason::Malformed);

    // A record of another game at the sync.
    let mut peer = Hostile::connect(addr);
    assert!(peer.hello(config.code, None).starts_with("welcome "));
    let other = Record::new(Game::new(Setup::TwoPlayers, Seat::C)).to_text();
    for line in other.lines() {
        peer.say(&format!("record {line}"));
    }
    peer.say(&format!("record-end {}", other.lines().count()));
    assert!(peer.bye().starts_with("bye out-of-sync"));
    we_said(&mut host, ByeReason::OutOfSync);
    let mut rest = Vec::new();
    let _ = peer.reader.read_to_end(&mut rest);
    assert_eq!(host.game().history().len(), 2, "the host's game is untouched");
}

/// Whether this machine delivers an IPv4 multicast datagram sent to the mDNS group back to
/// a member socket on the same host (the way two Halma processes here would meet). Where it
/// does, discovery must work; where it does not, nothing can be found and players join by
/// address, which the other tests cover.
fn multicast_reaches_this_host() -> bool {
    use std::net::{Ipv4Addr, UdpSocket};
    let group = Ipv4Addr::new(224, 0, 0, 251);
    let Ok(member) = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)) else { return false };
    let Ok(port) = member.local_addr().map(|addr| addr.port()) else { return false };
    if member.join_multicast_v4(&group, &Ipv4Addr::UNSPECIFIED).is_err() {
        return false;
    }
    let _ = member.set_read_timeout(Some(Duration::from_millis(200)));
    let Ok(sender) = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)) else { return false };
    let _ = sender.set_multicast_loop_v4(true);
    let mut buffer = [0u8; 16];
    (0..5).any(|_| {
        sender.send_to(b"halma-probe", (group, port)).is_ok()
            && matches!(member.recv_from(&mut buffer), Ok((11, _)) if &buffer[..11] == b"halma-probe")
    })
}

/// Discovery by mDNS: where this machine delivers multicast (the probe above), the host's
/// announcement must be found within 5 s with its game and port, or the test fails. Where
/// multicast is blocked, nothing can be heard: starting either side may fail, and the test
/// says so (the probe, not discovery, decides which case this is).
#[test]
fn a_host_is_found_by_mdns_where_multicast_works() {
    use halma_core::lan::discovery::{Advertiser, Browser};
    if !multicast_reaches_this_host() {
        eprintln!("multicast does not reach this host: joining by address is the way (mDNS not tested)");
        return;
    }
    let id = GameId::random();
    let advertiser = Advertiser::start(id, 40404).expect("multicast works here, so the host can announce");
    let browser = Browser::start().expect("multicast works here, so the guest can browse");
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut heard = Vec::new();
    while Instant::now() < deadline {
        heard.extend(browser.poll());
        if let Some(found) = heard.iter().find(|found| found.id == id) {
            assert!(!found.addrs.is_empty() && found.addrs.iter().all(|addr| addr.port() == 40404), "{found:?}");
            assert!(found.addrs.iter().all(|addr| addr.is_ipv4()), "IPv4 addresses only: {found:?}");
            drop(advertiser);
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("multicast reaches this host, yet mDNS found no host for {id} within 5 s (heard {heard:?})");
}

const NETWORK_MD: &str = include_str!("../../../docs/NETWORK.md");

/// The lines of each fenced block of docs/NETWORK.md whose info string is `kind`.
fn doc_blocks(kind: &str) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in NETWORK_MD.lines() {
        match current.as_mut() {
            None if line == format!("```{kind}") => current = Some(Vec::new()),
            None => {}
            Some(_) if line == "```" => blocks.extend(current.take()),
            Some(block) => block.push(line.to_string()),
        }
    }
    blocks
}

/// The bye table of docs/NETWORK.md names every reason the code has, in its order, and
/// says rightly whether a guest tries again after it.
#[test]
fn the_documents_bye_table_matches_the_code() {
    let header = "| reason | sent when | guest retries |";
    let start = NETWORK_MD.find(header).expect("the bye table");
    let rows: Vec<(String, bool)> = NETWORK_MD[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.split(" | ").collect();
            let word = cells[0].trim_start_matches("| ").trim_matches('`').to_string();
            let retries = cells.last().expect("cells").trim_end_matches(" |").trim_end_matches('|').trim();
            (word, retries == "yes")
        })
        .collect();
    let code: Vec<(String, bool)> =
        ByeReason::ALL.iter().map(|reason| (reason.word().to_string(), !reason.is_final())).collect();
    assert_eq!(rows, code);
}

/// A random-number generator that gives SPAKE2 the scalar it holds (little-endian).
struct FixedScalar([u8; 32]);

impl rand_core::RngCore for FixedScalar {
    fn next_u32(&mut self) -> u32 {
        0
    }
    fn next_u64(&mut self) -> u64 {
        0
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.fill(0);
        let n = dest.len().min(32);
        dest[..n].copy_from_slice(&self.0[..n]);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl rand_core::CryptoRng for FixedScalar {}

/// docs/NETWORK.md's test vectors, computed again: the SPAKE2 exchange with its fixed
/// scalars, the derived keys, the confirmations and the first tagged lines.
#[test]
fn the_documents_test_vectors_hold() {
    use halma_core::lan::secure::{hex, SessionKey, GUEST_CONFIRM_LABEL, GUEST_LINES_LABEL, HOST_CONFIRM_LABEL};
    use halma_core::lan::secure::{GUEST_IDENTITY, HOST_IDENTITY, HOST_LINES_LABEL};
    use spake2::{Ed25519Group, Identity, Password, Spake2};
    let block = doc_blocks("vectors").pop().expect("a vectors block");
    let doc: Vec<(String, String)> = block
        .iter()
        .map(|line| {
            let (name, value) = line.split_once(": ").expect("name: value");
            (name.to_string(), value.to_string())
        })
        .collect();
    let code = JoinCode::parse(&doc[0].1).expect("a code");
    let (mut x, mut y) = ([0u8; 32], [0u8; 32]);
    x[..4].copy_from_slice(&[0x1d, 0xe7, 0x05, 0x93]);
    y[..4].copy_from_slice(&[0x2a, 0x61, 0xc0, 0x08]);
    let password = Password::new(code.as_str().as_bytes());
    let (guest_id, host_id) = (Identity::new(GUEST_IDENTITY), Identity::new(HOST_IDENTITY));
    let (guest, guest_message) =
        Spake2::<Ed25519Group>::start_a_with_rng(&password, &guest_id, &host_id, FixedScalar(x));
    let (host, host_message) = Spake2::<Ed25519Group>::start_b_with_rng(&password, &guest_id, &host_id, FixedScalar(y));
    let key = guest.finish(&host_message).expect("a key");
    assert_eq!(host.finish(&guest_message).expect("a key"), key);
    let key = SessionKey(key.try_into().expect("32 bytes"));
    let game = GameId::parse("7KQ2M4XA").expect("an id");
    let start = hello_start(2, None, &hex(&guest_message));
    let hello = format!("{start} {}", key.guest_confirm(&start));
    let welcome = format!("welcome {game} {} C", key.host_confirm(&format!("welcome {game} C")));
    let (mut host_lines, mut guest_lines) = (key.lines(true), key.lines(false));
    let computed = [
        ("code", code.to_string()),
        ("guest scalar x", hex(&x)),
        ("host scalar y", hex(&y)),
        ("guest message (hello)", hex(&guest_message)),
        ("host message (greeting)", hex(&host_message)),
        ("shared key", hex(&key.0)),
        ("guest confirm key", hex(&key.derive(GUEST_CONFIRM_LABEL))),
        ("host confirm key", hex(&key.derive(HOST_CONFIRM_LABEL))),
        ("guest lines key", hex(&key.derive(GUEST_LINES_LABEL))),
        ("host lines key", hex(&key.derive(HOST_LINES_LABEL))),
        ("hello", hello),
        ("welcome", welcome),
        ("host line 0", host_lines.seal("record [Halma \"1\"]").trim_end().to_string()),
        ("guest line 0", guest_lines.seal("record-end 0").trim_end().to_string()),
        ("guest line 1", guest_lines.seal("move 1 n14-m13").trim_end().to_string()),
    ];
    let computed: Vec<(String, String)> = computed.into_iter().map(|(n, v)| (n.to_string(), v)).collect();
    if doc != computed {
        let text: Vec<String> = computed.iter().map(|(name, value)| format!("{name}: {value}")).collect();
        panic!("NETWORK.md's vectors differ; computed:\n{}", text.join("\n"));
    }
    // The host's side opens what the guest's side sealed.
    let mut opened = key.lines(true);
    assert_eq!(opened.open(&doc[13].1), Ok("record-end 0"));
}

/// Every transcript of docs/NETWORK.md's "Examples", replayed against the app's host by a
/// guest that sends the `G:` lines (tagged) and expects the `H:` lines, the host's player
/// doing the host's actions when they are due.
#[test]
fn the_documents_transcripts_replay_against_the_host() {
    let transcripts = doc_blocks("transcript");
    assert!(transcripts.len() >= 10, "{} transcripts", transcripts.len());
    let sync = transcripts[0].clone();
    // The record's lines, an empty one written `H: record` (on the wire `record ` with its space).
    let text: String = sync
        .iter()
        .filter_map(|line| if line == "H: record" { Some("") } else { line.strip_prefix("H: record ") })
        .map(|line| format!("{line}\n"))
        .collect();
    let game = Record::parse(&text).expect("the transcript's record").game;
    let id = GameId::parse("7KQ2M4XA").expect("an id");
    for (n, transcript) in transcripts.iter().enumerate() {
        let config = HostConfig { id, code: JoinCode::random(), guest_seats: SeatSet::single(Seat::C) };
        let link = LanLink::host(loopback(), config, game.clone()).expect("hosting");
        let addr = link.local_addr().expect("an address");
        let mut host = Peer::new(link, Some(game.clone()), SeatSet::single(Seat::A));
        let mut peer = Hostile::connect(addr);
        assert!(peer.hello(config.code, None).starts_with("welcome 7KQ2M4XA "));
        let lines: Vec<&String> =
            if n == 0 { transcript.iter().collect() } else { sync.iter().chain(transcript).collect() };
        // Game messages the guest sent that the host has not been seen to take yet.
        let mut unseen = 0;
        for line in lines {
            if let Some(message) = line.strip_prefix("G: ") {
                peer.say(message);
                unseen += usize::from(
                    !message.starts_with("ping") && !message.starts_with("record") && !message.starts_with("synced"),
                );
            } else if let Some(raw) = line.strip_prefix("G! ") {
                peer.send(&format!("{raw}\n"));
            } else if let Some(expected) = line.strip_prefix("H: ") {
                let expected = if expected == "record" { "record " } else { expected };
                let word = expected.split(' ').next().unwrap_or("");
                if ["move", "offer", "vote", "undo", "undo-answer"].contains(&word) {
                    for _ in 0..std::mem::take(&mut unseen) {
                        host.pump("the guest's message taken", |event| {
                            matches!(
                                event,
                                LanEvent::Played { .. }
                                    | LanEvent::DrawOffered { .. }
                                    | LanEvent::UndoRequested { .. }
                                    | LanEvent::Undone { .. }
                            )
                        });
                    }
                    let game = host.game.as_mut().expect("a game");
                    match Wire::parse(expected).expect("a message") {
                        Wire::Move { action, .. } => {
                            game.play_action(&action).expect("the host's legal move");
                            host.link.play(action);
                        }
                        Wire::Offer { .. } => {
                            game.offer_draw().expect("the host may offer");
                            host.link.offer_draw();
                        }
                        Wire::Vote { accept, .. } => {
                            game.answer_draw(Seat::A, accept).expect("the host's vote");
                            host.link.vote(accept);
                        }
                        Wire::Undo { to, .. } => host.link.request_undo(to),
                        Wire::UndoAnswer { accept, .. } => host.link.answer_undo(accept),
                        other => panic!("{other:?}"),
                    }
                }
                let got = loop {
                    let message = peer.message();
                    match message.strip_prefix("ping ") {
                        Some(token) => peer.say(&format!("pong {token}")),
                        None => break message,
                    }
                };
                match expected.strip_suffix('…') {
                    Some(start) => assert!(got.starts_with(start), "transcript {n}: '{got}' for '{expected}'"),
                    None => assert_eq!(got, expected, "transcript {n}"),
                }
            } else {
                panic!("transcript {n}: a line that is neither H: nor G: '{line}'");
            }
        }
        if transcript.last().is_some_and(|line| line.starts_with("H: bye") || line.starts_with("G: bye")) {
            host.pump("the connection ended", |event| matches!(event, LanEvent::Disconnected { .. }));
        }
    }
}
