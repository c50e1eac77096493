//! What a live game needs from the server: the shared history database and the pool that
//! bounds how many engine searches run at once.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use reversi_store::Store;
use tokio::sync::Semaphore;

use super::error::AppError;

/// The history and the search pool, shared by every request and game.
#[derive(Clone)]
pub struct Backend {
    /// Shared with the games' logs, which save their moves into it.
    store: Arc<Mutex<Store>>,
    pool: Arc<Semaphore>,
}

impl Backend {
    /// The backend over `store`, with at most `searches` engine searches at a time.
    pub fn new(store: Store, searches: usize) -> Backend {
        Backend {
            store: Arc::new(Mutex::new(store)),
            pool: Arc::new(Semaphore::new(searches.max(1))),
        }
    }

    /// The history (every call on it is one short transaction).
    pub fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The history, for a game's log to keep.
    pub fn shared_store(&self) -> Arc<Mutex<Store>> {
        Arc::clone(&self.store)
    }

    pub fn pool(&self) -> Arc<Semaphore> {
        Arc::clone(&self.pool)
    }

    /// Runs `work` on the blocking threads once the search pool has room.
    pub async fn search<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let permit = self
            .pool()
            .acquire_owned()
            .await
            .map_err(|_| AppError::internal("the search pool is closed"))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| AppError::internal(format!("search failed: {e}")))
    }
}
