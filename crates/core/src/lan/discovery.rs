//! Finding a host on the local network by DNS-SD over multicast DNS (`mdns-sd`): the host
//! announces `_halma._tcp` with its game's identifier; a guest browses and joins the one
//! whose identifier the host shows (with the code). Optional at run time: where multicast
//! is blocked (or the network refuses the socket) both sides get an error and the players
//! join by address and code instead. Nothing but the service's name, port, addresses and
//! the game identifier is announced.

use crate::correspondence::GameId;
use mdns_sd::{ServiceDaemon, ServiceEvent, ServiceInfo};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The DNS-SD service type.
pub const SERVICE_TYPE: &str = "_halma._tcp.local.";

/// A host's announcement, withdrawn when dropped.
pub struct Advertiser {
    daemon: ServiceDaemon,
    fullname: String,
}

impl Advertiser {
    /// Announces the game `id` hosted on `port`. An error means discovery is not available
    /// here: the guest joins by address.
    pub fn start(id: GameId, port: u16) -> Result<Advertiser, String> {
        let daemon = ServiceDaemon::new().map_err(|error| error.to_string())?;
        let instance = format!("Halma {id}");
        let host = format!("halma-{}.local.", id.as_str().to_ascii_lowercase());
        let version = super::PROTOCOL_VERSION.to_string();
        let properties = [("game", id.as_str()), ("v", version.as_str())];
        let info = ServiceInfo::new(SERVICE_TYPE, &instance, &host, "", port, &properties[..])
            .map_err(|error| error.to_string())?
            .enable_addr_auto();
        let fullname = info.get_fullname().to_string();
        if let Err(error) = daemon.register(info) {
            let _ = daemon.shutdown();
            return Err(error.to_string());
        }
        Ok(Advertiser { daemon, fullname })
    }
}

impl Drop for Advertiser {
    fn drop(&mut self) {
        let _ = self.daemon.unregister(&self.fullname);
        let _ = self.daemon.shutdown();
    }
}

/// A host found on the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub id: GameId,
    /// Where to connect, IPv4 addresses first.
    pub addrs: Vec<SocketAddr>,
}

/// A guest's search for hosts; the UI polls it.
pub struct Browser {
    daemon: ServiceDaemon,
    events: mdns_sd::Receiver<ServiceEvent>,
}

impl Browser {
    /// Starts browsing. An error means discovery is not available here.
    pub fn start() -> Result<Browser, String> {
        let daemon = ServiceDaemon::new().map_err(|error| error.to_string())?;
        match daemon.browse(SERVICE_TYPE) {
            Ok(events) => Ok(Browser { daemon, events }),
            Err(error) => {
                let _ = daemon.shutdown();
                Err(error.to_string())
            }
        }
    }

    /// The hosts resolved since the last poll; never waits. Announcements without a valid
    /// game identifier or without an IPv4 address are ignored.
    pub fn poll(&self) -> Vec<Found> {
        let mut found = Vec::new();
        while let Ok(event) = self.events.try_recv() {
            let ServiceEvent::ServiceResolved(service) = event else { continue };
            let game = service.get_property_val_str("game");
            found.extend(announced(game, service.get_port(), service.get_addresses_v4()));
        }
        found
    }
}

/// The host an announcement names: its game from the `game` property, and where to connect,
/// IPv4 addresses in order (the same order on every guest).
fn announced(game: Option<&str>, port: u16, addresses: impl IntoIterator<Item = Ipv4Addr>) -> Option<Found> {
    let id = game.and_then(GameId::parse)?;
    let mut v4: Vec<Ipv4Addr> = addresses.into_iter().collect();
    v4.sort();
    v4.dedup();
    let addrs: Vec<SocketAddr> = v4.into_iter().map(|ip| SocketAddr::new(IpAddr::V4(ip), port)).collect();
    (!addrs.is_empty()).then_some(Found { id, addrs })
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.daemon.stop_browse(SERVICE_TYPE);
        let _ = self.daemon.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_announcement_names_its_game_and_every_ipv4_address_in_order() {
        let id = GameId::random();
        let addresses = [Ipv4Addr::new(192, 168, 1, 20), Ipv4Addr::new(10, 0, 0, 7), Ipv4Addr::new(192, 168, 1, 20)];
        let found = announced(Some(id.as_str()), 40404, addresses).expect("a host");
        assert_eq!(found.id, id);
        let expected: Vec<SocketAddr> =
            ["10.0.0.7:40404", "192.168.1.20:40404"].iter().map(|text| text.parse().expect("an address")).collect();
        assert_eq!(found.addrs, expected);
    }

    #[test]
    fn announcements_without_a_game_or_an_address_are_ignored() {
        let id = GameId::random();
        let address = [Ipv4Addr::new(10, 0, 0, 7)];
        assert_eq!(announced(None, 40404, address), None);
        assert_eq!(announced(Some("not a game"), 40404, address), None);
        assert_eq!(announced(Some(id.as_str()), 40404, []), None);
    }
}
