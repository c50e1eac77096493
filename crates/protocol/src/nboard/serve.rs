//! The NBoard loop: input lines are read on their own thread and queued, so that a `ping`
//! (or `quit`) stops a search under way at once instead of waiting its turn.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use super::command::Command;
use super::session::{Flow, Session};

/// The stop flag of the searches, raised while an interrupting command (`ping`, `quit`) waits
/// in the queue and lowered once the last of them has been handled.
#[derive(Debug, Default)]
pub struct Interrupt {
    stop: AtomicBool,
    pending: AtomicUsize,
}

impl Interrupt {
    /// A flag that is down, with no interrupting command waiting.
    #[must_use]
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// An interrupting command was read: stop any search until it is handled.
    pub fn raise(&self) {
        self.pending.fetch_add(1, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// An interrupting command was handled: searches may run again unless another one waits.
    pub fn settle(&self) {
        let _ = self
            .pending
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        self.stop.store(false, Ordering::SeqCst);
        // A `raise` between the two lines above has set the flag after this store, or is
        // seen here: either way the flag ends up raised while a command is pending.
        if self.pending.load(Ordering::SeqCst) > 0 {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// The flag searches poll.
    #[must_use]
    pub fn flag(&self) -> &AtomicBool {
        &self.stop
    }
}

/// Runs `session` on the lines of `input` until `quit` or the end of the input, writing the
/// replies to `out`. Lines that are not UTF-8 are read with replacement characters (and then
/// ignored as unknown commands).
///
/// # Errors
/// When writing a reply fails (the GUI has gone).
///
/// # Examples
/// The engine's side of a whole session, the GUI's lines read from memory:
/// ```
/// use reversi_engine::engine::Engine;
/// use reversi_protocol::nboard::{serve, Session};
///
/// let mut session = Session::new(Engine::new(1, 1));
/// let input = std::io::Cursor::new("nboard 2\nset depth 1\nmove F5\nping 3\nquit\nping 4\n");
/// let mut out = Vec::new();
/// serve(&mut session, input, &mut out)?;
/// // Nothing after `quit` is read.
/// assert_eq!(String::from_utf8(out)?, "set myname Reversi1\npong 3\n");
/// assert_eq!(session.game().moves().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn serve<R>(session: &mut Session, input: R, out: &mut dyn Write) -> io::Result<()>
where
    R: BufRead + Send + 'static,
{
    let interrupt = Arc::new(Interrupt::new());
    let (tx, rx) = mpsc::channel::<String>();
    let reader_interrupt = Arc::clone(&interrupt);
    // The reader may stay blocked on its input after `quit`; it ends with the process.
    std::thread::spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buf).into_owned();
            if Command::interrupts(&line) {
                reader_interrupt.raise();
            }
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    for line in rx {
        let flow = session.handle_line(&line, out, interrupt.flag());
        if Command::interrupts(&line) {
            interrupt.settle();
        }
        if flow? == Flow::Quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;
    use std::time::{Duration, Instant};

    use reversi_engine::engine::Engine;

    #[test]
    fn ping_stops_a_long_go_and_answers_promptly() {
        let (in_r, mut in_w) = io::pipe().unwrap();
        let (out_r, out_w) = io::pipe().unwrap();
        let server = std::thread::spawn(move || {
            let mut session = Session::new(Engine::new(8, 1));
            let mut out = out_w;
            serve(&mut session, BufReader::new(in_r), &mut out)
        });
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out_r).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let next = |what: &str| {
            rx.recv_timeout(Duration::from_secs(5))
                .unwrap_or_else(|_| panic!("no {what} within 5 s"))
        };
        // Depth 60 from the start asks for a solve of the whole game: it never ends by itself.
        writeln!(in_w, "nboard 2\nset depth 60\ngo").unwrap();
        assert_eq!(next("name"), "set myname Reversi60");
        assert!(next("status").starts_with("status "));
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        writeln!(in_w, "ping 7").unwrap();
        let mut seen = Vec::new();
        loop {
            let line = next("pong");
            if line == "pong 7" {
                break;
            }
            seen.push(line);
        }
        assert!(asked.elapsed() < Duration::from_secs(5));
        // The stopped search still answered, before the pong.
        assert!(seen.iter().any(|l| l.starts_with("=== ")), "{seen:?}");
        // Searches run again after the pong.
        writeln!(in_w, "set depth 2\nhint 1\nquit").unwrap();
        assert_eq!(next("name"), "set myname Reversi2");
        let mut depths = Vec::new();
        loop {
            let line = next("hint");
            if line == "status" {
                break;
            }
            if let Some(rest) = line.strip_prefix("search ") {
                depths.push(rest.split_whitespace().nth(3).unwrap_or("").to_string());
            }
        }
        assert_eq!(depths.last().map(String::as_str), Some("2"));
        assert!(server.join().unwrap().is_ok());
    }

    #[test]
    fn the_end_of_the_input_ends_the_session() {
        let mut session = Session::new(Engine::new(1, 1));
        let mut out = Vec::new();
        let input = io::Cursor::new(b"nboard 2\nping 1\n\xff\xfe junk\nping 2".to_vec());
        serve(&mut session, input, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "pong 1\npong 2\n");
    }

    #[test]
    fn the_flag_stays_raised_while_an_interrupt_waits() {
        let i = Interrupt::new();
        assert!(!i.flag().load(Ordering::SeqCst));
        i.raise();
        i.raise();
        i.settle();
        assert!(i.flag().load(Ordering::SeqCst));
        i.settle();
        assert!(!i.flag().load(Ordering::SeqCst));
        // More settles than raises do no harm.
        i.settle();
        assert!(!i.flag().load(Ordering::SeqCst));
        i.raise();
        assert!(i.flag().load(Ordering::SeqCst));
    }
}
