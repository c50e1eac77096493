//! How people reach the server: its `--public-url` ([`PublicUrl`]) and the address it listens
//! on ([`Site`]), and the host name of a `Host` header or an origin.

use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;

/// The server's address as people elsewhere reach it (`https://othello.example.org/`), always
/// ending in `/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl(String);

impl PublicUrl {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The host name people use, without the scheme, port or path (`othello.example.org`).
    pub fn host(&self) -> &str {
        let rest = self.0.split_once("://").map_or(self.0.as_str(), |(_, r)| r);
        host_name(rest.split('/').next().unwrap_or_default())
    }
}

/// A `--public-url` that is not an http(s) address of a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePublicUrlError(String);

impl fmt::Display for ParsePublicUrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad public URL {:?}: expected http://HOST[:PORT][/PATH] or https://…, with no \
             spaces, query or fragment",
            self.0
        )
    }
}

impl std::error::Error for ParsePublicUrlError {}

impl FromStr for PublicUrl {
    type Err = ParsePublicUrlError;

    fn from_str(text: &str) -> Result<PublicUrl, ParsePublicUrlError> {
        let bad = || ParsePublicUrlError(text.to_string());
        let rest = text
            .strip_prefix("http://")
            .or_else(|| text.strip_prefix("https://"))
            .ok_or_else(bad)?;
        let host = rest.split('/').next().unwrap_or_default();
        let clean = |c: char| !c.is_whitespace() && !c.is_control() && !"?#\"'<>\\".contains(c);
        if host.is_empty() || host.starts_with(':') || !text.chars().all(clean) {
            return Err(bad());
        }
        let mut url = text.to_string();
        if !url.ends_with('/') {
            url.push('/');
        }
        Ok(PublicUrl(url))
    }
}

/// What the server knows about its own address.
#[derive(Debug, Clone, Default)]
pub struct Site {
    /// `--public-url`.
    pub public_url: Option<PublicUrl>,
    /// The address the server listens on.
    pub listen: Option<SocketAddr>,
}

/// The host name of a `Host` header or an origin's authority, without its port.
pub fn host_name(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    authority.rsplit_once(':').map_or(authority, |(h, _)| h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_urls_are_checked_and_end_in_a_slash() {
        let ok = |t: &str| t.parse::<PublicUrl>().map(|u| u.as_str().to_string());
        assert_eq!(ok("http://h:8080").unwrap(), "http://h:8080/");
        assert_eq!(
            ok("https://othello.example.org/play/").unwrap(),
            "https://othello.example.org/play/"
        );
        let host = |t: &str| t.parse::<PublicUrl>().unwrap().host().to_string();
        assert_eq!(
            host("https://othello.example.org/play/"),
            "othello.example.org"
        );
        assert_eq!(host("http://192.168.1.5:8080"), "192.168.1.5");
        assert_eq!(host("http://[::1]:8080/"), "::1");
        for bad in [
            "",
            "h:8080",
            "ftp://h/",
            "http://",
            "http:///x",
            "http://:80/",
            "http://h/ x",
            "http://h/?a=1",
            "http://h/#x",
        ] {
            let e = bad.parse::<PublicUrl>().unwrap_err();
            assert!(e.to_string().contains(&format!("{bad:?}")), "{e}");
        }
    }
}
