//! The join's key exchange and the lines' authentication (docs/NETWORK.md, "Joining" and
//! "Authenticated lines"): SPAKE2 over the join code, so that a captured join reveals
//! nothing about the code and each guess needs the live host, then an HMAC-SHA-256 tag on
//! every line after the join, so that nobody on the path can inject or alter one.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use spake2::{Ed25519Group, Identity, Password, Spake2};

use super::JoinCode;

type HmacSha256 = Hmac<Sha256>;

/// SPAKE2's identity of the guest (side A) and of the host (side B).
pub const GUEST_IDENTITY: &[u8] = b"halma-lan guest";
pub const HOST_IDENTITY: &[u8] = b"halma-lan host";
/// The length of a SPAKE2 message in hex digits: a side byte and a 32-byte point.
pub const PAKE_CHARS: usize = 66;
/// The length of a key confirmation and of a line's tag in hex digits (128 bits).
pub const TAG_CHARS: usize = 32;

/// The labels of the keys derived from the exchange's shared key.
pub const GUEST_CONFIRM_LABEL: &str = "halma-lan 2 guest confirm";
pub const HOST_CONFIRM_LABEL: &str = "halma-lan 2 host confirm";
pub const GUEST_LINES_LABEL: &str = "halma-lan 2 guest lines";
pub const HOST_LINES_LABEL: &str = "halma-lan 2 host lines";

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Lowercase hex digits to bytes; `None` for anything else or an odd count.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    };
    text.as_bytes().chunks(2).map(|pair| Some((digit(pair[0])? << 4) | digit(pair[1])?)).collect()
}

/// The first `chars` lowercase hex digits of the SHA-256 of `data`.
pub fn sha256_hex(data: &[u8], chars: usize) -> String {
    let mut text = hex(&Sha256::digest(data));
    text.truncate(chars);
    text
}

fn hmac(key: &[u8], message: &[u8]) -> HmacSha256 {
    // HMAC takes a key of any length: `new_from_slice` cannot fail for it.
    let mut mac = HmacSha256::new_from_slice(key).unwrap_or_else(|_| unreachable!("HMAC takes any key length"));
    mac.update(message);
    mac
}

/// The first [`TAG_CHARS`] hex digits of HMAC-SHA-256(`key`, `message`).
pub fn tag(key: &[u8], message: &str) -> String {
    let mut text = hex(&hmac(key, message.as_bytes()).finalize().into_bytes());
    text.truncate(TAG_CHARS);
    text
}

/// Whether `given` (hex) is [`tag`]`(key, message)`, compared in constant time.
pub fn tag_matches(key: &[u8], message: &str, given: &str) -> bool {
    match unhex(given) {
        Some(bytes) if bytes.len() * 2 == TAG_CHARS => {
            hmac(key, message.as_bytes()).verify_truncated_left(&bytes).is_ok()
        }
        _ => false,
    }
}

/// The password SPAKE2 is given: the code's 6 characters in capitals, as UTF-8.
pub fn password(code: JoinCode) -> Vec<u8> {
    code.as_str().as_bytes().to_vec()
}

/// One side's half of the exchange, waiting for the other side's message.
pub struct Pake(Spake2<Ed25519Group>);

/// Why the other side's SPAKE2 message cannot be used.
#[derive(Debug, PartialEq, Eq)]
pub struct BadPake;

impl Pake {
    /// The guest's side (SPAKE2's A) and its message, in hex.
    pub fn guest(code: JoinCode) -> (Pake, String) {
        let (state, message) = Spake2::<Ed25519Group>::start_a(
            &Password::new(password(code)),
            &Identity::new(GUEST_IDENTITY),
            &Identity::new(HOST_IDENTITY),
        );
        (Pake(state), hex(&message))
    }

    /// The host's side (SPAKE2's B) and its message, in hex.
    pub fn host(code: JoinCode) -> (Pake, String) {
        let (state, message) = Spake2::<Ed25519Group>::start_b(
            &Password::new(password(code)),
            &Identity::new(GUEST_IDENTITY),
            &Identity::new(HOST_IDENTITY),
        );
        (Pake(state), hex(&message))
    }

    /// Given the other side's message: the shared key. A wrong code does not fail here
    /// (the two sides just get different keys); the confirmations tell.
    pub fn finish(self, theirs: &str) -> Result<SessionKey, BadPake> {
        let bytes = unhex(theirs).ok_or(BadPake)?;
        let key = self.0.finish(&bytes).map_err(|_| BadPake)?;
        let key: [u8; 32] = key.try_into().map_err(|_| BadPake)?;
        Ok(SessionKey(key))
    }
}

/// The key both sides got from SPAKE2 (the same only if both used the same code).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SessionKey(pub [u8; 32]);

impl std::fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionKey(…)")
    }
}

impl SessionKey {
    /// HMAC-SHA-256(key = the shared key, message = `label`).
    pub fn derive(&self, label: &str) -> [u8; 32] {
        hmac(&self.0, label.as_bytes()).finalize().into_bytes().into()
    }

    /// The guest's confirmation: the tag of its hello's words before it.
    pub fn guest_confirm(&self, hello_start: &str) -> String {
        tag(&self.derive(GUEST_CONFIRM_LABEL), hello_start)
    }

    /// The host's confirmation: the tag of `welcome <game> <seats>`.
    pub fn host_confirm(&self, welcome_words: &str) -> String {
        tag(&self.derive(HOST_CONFIRM_LABEL), welcome_words)
    }

    /// The keys of the lines after the join, for the host (`host` true) or the guest.
    pub fn lines(&self, host: bool) -> LineKeys {
        let (guest, hosts) = (self.derive(GUEST_LINES_LABEL), self.derive(HOST_LINES_LABEL));
        let (send, receive) = if host { (hosts, guest) } else { (guest, hosts) };
        LineKeys { send, receive, sent: 0, received: 0 }
    }
}

/// Tags and checks the lines after the join: each line is `<tag> <message>`, the tag made
/// over `<number> <message>` with the count of lines that side sent before it.
#[derive(Clone)]
pub struct LineKeys {
    send: [u8; 32],
    receive: [u8; 32],
    sent: u64,
    received: u64,
}

/// A line whose tag does not check out: number `index` of the other side's lines.
#[derive(Debug, PartialEq, Eq)]
pub struct Forged {
    pub index: u64,
}

impl LineKeys {
    /// `message` (without its LF) as it goes on the wire, with its LF.
    pub fn seal(&mut self, message: &str) -> String {
        let line = format!("{} {message}\n", tag(&self.send, &format!("{} {message}", self.sent)));
        self.sent += 1;
        line
    }

    /// The message of a received line (without its LF), if its tag is right.
    pub fn open<'a>(&mut self, line: &'a str) -> Result<&'a str, Forged> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let forged = Forged { index: self.received };
        let (given, message) = line.split_at_checked(TAG_CHARS).ok_or(Forged { index: self.received })?;
        let message = message.strip_prefix(' ').ok_or(Forged { index: self.received })?;
        if !tag_matches(&self.receive, &format!("{} {message}", self.received), given) {
            return Err(forged);
        }
        self.received += 1;
        Ok(message)
    }

    /// How many lines this side has received (the number the next one must carry).
    pub fn received(&self) -> u64 {
        self.received
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_is_the_standard_one() {
        assert_eq!(sha256_hex(b"abc", 64), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(sha256_hex(b"", 16), "e3b0c44298fc1c14");
    }

    #[test]
    fn the_same_code_gives_the_same_key_and_another_code_does_not() {
        let code = JoinCode::parse("7KQ2M4").expect("code");
        let (guest, guest_message) = Pake::guest(code);
        let (host, host_message) = Pake::host(code);
        assert_eq!((guest_message.len(), &guest_message[..2]), (PAKE_CHARS, "41"));
        assert_eq!((host_message.len(), &host_message[..2]), (PAKE_CHARS, "42"));
        assert_eq!(guest.finish(&host_message), host.finish(&guest_message));
        let (guest, guest_message) = Pake::guest(JoinCode::parse("7KQ2M5").expect("code"));
        let (host, host_message) = Pake::host(code);
        assert_ne!(guest.finish(&host_message), host.finish(&guest_message));
        let (host, _) = Pake::host(code);
        assert_eq!(host.finish("41zz"), Err(BadPake));
    }

    #[test]
    fn lines_are_numbered_and_tagged() {
        let key = SessionKey([7; 32]);
        let (mut host, mut guest) = (key.lines(true), key.lines(false));
        let first = host.seal("move 0 c3-d4");
        let second = host.seal("ping p1");
        assert_eq!(guest.open(first.trim_end()), Ok("move 0 c3-d4"));
        // Replayed, reordered or altered lines all fail.
        assert_eq!(guest.open(first.trim_end()), Err(Forged { index: 1 }));
        let altered = second.trim_end().replace("p1", "p2");
        assert_eq!(guest.open(&altered), Err(Forged { index: 1 }));
        assert_eq!(guest.open(second.trim_end()), Ok("ping p1"));
        // The guest's own key does not open the host's lines.
        let mut other = key.lines(true);
        assert_eq!(other.open(host.seal("pong p1").trim_end()), Err(Forged { index: 0 }));
    }
}
