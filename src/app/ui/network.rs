//! The network game's machinery for the controller (#40): the link to the other device,
//! the host's announcement, the guest's search for hosts, and the timer that polls them.
//! The actions decide everything ([`LanCommand`]s in, [`Event`]s out); this only runs it.

use halma_core::actions::Event;
use halma_core::correspondence::GameId;
use halma_core::lan::discovery::{Advertiser, Browser};
use halma_core::lan::{self, LanEvent, LanLink};
use halma_core::nearby::LanCommand;
use slint::Timer;
use std::cell::RefCell;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

/// How often the link and the search are polled while either runs.
pub const POLL_EVERY: Duration = Duration::from_millis(50);

#[derive(Default)]
pub struct Network {
    link: RefCell<Option<LanLink>>,
    advertiser: RefCell<Option<Advertiser>>,
    browser: RefCell<Option<Browser>>,
    /// The hosts found so far by this search, one address each.
    hosts: RefCell<Vec<(GameId, SocketAddr)>>,
    /// Android's Wi-Fi drops multicast unless an app holds this lock: held while the game
    /// is announced or hosts are looked for.
    #[cfg(target_os = "android")]
    multicast: RefCell<Option<crate::app::share::MulticastLock>>,
    pub timer: Timer,
}

impl Network {
    /// Carries out `command`; returns what to report at once (a host that cannot listen).
    pub fn carry_out(&self, command: &LanCommand) -> Option<Event> {
        match command {
            LanCommand::Host { config, game, port } => {
                self.end_link();
                let any = SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0);
                let wanted = SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), *port);
                let hosted =
                    LanLink::host(wanted, *config, game.clone()).or_else(|_| LanLink::host(any, *config, game.clone()));
                match hosted {
                    Ok(link) => {
                        if let Some(addr) = link.local_addr() {
                            match Advertiser::start(config.id, addr.port()) {
                                Ok(advertiser) => *self.advertiser.borrow_mut() = Some(advertiser),
                                Err(error) => eprintln!("halma: the game is not announced on the network: {error}"),
                            }
                        }
                        *self.link.borrow_mut() = Some(link);
                    }
                    Err(error) => return Some(Event::NearbyUnavailable(error.to_string())),
                }
            }
            LanCommand::Join { config, game } => {
                self.end_link();
                *self.link.borrow_mut() = Some(LanLink::join(*config, game.clone()));
            }
            LanCommand::Play(action) => self.with_link(|link| link.play(action.clone())),
            LanCommand::OfferDraw => self.with_link(LanLink::offer_draw),
            LanCommand::Vote(accept) => self.with_link(|link| link.vote(*accept)),
            LanCommand::RequestUndo(to) => self.with_link(|link| link.request_undo(*to)),
            LanCommand::AnswerUndo(accept) => self.with_link(|link| link.answer_undo(*accept)),
            LanCommand::NewCode(code) => self.with_link(|link| link.set_code(*code)),
            LanCommand::Close => {
                self.advertiser.borrow_mut().take();
                if let Some(link) = self.link.borrow_mut().take() {
                    let_go(link, true);
                }
            }
            LanCommand::Browse(true) => {
                self.hosts.borrow_mut().clear();
                match Browser::start() {
                    Ok(browser) => *self.browser.borrow_mut() = Some(browser),
                    Err(error) => eprintln!("halma: no search for games nearby (join by address): {error}"),
                }
            }
            LanCommand::Browse(false) => {
                self.browser.borrow_mut().take();
            }
        }
        self.hold_multicast();
        None
    }

    /// Takes the multicast lock while discovery runs, lets it go after (Android).
    fn hold_multicast(&self) {
        #[cfg(target_os = "android")]
        {
            let discovering = self.advertiser.borrow().is_some() || self.browser.borrow().is_some();
            let mut lock = self.multicast.borrow_mut();
            if discovering && lock.is_none() {
                *lock = crate::app::share::MulticastLock::acquire();
            } else if !discovering {
                lock.take();
            }
        }
    }

    fn with_link(&self, send: impl FnOnce(&LanLink)) {
        if let Some(link) = self.link.borrow().as_ref() {
            send(link);
        }
    }

    /// Ends the link without a word (a new one replaces it).
    fn end_link(&self) {
        self.advertiser.borrow_mut().take();
        if let Some(link) = self.link.borrow_mut().take() {
            let_go(link, false);
        }
    }

    /// Whether nothing runs that the timer should poll.
    pub fn is_idle(&self) -> bool {
        self.link.borrow().is_none() && self.browser.borrow().is_none()
    }

    /// What happened since the last poll, as events for the dispatch. A host listening on
    /// every address is shown at this device's address on the local network.
    pub fn poll(&self) -> Vec<Event> {
        let mut reports = Vec::new();
        let events: Vec<LanEvent> = self.link.borrow().as_ref().map(LanLink::poll).unwrap_or_default();
        if !events.is_empty() {
            let events = events
                .into_iter()
                .map(|event| match event {
                    LanEvent::Listening(addr) if addr.ip().is_unspecified() => {
                        LanEvent::Listening(SocketAddr::new(lan::local_ip().unwrap_or(addr.ip()), addr.port()))
                    }
                    other => other,
                })
                .collect();
            reports.push(Event::Nearby(events));
        }
        let found = self.browser.borrow().as_ref().map(Browser::poll).unwrap_or_default();
        if !found.is_empty() {
            let mut hosts = self.hosts.borrow_mut();
            for host in found {
                let Some(&addr) = host.addrs.first() else { continue };
                match hosts.iter_mut().find(|(id, _)| *id == host.id) {
                    Some(known) => known.1 = addr,
                    None => hosts.push((host.id, addr)),
                }
            }
            reports.push(Event::HostsFound(hosts.clone()));
        }
        reports
    }
}

/// Ends `link` (saying goodbye first, or not) on a thread of its own: a link still
/// connecting may take seconds to notice, and the window never waits for the network.
fn let_go(link: LanLink, goodbye: bool) {
    let ended = std::thread::Builder::new().name("halma-lan-end".into()).spawn(move || {
        if goodbye {
            link.close();
        } else {
            drop(link);
        }
    });
    if let Err(error) = ended {
        eprintln!("halma: the network link could not be ended apart: {error}");
    }
}
