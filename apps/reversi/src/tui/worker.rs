//! Background thinking: the computer's move, the hints and a game's analysis run on their own
//! threads and report back over a channel, so the screen never freezes; each job can be
//! stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use reversi_core::{Game, Position};
use reversi_engine::levels::Level;
use reversi_engine::{Candidate, Thinking};
use reversi_players::Decision;

use reversi_game::analysis::{self, Analysis};
use reversi_game::ComputerTurn;

/// What a job tells the screen.
#[derive(Debug)]
pub enum Report {
    /// The computer's search so far.
    Thinking { job: u64, thinking: Thinking },
    /// The computer's move (`None`: nothing to play).
    Decided {
        job: u64,
        decision: Option<Decision>,
    },
    /// The hint search so far.
    HintProgress { job: u64, thinking: Thinking },
    /// Every legal move scored, best first.
    Hints { job: u64, hints: Vec<Candidate> },
    /// The analysis so far: positions done, positions in all.
    AnalysisProgress { job: u64, done: usize, total: usize },
    /// The game analysed (`None`: stopped).
    Analysed {
        job: u64,
        analysis: Option<Box<Analysis>>,
    },
}

impl Report {
    #[must_use]
    pub fn job(&self) -> u64 {
        match self {
            Report::Thinking { job, .. }
            | Report::Decided { job, .. }
            | Report::HintProgress { job, .. }
            | Report::Hints { job, .. }
            | Report::AnalysisProgress { job, .. }
            | Report::Analysed { job, .. } => *job,
        }
    }
}

/// A job under way: its id (reports carry it) and its stop flag.
#[derive(Debug)]
pub struct Job {
    pub id: u64,
    stop: Arc<AtomicBool>,
}

impl Job {
    /// Asks the job to finish now with what it has.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    #[must_use]
    pub fn is_stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Starts jobs and collects their reports.
pub struct Workers {
    tx: Sender<Report>,
    rx: Receiver<Report>,
    next_id: u64,
}

impl Default for Workers {
    fn default() -> Self {
        let (tx, rx) = channel();
        Workers { tx, rx, next_id: 1 }
    }
}

impl Workers {
    fn job(&mut self) -> (Job, Arc<AtomicBool>, Sender<Report>) {
        let id = self.next_id;
        self.next_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        (
            Job {
                id,
                stop: Arc::clone(&stop),
            },
            stop,
            self.tx.clone(),
        )
    }

    /// The computer thinks about `turn`.
    pub fn think(&mut self, turn: ComputerTurn) -> Job {
        let (job, stop, tx) = self.job();
        let id = job.id;
        thread::spawn(move || {
            let progress_tx = tx.clone();
            let decision = turn.run(&stop, &mut |t: &Thinking| {
                // The screen may be gone; then nobody needs the report.
                let _ = progress_tx.send(Report::Thinking {
                    job: id,
                    thinking: t.clone(),
                });
            });
            let _ = tx.send(Report::Decided { job: id, decision });
        });
        job
    }

    /// Scores every legal move of `position` at `level`.
    pub fn hints(&mut self, position: Position, level: Level) -> Job {
        let (job, stop, tx) = self.job();
        let id = job.id;
        thread::spawn(move || {
            let progress_tx = tx.clone();
            let hints =
                crate::advisor::get().hints(&position, level, &stop, &mut |t: &Thinking| {
                    let _ = progress_tx.send(Report::HintProgress {
                        job: id,
                        thinking: t.clone(),
                    });
                });
            let _ = tx.send(Report::Hints { job: id, hints });
        });
        job
    }

    /// Analyses every move of `game` at `level`, with an engine of its own (a fresh table),
    /// so that the same game gets the same analysis each time, whatever ran before.
    pub fn analyze(&mut self, game: Game, level: Level) -> Job {
        let (job, stop, tx) = self.job();
        let id = job.id;
        thread::spawn(move || {
            let progress_tx = tx.clone();
            let each_within_its_level = Duration::MAX;
            let analysis = analysis::analyze_alone(
                crate::advisor::book(),
                &game,
                level,
                each_within_its_level,
                &stop,
                &mut |done, total| {
                    let _ = progress_tx.send(Report::AnalysisProgress {
                        job: id,
                        done,
                        total,
                    });
                },
            );
            let _ = tx.send(Report::Analysed {
                job: id,
                analysis: analysis.map(Box::new),
            });
        });
        job
    }

    /// A report, if one is waiting.
    #[must_use]
    pub fn try_recv(&self) -> Option<Report> {
        self.rx.try_recv().ok()
    }

    /// The next report, waiting up to `timeout` for it.
    #[must_use]
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Report> {
        self.rx.recv_timeout(timeout).ok()
    }
}
