//! The long-lived search thread: it receives jobs and control messages over crossbeam channels,
//! runs them, and reports back through a channel. It never prints.
//!
//! Control messages (`stop`, `quit`) go over their own channel, which the search polls at its node
//! check. A `stop` names the job it is for: one that arrives after its search has finished is
//! ignored by the next search, and one that arrives before its search has even started (a client
//! sending `go` and `stop` back to back) still stops it.

use super::book::{LearnTask, Learnt, learn};
use crate::board::Move;
use crate::board::perft::perft_interruptible;
use crate::board::{Convention, Position};
use crate::search::{
    SearchControl, SearchInfo, SearchRequest, SearchResult, Searcher, StopReason, TranspositionTable, unsearched,
};
use crossbeam_channel::{Receiver, Sender, TryRecvError, unbounded};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Work for the search thread.
#[derive(Debug)]
pub enum Job {
    /// Search a position.
    Search {
        /// Identifies the reports of this job.
        id: u64,
        /// What to search.
        request: Box<SearchRequest>,
    },
    /// Count perft leaves.
    Perft {
        /// Identifies the report.
        id: u64,
        /// Root position.
        position: Position,
        /// Plies.
        depth: u32,
    },
    /// Add a game to a book and write it (NBoard `learn`); a stop ends it between two positions.
    Learn {
        /// Identifies the report.
        id: u64,
        /// The book, the file, the game and how to score.
        task: Box<LearnTask>,
    },
    /// Forget what earlier searches learnt (a new game).
    NewGame,
    /// Search with this table and this many threads from the next search on. Queued like the
    /// other jobs, so a running search is never changed.
    Configure {
        /// The transposition table (a new one when the size changed).
        table: Arc<TranspositionTable>,
        /// Search threads, at least one.
        threads: usize,
    },
}

/// Messages that interrupt a running job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Stop the job with this id and report the best move so far.
    Stop(u64),
    /// Abandon the search: the engine is exiting.
    Quit,
}

/// What the search thread sends back.
#[derive(Debug)]
pub enum Report {
    /// An iteration finished.
    Iteration {
        /// The job.
        id: u64,
        /// Its state.
        info: SearchInfo,
    },
    /// The search finished (completed or stopped).
    Finished {
        /// The job.
        id: u64,
        /// Its result.
        result: SearchResult,
    },
    /// A search is still running: sent every [`PROGRESS_INTERVAL`] so that clients can show that
    /// it moves (NBoard's `nodestats`).
    Progress {
        /// The job.
        id: u64,
        /// Nodes searched so far.
        nodes: u64,
        /// Time since the search started.
        time: Duration,
    },
    /// Perft finished, or was stopped (`leaves` is `None`).
    Perft {
        /// The job.
        id: u64,
        /// Leaves counted, unless stopped.
        leaves: Option<u64>,
        /// Time taken.
        time: Duration,
    },
    /// A `learn` finished, or was stopped.
    Learned {
        /// The job.
        id: u64,
        /// What it did.
        learnt: Box<Learnt>,
    },
}

/// The engine's handle on the search thread.
pub struct SearchThread {
    jobs: Sender<Job>,
    control: Sender<Control>,
    /// Reports from the search thread.
    pub reports: Receiver<Report>,
}

impl SearchThread {
    /// Starts the thread, searching with `table` and `threads` threads.
    pub fn spawn(table: Arc<TranspositionTable>, threads: usize) -> SearchThread {
        let (jobs, job_rx) = unbounded();
        let (control, control_rx) = unbounded();
        let (report_tx, reports) = unbounded();
        thread::Builder::new()
            .name("search".into())
            .spawn(move || run(Config { table, threads }, job_rx, control_rx, report_tx))
            .unwrap_or_else(|e| panic!("cannot start the search thread: {e}"));
        SearchThread { jobs, control, reports }
    }

    /// Hands a job to the thread.
    pub fn send(&self, job: Job) {
        if self.jobs.send(job).is_err() {
            log::error!("the search thread has gone");
        }
    }

    /// Interrupts the running job, if any.
    pub fn control(&self, message: Control) {
        let _ = self.control.send(message);
    }
}

/// How often a running search reports its progress.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(500);

/// The control seen by the search: the channel, read for the job `id`. `latest_stop` is the
/// highest job id a stop was received for; job ids only grow, so a job is stopped once
/// `latest_stop` reaches its id, whether the stop came before or during its search. It also sends
/// the progress reports.
struct ChannelControl<'a> {
    control: &'a Receiver<Control>,
    id: u64,
    latest_stop: &'a mut u64,
    /// Where progress goes (searches only), the search's start and when progress was last sent.
    progress: Option<(&'a Sender<Report>, Instant, Instant)>,
}

impl SearchControl for ChannelControl<'_> {
    fn poll(&mut self, nodes: u64) -> Option<StopReason> {
        if let Some((reports, start, last)) = &mut self.progress {
            let now = Instant::now();
            if now.duration_since(*last) >= PROGRESS_INTERVAL {
                *last = now;
                let _ = reports.send(Report::Progress { id: self.id, nodes, time: now.duration_since(*start) });
            }
        }
        loop {
            match self.control.try_recv() {
                Ok(Control::Stop(id)) => *self.latest_stop = (*self.latest_stop).max(id),
                Ok(Control::Quit) | Err(TryRecvError::Disconnected) => return Some(StopReason::Quit),
                Err(TryRecvError::Empty) => break,
            }
        }
        (*self.latest_stop >= self.id).then_some(StopReason::Stopped)
    }
}

/// The table and threads the searches use.
struct Config {
    table: Arc<TranspositionTable>,
    threads: usize,
}

impl Config {
    /// A searcher with this table and threads. The table is empty (new, or cleared after a
    /// panic), so the searcher need not clear it before its first search.
    fn searcher(&self) -> Searcher {
        let mut searcher = Searcher::with_table(Arc::clone(&self.table));
        searcher.set_threads(self.threads);
        searcher
    }

    /// The searcher that replaces one whose search panicked: the same table, cleared (a new
    /// searcher does not know which evaluation the table's entries were computed with, so it must
    /// start from an empty table), and the same threads.
    fn searcher_after_panic(&self) -> Searcher {
        self.table.clear();
        self.searcher()
    }
}

fn run(mut config: Config, jobs: Receiver<Job>, control: Receiver<Control>, reports: Sender<Report>) {
    let mut searcher = config.searcher();
    let mut latest_stop = 0;
    while let Ok(job) = jobs.recv() {
        match job {
            Job::Search { id, request } => {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    let mut channel = ChannelControl {
                        control: &control,
                        id,
                        latest_stop: &mut latest_stop,
                        progress: Some((&reports, request.start, Instant::now())),
                    };
                    let mut on_iteration =
                        |info: &SearchInfo| drop(reports.send(Report::Iteration { id, info: info.clone() }));
                    searcher.search(&request, &mut channel, &mut on_iteration)
                }));
                let result = outcome.unwrap_or_else(|_| {
                    // A bug in the search must not leave the client without a legal move.
                    log::error!("the search panicked; answering with the first legal move");
                    searcher = config.searcher_after_panic();
                    fallback(&request)
                });
                let _ = reports.send(Report::Finished { id, result });
            }
            Job::Perft { id, position, depth } => {
                let start = Instant::now();
                let mut channel =
                    ChannelControl { control: &control, id, latest_stop: &mut latest_stop, progress: None };
                let leaves =
                    perft_interruptible(&position, depth, Convention::Standard, &mut || channel.poll(0).is_some());
                let _ = reports.send(Report::Perft { id, leaves, time: start.elapsed() });
            }
            Job::Learn { id, task } => {
                let path = task.path.clone();
                let (control, latest, learner) = (&control, &mut latest_stop, &mut searcher);
                let outcome = catch_unwind(AssertUnwindSafe(move || {
                    let mut channel = ChannelControl { control, id, latest_stop: latest, progress: None };
                    learn(*task, learner, &mut || channel.poll(0).is_some())
                }));
                let learnt = outcome.unwrap_or_else(|_| {
                    log::error!("learning panicked; the book file is left as it was");
                    searcher = config.searcher_after_panic();
                    Learnt::failed(path, "learning failed (an internal error)".to_string())
                });
                let _ = reports.send(Report::Learned { id, learnt: Box::new(learnt) });
            }
            Job::NewGame => searcher.clear(),
            Job::Configure { table, threads } => {
                if !Arc::ptr_eq(&table, &config.table) {
                    // A new table is empty: a new searcher over it has nothing to clear (clearing
                    // would touch every page of it before the next search).
                    config.table = table;
                    searcher = config.searcher();
                }
                config.threads = threads;
                searcher.set_threads(threads);
            }
        }
    }
}

/// The first legal move (or a pass), with no search.
fn fallback(request: &SearchRequest) -> SearchResult {
    let best = request.position.legal_moves().first().map_or(Move::Pass, Move::Play);
    unsearched(best, 0, request.start.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalKind;
    use crate::search::tt::TtEntry;

    fn table(mib: usize) -> Arc<TranspositionTable> {
        Arc::new(TranspositionTable::new(mib).unwrap())
    }

    #[test]
    fn searchers_keep_the_configured_table_and_threads() {
        let config = Config { table: table(1), threads: 3 };
        let searcher = config.searcher();
        assert!(Arc::ptr_eq(searcher.table(), &config.table));
        assert_eq!(searcher.threads(), 3);
        let entry = TtEntry { lower: 0, upper: 0, best: 19, depth: 4, cost: 3, cut: 0 };
        config.table.store(12345, entry);
        let after_panic = config.searcher_after_panic();
        assert!(Arc::ptr_eq(after_panic.table(), &config.table));
        assert_eq!(after_panic.threads(), 3);
        assert_eq!(config.table.probe(12345), None, "the table is cleared");
    }

    /// A `Configure` queued behind a search changes the searches after it; each search answers.
    #[test]
    fn configure_applies_from_the_next_search() {
        let thread = SearchThread::spawn(table(1), 1);
        let position = crate::board::Position::initial();
        let search = |id: u64| {
            let mut request = SearchRequest::new(position, EvalKind::default());
            request.max_depth = 6;
            Job::Search { id, request: Box::new(request) }
        };
        thread.send(search(1));
        thread.send(Job::Configure { table: table(2), threads: 2 });
        thread.send(search(2));
        thread.send(Job::NewGame);
        thread.send(search(3));
        let mut finished = Vec::new();
        while finished.len() < 3 {
            match thread.reports.recv_timeout(Duration::from_secs(30)) {
                Ok(Report::Finished { id, result }) => {
                    assert!(position.is_legal(result.best), "{result:?}");
                    finished.push(id);
                }
                Ok(_) => {}
                Err(e) => panic!("no report: {e}"),
            }
        }
        assert_eq!(finished, [1, 2, 3]);
        thread.control(Control::Quit);
    }
}
