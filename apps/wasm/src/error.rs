//! A refused call: an HTTP-like status (as the page's backend reports refusals) and the
//! message the page shows.

use std::fmt;

use reversi_game::VariationError;
use reversi_record::StoreError;

/// Why a call was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallError {
    /// 400 malformed, 404 not found, 409 not possible now, 422 illegal or unreadable.
    pub status: u16,
    /// What was wrong, as the page shows it.
    pub message: String,
}

impl CallError {
    /// A refusal with `status`.
    pub fn new(status: u16, message: impl fmt::Display) -> CallError {
        CallError {
            status,
            message: message.to_string(),
        }
    }

    /// 400: the request is malformed.
    pub fn bad_request(message: impl fmt::Display) -> CallError {
        CallError::new(400, message)
    }

    /// 404: no such game or line.
    pub fn not_found(message: impl fmt::Display) -> CallError {
        CallError::new(404, message)
    }

    /// The status of a stored game's failure.
    pub fn from_store(e: StoreError) -> CallError {
        let status = match e {
            StoreError::NoSuchGame(_) | StoreError::NoSuchVariation(_) => 404,
            StoreError::IllegalMove { .. }
            | StoreError::InvalidVariation { .. }
            | StoreError::Rejected { .. }
            | StoreError::StartMismatch(_) => 422,
            StoreError::NotInProgress(_) | StoreError::Held { .. } => 409,
            _ => 500,
        };
        CallError::new(status, e)
    }

    /// The status of a variation's failure.
    pub fn from_variation(e: &VariationError) -> CallError {
        let status = match e {
            VariationError::Illegal(_) => 422,
            VariationError::NoSuchLine(_) | VariationError::NoSuchPly { .. } => 404,
            VariationError::Store(_) => 500,
        };
        CallError::new(status, e)
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.status)
    }
}

impl std::error::Error for CallError {}
