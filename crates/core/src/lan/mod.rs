//! Play over the local network, live: one device hosts, the other joins by a short code.
//! No Slint and no server: two devices talk TCP directly, by the line protocol of
//! docs/NETWORK.md.
//!
//! - [`wire`]: the messages, one line each, and a reader of bounded lines;
//! - [`agree`]: which history two devices continue with after (re)connecting;
//! - [`link`]: the connection on its own thread ([`LanLink::host`], [`LanLink::join`]):
//!   the UI sends its seats' actions and polls for the other side's; its loop ties
//!   together the three below;
//! - `transport`: lines over TCP with their tags, deadlines and keep-alive, and the
//!   host's slots for connections still waiting for their hello;
//! - `handshake`: the join (greeting, hello, welcome), the host's door with its
//!   wrong-code throttle and new codes;
//! - `sync`: the link's copy of the game, the records' exchange and agreed history at each
//!   connection, and the checks of every move, vote and undo;
//! - [`discovery`]: finding the host by DNS-SD/mDNS, where multicast works;
//! - [`secure`]: the join's SPAKE2 exchange over the code, the lines' HMAC tags, and the
//!   SHA-256 of the sync digest (RustCrypto's `spake2`, `hmac` and `sha2`).

pub mod agree;
pub mod discovery;
mod handshake;
pub mod link;
pub mod secure;
mod sync;
mod terms;
mod transport;
pub mod wire;

pub use agree::{agree, AgreeError, Agreed};
pub use link::{DropReason, HostConfig, JoinConfig, LanEvent, LanLink, LocalRefusal, Throttle};
pub use wire::{ByeReason, Wire, WireError, MAX_LINE_BYTES, PROTOCOL_VERSION};

use crate::correspondence::ID_ALPHABET;
use std::fmt;

/// The length of a join code: 6 characters of Crockford's base 32, 30 random bits.
pub const CODE_LENGTH: usize = 6;

/// The short code the host shows and the guest types. It never crosses the wire: it is
/// SPAKE2's password ([`secure::Pake`]), so a captured join reveals nothing about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JoinCode([u8; CODE_LENGTH]);

impl JoinCode {
    pub fn random() -> JoinCode {
        let mut code = [0u8; CODE_LENGTH];
        for byte in &mut code {
            *byte = ID_ALPHABET[rand::random_range(0..ID_ALPHABET.len())];
        }
        JoinCode(code)
    }

    /// Reads a code as a person types it: any case, spaces and dashes ignored, and the
    /// letters people confuse with digits (`O`, `I`, `L`) read as `0`, `1`, `1`.
    pub fn parse(text: &str) -> Option<JoinCode> {
        let mut code = [0u8; CODE_LENGTH];
        let mut count = 0;
        for c in text.chars().filter(|c| !c.is_whitespace() && *c != '-') {
            let byte = match c.to_ascii_uppercase() {
                'O' => b'0',
                'I' | 'L' => b'1',
                c if c.is_ascii() && ID_ALPHABET.contains(&(c as u8)) => c as u8,
                _ => return None,
            };
            *code.get_mut(count)? = byte;
            count += 1;
        }
        (count == CODE_LENGTH).then_some(JoinCode(code))
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).unwrap_or("000000")
    }
}

impl fmt::Display for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// This device's address on its local network, as a guest would type it: the address the
/// system would send from towards the outside (a UDP socket's `connect` sends nothing).
/// `None` without a network.
pub fn local_ip() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_as_people_type_them() {
        let code = JoinCode::random();
        assert_eq!(JoinCode::parse(code.as_str()), Some(code));
        assert_eq!(JoinCode::parse("7kq-2m4").map(|c| c.to_string()), Some("7KQ2M4".to_string()));
        assert_eq!(JoinCode::parse("o1l 2m4").map(|c| c.to_string()), Some("0112M4".to_string()));
        assert_eq!(JoinCode::parse("7KQ2M"), None);
        assert_eq!(JoinCode::parse("7KQ2M4X"), None);
        assert_eq!(JoinCode::parse("7KQ2MU"), None);
    }
}
