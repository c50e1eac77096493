//! `/api/site`: how people reach this server, for the links the page hands out (the
//! two-browser game's join link): `--public-url` when the operator gave one, else the address
//! the browser used (its Host header), with a warning when that address works on this
//! machine only.

use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use super::address::{host_name, Site};
use super::state::AppState;

#[derive(Debug, Serialize, PartialEq, Eq)]
struct SiteView {
    /// Where links to this server start, ending in `/` (`http://192.168.1.5:8080/`).
    base: String,
    /// Whether `base` is the operator's `--public-url` (else the address the browser used).
    public: bool,
    /// Why a link from `base` may not work for someone on another machine, when it may not.
    warning: Option<String>,
}

pub fn router() -> Router<AppState> {
    Router::new().route("/", get(site))
}

/// Whether a Host header's host names this machine only.
fn loopback_host(host: &str) -> bool {
    let name = host_name(host);
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// A Host header that can go into a link as it is: a name or address and a port, nothing else.
fn usable_host(headers: &HeaderMap) -> Option<&str> {
    let host = headers.get(header::HOST)?.to_str().ok()?;
    let ok = !host.is_empty()
        && host.len() <= 255
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c));
    ok.then_some(host)
}

fn describe(site: &Site, host: Option<&str>) -> SiteView {
    if let Some(url) = &site.public_url {
        return SiteView {
            base: url.as_str().to_string(),
            public: true,
            warning: None,
        };
    }
    let listen = site.listen.map(|a| a.to_string());
    let host = host.or(listen.as_deref()).unwrap_or("127.0.0.1:8080");
    let warning = loopback_host(host).then(|| {
        if site.listen.is_some_and(|a| a.ip().is_loopback()) {
            "This server listens on this machine only, so the link works here alone: for \
             someone on another machine, restart it with --addr 0.0.0.0:PORT --public-url \
             http://THIS-MACHINE:PORT/"
                .to_string()
        } else {
            format!(
                "This link names the server as {host}, which works on this machine only: open \
                 the page by the address others use, or start the server with --public-url"
            )
        }
    });
    SiteView {
        base: format!("http://{host}/"),
        public: false,
        warning,
    }
}

async fn site(State(app): State<AppState>, headers: HeaderMap) -> Json<SiteView> {
    Json(describe(app.site(), usable_host(&headers)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(public: Option<&str>, listen: &str) -> Site {
        Site {
            public_url: public.map(|u| u.parse().unwrap()),
            listen: Some(listen.parse().unwrap()),
        }
    }

    #[test]
    fn the_link_base_prefers_the_public_url_then_the_host_header() {
        let v = describe(
            &site(Some("https://o.example/"), "0.0.0.0:80"),
            Some("127.0.0.1:80"),
        );
        assert_eq!(
            (v.base.as_str(), v.public, v.warning),
            ("https://o.example/", true, None)
        );
        let v = describe(&site(None, "0.0.0.0:8080"), Some("192.168.1.5:8080"));
        assert_eq!(
            (v.base.as_str(), v.public, v.warning),
            ("http://192.168.1.5:8080/", false, None)
        );
        // Reached as localhost: a link that others cannot follow, said so either way.
        let v = describe(&site(None, "0.0.0.0:8080"), Some("localhost:8080"));
        assert!(v
            .warning
            .unwrap()
            .contains("names the server as localhost:8080"));
        let v = describe(&site(None, "127.0.0.1:8080"), Some("127.0.0.1:8080"));
        assert!(v.warning.unwrap().contains("--public-url"));
        let v = describe(&site(None, "[::1]:8080"), Some("[::1]:8080"));
        assert!(v.warning.is_some());
        // No Host header (HTTP/1.0): the listening address.
        let v = describe(&site(None, "10.0.0.2:8080"), None);
        assert_eq!(v.base, "http://10.0.0.2:8080/");
    }

    #[test]
    fn only_plain_host_headers_are_used() {
        let mut h = HeaderMap::new();
        assert_eq!(usable_host(&h), None);
        h.insert(header::HOST, "h.example:8080".parse().unwrap());
        assert_eq!(usable_host(&h), Some("h.example:8080"));
        h.insert(header::HOST, "h.example/evil".parse().unwrap());
        assert_eq!(usable_host(&h), None);
    }
}
