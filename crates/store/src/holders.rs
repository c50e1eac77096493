//! Who holds a game in progress: the web server's seats (the tokens that move for each side
//! and a guest's join code, kept so that a game survives a restart), and the lease that lets
//! one process at a time write a game.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use reversi_core::Color;
use rusqlite::{params, OptionalExtension};

use crate::{GameId, Store, StoreError, WebSeats, Writer};

/// Whether process `pid` of this machine still runs (true where that cannot be told).
fn running(pid: u32) -> bool {
    let proc = std::path::Path::new("/proc");
    !proc.exists() || proc.join(pid.to_string()).exists()
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn color_text(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

impl Store {
    /// Keeps the web seats of game `id` (replacing any kept before).
    ///
    /// # Errors
    /// No such game, or an SQLite error.
    pub fn save_web_seats(&mut self, id: GameId, seats: &WebSeats) -> Result<(), StoreError> {
        self.game_info(id)?;
        self.conn
            .execute(
                "INSERT OR REPLACE INTO web_seats (game_id, owner_token, remote, guest_token, \
                 join_code, resigned) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    id.0,
                    seats.owner_token,
                    seats.remote.map(color_text),
                    seats.guest_token,
                    seats.join_code,
                    seats.resigned.map(color_text)
                ],
            )
            .map_err(self.sql())?;
        Ok(())
    }

    /// The web seats of game `id`, if it was played through the web server.
    ///
    /// # Errors
    /// An SQLite error, or a damaged row.
    pub fn web_seats(&self, id: GameId) -> Result<Option<WebSeats>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT owner_token, remote, guest_token, join_code, resigned FROM web_seats \
                 WHERE game_id = ?1",
                [id.0],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, Option<String>>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, Option<String>>(3)?,
                        r.get::<_, Option<String>>(4)?,
                    ))
                },
            )
            .optional()
            .map_err(self.sql())?;
        let Some((owner_token, remote, guest_token, join_code, resigned)) = row else {
            return Ok(None);
        };
        let color = |text: Option<String>, what: &str| match text.as_deref() {
            None => Ok(None),
            Some("black") => Ok(Some(Color::Black)),
            Some("white") => Ok(Some(Color::White)),
            Some(other) => Err(StoreError::Corrupt {
                game: id,
                reason: format!("{what} {other:?}"),
            }),
        };
        let remote = color(remote, "web seat side")?;
        let resigned = color(resigned, "resigned side")?;
        Ok(Some(WebSeats {
            owner_token,
            remote,
            guest_token,
            join_code,
            resigned,
        }))
    }

    /// Makes `writer` the one process writing game `id` for `ttl` (taking over a lease that
    /// expired or whose holder on this machine has stopped; renewing its own).
    ///
    /// # Errors
    /// [`StoreError::Held`] when another live process holds the game, or an SQLite error.
    pub fn take_lease(&self, id: GameId, writer: &Writer, ttl: Duration) -> Result<(), StoreError> {
        let now = now_ms();
        let expires = now.saturating_add(i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX));
        let sql = self.sql();
        // Immediate: two writers taking the same lease at once see each other.
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )
        .map_err(&sql)?;
        let held = tx
            .query_row(
                "SELECT holder, host, pid, expires_ms FROM leases WHERE game_id = ?1",
                [id.0],
                |r| {
                    Ok((
                        Writer {
                            name: r.get(0)?,
                            host: r.get(1)?,
                            pid: r.get(2)?,
                        },
                        r.get::<_, i64>(3)?,
                    ))
                },
            )
            .optional()
            .map_err(&sql)?;
        if let Some((holder, until)) = held {
            let mine = holder.host == writer.host && holder.pid == writer.pid;
            let gone = until <= now || (holder.host == writer.host && !running(holder.pid));
            if !mine && !gone {
                return Err(StoreError::Held {
                    game: id,
                    holder: holder.describe(),
                });
            }
        }
        tx.execute(
            "INSERT OR REPLACE INTO leases (game_id, holder, host, pid, expires_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id.0, writer.name, writer.host, writer.pid, expires],
        )
        .map_err(&sql)?;
        tx.commit().map_err(&sql)
    }

    /// Gives up `writer`'s lease on game `id` (nothing if another holds it).
    ///
    /// # Errors
    /// An SQLite error.
    pub fn release_lease(&self, id: GameId, writer: &Writer) -> Result<(), StoreError> {
        self.conn
            .execute(
                "DELETE FROM leases WHERE game_id = ?1 AND host = ?2 AND pid = ?3",
                params![id.0, writer.host, writer.pid],
            )
            .map_err(self.sql())?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::{NewGame, Player};
    use reversi_core::{BoardSize, Rules};

    fn game(store: &mut Store) -> GameId {
        store
            .create_game(&NewGame::standard(
                BoardSize::EIGHT,
                Rules::Othello,
                Player::human("a"),
                Player::human("b"),
            ))
            .unwrap()
    }

    #[test]
    fn seats_read_back_and_go_with_their_game() {
        let mut store = Store::open_in_memory().unwrap();
        let id = game(&mut store);
        assert_eq!(store.web_seats(id).unwrap(), None);
        let seats = WebSeats {
            owner_token: "o".into(),
            remote: Some(Color::White),
            guest_token: None,
            join_code: Some("c".into()),
            resigned: None,
        };
        store.save_web_seats(id, &seats).unwrap();
        assert_eq!(store.web_seats(id).unwrap(), Some(seats.clone()));
        let resigned = WebSeats {
            guest_token: Some("g".into()),
            resigned: Some(Color::Black),
            ..seats
        };
        store.save_web_seats(id, &resigned).unwrap();
        assert_eq!(store.web_seats(id).unwrap(), Some(resigned));
        store.delete_game(id).unwrap();
        assert_eq!(store.web_seats(id).unwrap(), None);
    }

    #[test]
    fn a_live_lease_keeps_other_writers_out_until_released_or_expired() {
        let mut store = Store::open_in_memory().unwrap();
        let id = game(&mut store);
        let me = Writer::this_process("reversi serve");
        // Another live process: this machine's pid 1, or a process elsewhere.
        let other = Writer {
            name: "reversi history resume".into(),
            host: "elsewhere".into(),
            pid: 7,
        };
        store.take_lease(id, &me, Duration::from_secs(60)).unwrap();
        store.take_lease(id, &me, Duration::from_secs(60)).unwrap();
        let e = store
            .take_lease(id, &other, Duration::from_secs(60))
            .unwrap_err();
        assert!(e.to_string().contains("reversi serve (pid"), "{e}");
        store.release_lease(id, &me).unwrap();
        store.take_lease(id, &other, Duration::ZERO).unwrap();
        // Expired at once: free for the next.
        store.take_lease(id, &me, Duration::from_secs(60)).unwrap();
    }
}
