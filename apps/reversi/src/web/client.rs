//! Who a request comes from, for the per-client bounds: the peer's IP address (requests
//! that did not come over a socket, as in tests, all count as one client).

use std::convert::Infallible;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

/// The client a request comes from.
#[derive(Debug, Clone)]
pub struct Client(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, Infallible> {
        Ok(Client(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or_else(|| "local".to_string(), |c| c.0.ip().to_string()),
        ))
    }
}
