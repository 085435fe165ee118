//! The ordered parallel driver: a stream cut into chunks of whole games
//! ([`Chunker`]), some work done on each chunk on N threads, the results
//! handed out in input order whatever order the threads finish in.
//!
//! The calling thread reads and cuts the stream; with one thread it also
//! does the work, chunk after chunk, and with more it hands the chunks to
//! worker threads while it reads the next ones. The chunks are the same
//! whatever the number of threads, so the results are too. At most
//! `2 × threads + 1` chunks are in flight (cut, being worked on, or done
//! and waiting for an earlier one), so memory does not grow with the input.
//!
//! Validation ([`crate::pgn::check`]) is one kind of work; any
//! [`ChunkWork`] (a closure too) can be driven:
//!
//! ```
//! use sanfen::pgn::parallel::Ordered;
//! use sanfen::pgn::{Chunk, Chunker, Location, Reader, Visitor};
//!
//! /// The line of each game's end.
//! struct Ends;
//! impl Visitor for Ends {
//!     type Output = u32;
//!     fn end_game(&mut self, at: Location) -> u32 {
//!         at.line
//!     }
//! }
//!
//! let pgn: &[u8] = b"1. e4 e5 *\n\n1. d4 d5 *\n\n1. c4 *\n";
//! let work = |chunk: Chunk| {
//!     let mut reader = Reader::with_start(&chunk.data, chunk.start);
//!     std::iter::from_fn(|| reader.read_game(&mut Ends)).collect::<Vec<u32>>()
//! };
//! // a chunk per game, three threads: the games in input order
//! let mut ordered = Ordered::new(Chunker::with_target(pgn, 1), work, 3)?;
//! let mut lines = Vec::new();
//! for ends in &mut ordered {
//!     lines.extend(ends?);
//! }
//! assert_eq!(lines, [1, 3, 5]);
//! # Ok::<(), std::io::Error>(())
//! ```

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread::{self, JoinHandle};

use crate::pgn::chunk::{Chunk, Chunker};

/// What is done with each chunk, on whichever thread takes it.
pub trait ChunkWork: Send + Sync + 'static {
    /// What the work on one chunk gives; handed out in input order.
    type Output: Send + 'static;

    /// The work on one chunk. Its `data` may be kept in the output and
    /// given back for reuse with [`Ordered::recycle`].
    fn work(&self, chunk: Chunk) -> Self::Output;
}

impl<F, T> ChunkWork for F
where
    F: Fn(Chunk) -> T + Send + Sync + 'static,
    T: Send + 'static,
{
    type Output = T;

    fn work(&self, chunk: Chunk) -> T {
        self(chunk)
    }
}

/// The number of threads `threads` stands for: itself, or, for 0, one per
/// core.
pub fn threads_or_cores(threads: usize) -> usize {
    match threads {
        0 => thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// The results of a [`ChunkWork`] on each chunk of a stream, in input
/// order (see the [module](self)): an iterator of `Ok(output)` per chunk,
/// then, if the stream failed, `Err` with its read error, once, after the
/// outputs of every chunk read before it ([`Ordered::bytes_read`] then
/// says where the stream failed).
///
/// Dropping it early stops the workers (each finishes the chunk it holds).
/// A panic in the work is raised again on the thread that asks for its
/// output.
pub struct Ordered<R: Read, W: ChunkWork> {
    chunker: Chunker<R>,
    work: Arc<W>,
    /// The worker threads, with more than one thread.
    pool: Option<Pool<W::Output>>,
    /// Spent buffers, for the next chunks.
    spare: Vec<Vec<u8>>,
    /// The stream ended (or failed).
    finished: bool,
    /// The read error that ended the stream, handed out after the outputs
    /// of the chunks before it.
    failed: Option<io::Error>,
}

/// A chunk to work on, and its index in the stream.
type Job = (u64, Chunk);

/// The worker threads, and the outputs that came back before their turn.
struct Pool<T> {
    jobs: Option<mpsc::Sender<Job>>,
    results: mpsc::Receiver<(u64, thread::Result<T>)>,
    workers: Vec<JoinHandle<()>>,
    done: BTreeMap<u64, T>,
    /// Chunks handed to the workers.
    sent: u64,
    /// The index of the next output to hand out.
    next: u64,
    /// The most chunks in flight.
    max_in_flight: u64,
}

impl<R: Read, W: ChunkWork> Ordered<R, W> {
    /// Drives `work` over the chunks of `chunker` on `threads` threads (0:
    /// one per core; 1: on the calling thread alone, none started).
    ///
    /// # Errors
    ///
    /// A worker thread cannot be started.
    pub fn new(chunker: Chunker<R>, work: W, threads: usize) -> io::Result<Ordered<R, W>> {
        let threads = threads_or_cores(threads);
        let work = Arc::new(work);
        let pool = if threads > 1 { Some(Pool::start(&work, threads)?) } else { None };
        Ok(Ordered { chunker, work, pool, spare: Vec::new(), finished: false, failed: None })
    }

    /// Gives back a spent chunk's buffer (its `data`), to hold a later
    /// chunk: the chunker then allocates nothing per chunk.
    pub fn recycle(&mut self, buffer: Vec<u8>) {
        let keep = self.pool.as_ref().map_or(1, |pool| pool.max_in_flight as usize + 1);
        if self.spare.len() < keep {
            self.spare.push(buffer);
        }
    }

    /// The bytes read from the stream so far (after a read error: where the
    /// stream failed).
    pub fn bytes_read(&self) -> u64 {
        self.chunker.bytes_read()
    }

    /// The next chunk, or `None` when the stream ended; a read error is kept
    /// for later.
    fn next_chunk(&mut self) -> Option<Chunk> {
        if self.finished {
            return None;
        }
        match self.chunker.next_chunk(self.spare.pop().unwrap_or_default()) {
            Ok(Some(chunk)) => Some(chunk),
            Ok(None) => {
                self.finished = true;
                None
            }
            Err(err) => {
                self.failed = Some(err);
                self.finished = true;
                None
            }
        }
    }
}

impl<R: Read, W: ChunkWork> Iterator for Ordered<R, W> {
    type Item = io::Result<W::Output>;

    fn next(&mut self) -> Option<io::Result<W::Output>> {
        if self.pool.is_none() {
            return match self.next_chunk() {
                Some(chunk) => Some(Ok(self.work.work(chunk))),
                None => self.failed.take().map(Err),
            };
        }
        // keep the workers fed
        while let Some(pool) = &self.pool
            && pool.sent - pool.next < pool.max_in_flight
        {
            let Some(chunk) = self.next_chunk() else { break };
            let Some(pool) = &mut self.pool else { break };
            if let Some(jobs) = &pool.jobs
                && jobs.send((pool.sent, chunk)).is_err()
            {
                return Some(Err(io::Error::other("the worker threads stopped")));
            }
            pool.sent += 1;
        }
        let pool = self.pool.as_mut()?;
        if pool.next == pool.sent {
            return self.failed.take().map(Err);
        }
        loop {
            if let Some(output) = pool.done.remove(&pool.next) {
                pool.next += 1;
                return Some(Ok(output));
            }
            match pool.results.recv() {
                Ok((index, Ok(output))) => {
                    pool.done.insert(index, output);
                }
                Ok((_, Err(payload))) => panic::resume_unwind(payload),
                // (workers stop only when the jobs end, and a panic in the
                // work is caught: not expected)
                Err(_) => {
                    self.finished = true;
                    pool.next = pool.sent;
                    return Some(Err(io::Error::other("the worker threads stopped")));
                }
            }
        }
    }
}

impl<T: Send + 'static> Pool<T> {
    /// Starts `threads` workers doing `work`.
    fn start<W: ChunkWork<Output = T>>(work: &Arc<W>, threads: usize) -> io::Result<Pool<T>> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let (report, results) = mpsc::channel();
        let mut pool = Pool {
            jobs: Some(jobs),
            results,
            workers: Vec::with_capacity(threads),
            done: BTreeMap::new(),
            sent: 0,
            next: 0,
            max_in_flight: 2 * threads as u64 + 1,
        };
        for i in 0..threads {
            let (work, queue, report) = (Arc::clone(work), Arc::clone(&queue), report.clone());
            let worker = thread::Builder::new().name(format!("sanfen-chunk-{i}")).spawn(move || {
                loop {
                    // (the lock is held while waiting: one worker waits on the
                    // queue, the others on the lock)
                    let job = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
                    let Ok((index, chunk)) = job else { return };
                    let output = panic::catch_unwind(AssertUnwindSafe(|| work.work(chunk)));
                    if report.send((index, output)).is_err() {
                        return;
                    }
                }
            })?;
            pool.workers.push(worker);
        }
        Ok(pool)
    }
}

impl<T> Drop for Pool<T> {
    fn drop(&mut self) {
        // the queue closes: each worker ends after the chunk it holds
        self.jobs = None;
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream of `games` one-line games.
    fn games(games: usize) -> Vec<u8> {
        (0..games).flat_map(|i| format!("[Event \"{i}\"]\n1. e4 *\n").into_bytes()).collect()
    }

    fn starts(threads: usize, input: &[u8]) -> Vec<u64> {
        let work = |chunk: Chunk| {
            // later chunks faster, so that the workers finish out of order
            std::thread::sleep(std::time::Duration::from_micros(200u64.saturating_sub(chunk.start.offset / 4)));
            chunk.start.offset
        };
        let ordered = Ordered::new(Chunker::with_target(input, 1), work, threads).unwrap();
        ordered.map(Result::unwrap).collect()
    }

    #[test]
    fn outputs_come_in_input_order_whatever_the_threads() {
        let input = games(40);
        let one = starts(1, &input);
        assert_eq!(one.len(), 40);
        assert_eq!(one[..3], [0, 20, 40]);
        for threads in [2, 3, 8] {
            assert_eq!(starts(threads, &input), one, "{threads} threads");
        }
    }

    #[test]
    fn a_read_error_comes_once_after_the_chunks_before_it() {
        use crate::pgn::test_io::Failing;
        for threads in [1, 2, 4] {
            let chunker = Chunker::with_target(Failing(games(5)), 1);
            let mut ordered = Ordered::new(chunker, |chunk: Chunk| chunk.data.len(), threads).unwrap();
            let sizes: Vec<usize> = ordered.by_ref().map_while(Result::ok).collect();
            assert_eq!(sizes, [20; 5], "{threads} threads");
            assert_eq!(ordered.bytes_read(), 100);
            assert!(ordered.next().is_none(), "the error once");
        }
    }

    #[test]
    #[should_panic(expected = "work failed")]
    fn a_panic_in_the_work_reaches_the_caller() {
        let work = |chunk: Chunk| {
            assert!(chunk.start.offset != 40, "work failed");
        };
        let input = games(10);
        for output in Ordered::new(Chunker::with_target(&input[..], 1), work, 3).unwrap() {
            output.unwrap();
        }
    }
}
