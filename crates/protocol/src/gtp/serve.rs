//! The GTP loop: one line read, one response written, until `quit` or the end of the input.
//! GTP has no command that interrupts a search, so unlike NBoard's loop this one needs no
//! reader thread.

use std::io::{self, BufRead, Write};

use super::session::{Flow, Session};

/// Runs `session` on the lines of `input` until `quit` or the end of the input, writing the
/// responses to `out`. Lines that are not UTF-8 are read with replacement characters (and
/// then answered as unknown commands).
///
/// # Errors
/// When reading the input or writing a response fails.
///
/// # Examples
/// ```
/// use reversi_engine::engine::Engine;
/// use reversi_engine::levels::Level;
/// use reversi_protocol::gtp::{serve, Session};
///
/// let mut session = Session::new(Engine::new(1, 1), Level::new(1).expect("a level"));
/// let input = std::io::Cursor::new("# a match\n1 boardsize 8\n2 boardsize 6\nquit\nname\n");
/// let mut out = Vec::new();
/// serve(&mut session, input, &mut out)?;
/// // Nothing after `quit` is read.
/// assert_eq!(String::from_utf8(out)?, "=1\n\n?2 unacceptable size\n\n=\n\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn serve<R: BufRead>(
    session: &mut Session,
    mut input: R,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buf);
        if session.handle_line(&line, out)? == Flow::Quit {
            return Ok(());
        }
    }
}
