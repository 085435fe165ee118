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
//! Work whose output can be far larger than its chunk (the rows of a game
//! of two million moves) hands it out in parts as it goes ([`Parts`],
//! driven by [`Ordered::drive`]): a chunk not yet the next in order holds
//! at most [`PARTS_WAITING`] of them, and its work waits for its turn.
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

use std::collections::VecDeque;
use std::convert::Infallible;
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread::{self, JoinHandle};

use crate::pgn::chunk::{Chunk, Chunker};

/// What is done with each chunk, on whichever thread takes it.
pub trait ChunkWork: Send + Sync + 'static {
    /// What the work hands out as it goes, before its output: the pieces of
    /// an output too large to hold whole (a chunk holds up to a game of
    /// 8 MiB, whose rows can take far more), through [`Parts`];
    /// [`Infallible`] for work that hands out its output whole.
    type Part: Send + 'static;

    /// What the work on one chunk gives; handed out in input order, after
    /// the chunk's parts.
    type Output: Send + 'static;

    /// The work on one chunk, handing its parts, if any, to `parts`. Its
    /// `data` may be kept in the output and given back for reuse with
    /// [`Ordered::recycle`].
    fn work(&self, chunk: Chunk, parts: &mut Parts<'_, Self::Part>) -> Self::Output;
}

impl<F, T> ChunkWork for F
where
    F: Fn(Chunk) -> T + Send + Sync + 'static,
    T: Send + 'static,
{
    type Part = Infallible;
    type Output = T;

    fn work(&self, chunk: Chunk, _parts: &mut Parts<'_, Infallible>) -> T {
        self(chunk)
    }
}

/// Where a chunk's work hands out its parts ([`ChunkWork::Part`]): to the
/// caller at once, when the chunk is the next in input order; otherwise
/// they wait, at most [`PARTS_WAITING`] of them (the chunk's output
/// included), and the work waits for its turn to hand out more. A thread
/// ahead of the others therefore holds a bounded part of its chunk's
/// output, however large the whole.
pub struct Parts<'a, P> {
    hand: &'a mut dyn FnMut(P) -> bool,
}

impl<P> Parts<'_, P> {
    /// Hands `part` out. `false`: the caller takes no more (it stopped), and
    /// the work may stop.
    pub fn send(&mut self, part: P) -> bool {
        (self.hand)(part)
    }
}

/// What [`Ordered::drive`] hands out for each chunk, in input order: its
/// parts, then its output.
#[derive(Debug)]
pub enum Piece<P, T> {
    /// A part of the chunk's output, handed out by the work as it went.
    Part(P),
    /// The chunk's output, after its parts.
    Output(T),
}

/// The pieces of a chunk that wait for their turn, at most: a part and the
/// output, so that work handing its output out whole, or in one part, never
/// waits.
pub const PARTS_WAITING: usize = 2;

/// The most threads the command line's `-j` and the Python package's
/// `threads=` take: more would only exhaust the system's threads (a number
/// mistyped).
pub const MOST_THREADS: usize = 1024;

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
/// says where the stream failed). Work that hands out parts is driven by
/// [`Ordered::drive`] instead.
///
/// Dropping it early stops the workers (each finishes the chunk it holds).
/// A panic in the work is raised again on the thread that asks for its
/// output.
pub struct Ordered<R: Read, W: ChunkWork> {
    chunker: Chunker<R>,
    work: Arc<W>,
    /// The worker threads, with more than one thread.
    pool: Option<Pool<W::Part, W::Output>>,
    /// Spent buffers, for the next chunks.
    spare: Vec<Vec<u8>>,
    /// The stream ended (or failed).
    finished: bool,
    /// The read error that ended the stream, handed out after the outputs
    /// of the chunks before it.
    failed: Option<io::Error>,
    /// Without worker threads, the pieces of the chunk worked on last, not
    /// yet handed out ([`Ordered::next_piece`]).
    held: VecDeque<Piece<W::Part, W::Output>>,
}

/// What a worker hands back for a chunk: a part, then the output (or the
/// panic that stopped the work).
enum Delivery<P, T> {
    Part(P),
    Done(thread::Result<T>),
}

/// A chunk to work on, and where its pieces go.
type Job<P, T> = (Chunk, mpsc::SyncSender<Delivery<P, T>>);

/// The worker threads, and where the pieces of each chunk in flight come
/// back, in input order.
struct Pool<P, T> {
    jobs: Option<mpsc::Sender<Job<P, T>>>,
    /// The chunks in flight, oldest first.
    pending: VecDeque<mpsc::Receiver<Delivery<P, T>>>,
    workers: Vec<JoinHandle<()>>,
    /// The most chunks in flight.
    max_in_flight: usize,
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
        Ok(Ordered::with(chunker, work, pool))
    }

    /// As [`Ordered::new`], but the work is done on worker threads even
    /// with one: the calling thread takes each piece with
    /// [`Ordered::next_piece`] as the work hands it out, and a chunk's parts
    /// are never all held at once.
    ///
    /// # Errors
    ///
    /// A worker thread cannot be started.
    pub fn on_workers(chunker: Chunker<R>, work: W, threads: usize) -> io::Result<Ordered<R, W>> {
        let work = Arc::new(work);
        let pool = Some(Pool::start(&work, threads_or_cores(threads))?);
        Ok(Ordered::with(chunker, work, pool))
    }

    fn with(chunker: Chunker<R>, work: Arc<W>, pool: Option<Pool<W::Part, W::Output>>) -> Ordered<R, W> {
        Ordered { chunker, work, pool, spare: Vec::new(), finished: false, failed: None, held: VecDeque::new() }
    }

    /// Gives back a spent chunk's buffer (its `data`), to hold a later
    /// chunk: the chunker then allocates nothing per chunk.
    pub fn recycle(&mut self, buffer: Vec<u8>) {
        let keep = self.pool.as_ref().map_or(1, |pool| pool.max_in_flight + 1);
        if self.spare.len() < keep {
            self.spare.push(buffer);
        }
    }

    /// The bytes read from the stream so far (after a read error: where the
    /// stream failed).
    pub fn bytes_read(&self) -> u64 {
        self.chunker.bytes_read()
    }

    /// Hands each chunk's pieces to `take`, in input order: its parts as
    /// the work hands them out, then its output. With one thread, `take`
    /// is called from inside the work, as each part is handed out. `take`
    /// may give back a spent chunk's buffer, as [`Ordered::recycle`] does.
    ///
    /// # Errors
    ///
    /// The first error of `take`, which stops the driving (the workers
    /// stop when this is dropped). `Ok(Err)`: the stream's read error,
    /// after the pieces of every chunk read before it (or the worker
    /// threads stopped).
    pub fn drive<E>(
        &mut self,
        mut take: impl FnMut(Piece<W::Part, W::Output>) -> Result<Option<Vec<u8>>, E>,
    ) -> Result<io::Result<()>, E> {
        if self.pool.is_none() {
            while let Some(chunk) = self.next_chunk() {
                let mut failed = None;
                let mut hand = |part| {
                    if failed.is_some() {
                        return false;
                    }
                    match take(Piece::Part(part)) {
                        Ok(_) => true,
                        Err(err) => {
                            failed = Some(err);
                            false
                        }
                    }
                };
                let output = self.work.work(chunk, &mut Parts { hand: &mut hand });
                if let Some(err) = failed {
                    return Err(err);
                }
                if let Some(spent) = take(Piece::Output(output))? {
                    self.recycle(spent);
                }
            }
            return Ok(self.failed.take().map_or(Ok(()), Err));
        }
        while let Some(piece) = self.next_piece() {
            match piece {
                Ok(piece) => {
                    if let Some(spent) = take(piece)? {
                        self.recycle(spent);
                    }
                }
                Err(err) => return Ok(Err(err)),
            }
        }
        Ok(Ok(()))
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

    /// The next piece in input order (see [`Ordered::drive`]); after the
    /// last, the read error that ended the stream, if any. Without worker
    /// threads ([`Ordered::new`] with one thread), a chunk's work is done
    /// whole when its first piece is asked for, and its parts held until
    /// they are taken: work that hands out parts is driven by
    /// [`Ordered::drive`], or on workers ([`Ordered::on_workers`]).
    pub fn next_piece(&mut self) -> Option<io::Result<Piece<W::Part, W::Output>>> {
        if self.pool.is_none() {
            if self.held.is_empty() {
                let Some(chunk) = self.next_chunk() else { return self.failed.take().map(Err) };
                let held = &mut self.held;
                let output = self.work.work(
                    chunk,
                    &mut Parts {
                        hand: &mut |part| {
                            held.push_back(Piece::Part(part));
                            true
                        },
                    },
                );
                self.held.push_back(Piece::Output(output));
            }
            return self.held.pop_front().map(Ok);
        }
        while let Some(pool) = &self.pool
            && pool.pending.len() < pool.max_in_flight
        {
            let Some(chunk) = self.next_chunk() else { break };
            let Some(pool) = &mut self.pool else { break };
            let (pieces, delivered) = mpsc::sync_channel(PARTS_WAITING);
            if let Some(jobs) = &pool.jobs
                && jobs.send((chunk, pieces)).is_err()
            {
                return Some(Err(io::Error::other("the worker threads stopped")));
            }
            pool.pending.push_back(delivered);
        }
        let pool = self.pool.as_mut()?;
        let Some(next) = pool.pending.front() else {
            return self.failed.take().map(Err);
        };
        match next.recv() {
            Ok(Delivery::Part(part)) => Some(Ok(Piece::Part(part))),
            Ok(Delivery::Done(Ok(output))) => {
                pool.pending.pop_front();
                Some(Ok(Piece::Output(output)))
            }
            Ok(Delivery::Done(Err(payload))) => panic::resume_unwind(payload),
            // (a worker drops a chunk's sender only after its output, and a
            // panic in the work is caught: not expected)
            Err(_) => {
                self.finished = true;
                pool.pending.clear();
                Some(Err(io::Error::other("the worker threads stopped")))
            }
        }
    }
}

impl<R: Read, W: ChunkWork<Part = Infallible>> Iterator for Ordered<R, W> {
    type Item = io::Result<W::Output>;

    fn next(&mut self) -> Option<io::Result<W::Output>> {
        Some(match self.next_piece()? {
            Ok(Piece::Output(output)) => Ok(output),
            Ok(Piece::Part(part)) => match part {},
            Err(err) => Err(err),
        })
    }
}

impl<P: Send + 'static, T: Send + 'static> Pool<P, T> {
    /// Starts `threads` workers doing `work`.
    fn start<W: ChunkWork<Part = P, Output = T>>(work: &Arc<W>, threads: usize) -> io::Result<Pool<P, T>> {
        let (jobs, queue) = mpsc::channel::<Job<P, T>>();
        let queue = Arc::new(Mutex::new(queue));
        let mut pool = Pool {
            jobs: Some(jobs),
            pending: VecDeque::new(),
            workers: Vec::with_capacity(threads),
            max_in_flight: 2 * threads + 1,
        };
        for i in 0..threads {
            let (work, queue) = (Arc::clone(work), Arc::clone(&queue));
            let worker = thread::Builder::new().name(format!("sanfen-chunk-{i}")).spawn(move || {
                loop {
                    // (the lock is held while waiting: one worker waits on the
                    // queue, the others on the lock)
                    let job = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
                    let Ok((chunk, pieces)) = job else { return };
                    let output = panic::catch_unwind(AssertUnwindSafe(|| {
                        let mut hand = |part| pieces.send(Delivery::Part(part)).is_ok();
                        work.work(chunk, &mut Parts { hand: &mut hand })
                    }));
                    if pieces.send(Delivery::Done(output)).is_err() {
                        return;
                    }
                }
            })?;
            pool.workers.push(worker);
        }
        Ok(pool)
    }
}

impl<P, T> Drop for Pool<P, T> {
    fn drop(&mut self) {
        // the queue closes, and the chunks in flight lose their taker (a
        // worker waiting to hand out a part goes on): each worker ends
        // after the chunk it holds
        self.jobs = None;
        self.pending.clear();
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

    /// Work handing out `parts` parts per chunk, numbered, then its start.
    struct Counting {
        parts: usize,
        /// The parts handed out by every chunk's work so far (that of the
        /// chunk at 20 bytes, the second, waits for the first, which sleeps).
        handed: Arc<std::sync::atomic::AtomicUsize>,
    }

    impl ChunkWork for Counting {
        type Part = (u64, usize);
        type Output = u64;

        fn work(&self, chunk: Chunk, parts: &mut Parts<'_, (u64, usize)>) -> u64 {
            let at = chunk.start.offset;
            if at == 0 {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            for i in 0..self.parts {
                if at == 20 {
                    self.handed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
                if !parts.send((at, i)) {
                    break;
                }
            }
            at
        }
    }

    #[test]
    fn parts_come_in_input_order_before_their_output_and_wait_for_their_turn() {
        let input = games(6);
        for threads in [1, 2, 3] {
            let handed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
            let work = Counting { parts: 10, handed: Arc::clone(&handed) };
            let mut ordered = Ordered::new(Chunker::with_target(&input[..], 1), work, threads).unwrap();
            let mut pieces = Vec::new();
            // when the first chunk's output comes, the second's work has
            // handed out at most the parts that may wait, and one more that
            // waits to be taken
            let mut handed_then = None;
            let read = ordered.drive(|piece| {
                if let Piece::Output(0) = piece {
                    handed_then = Some(handed.load(std::sync::atomic::Ordering::SeqCst));
                }
                pieces.push(piece);
                Ok::<_, ()>(None)
            });
            assert!(matches!(read, Ok(Ok(()))), "{threads} threads");
            let expected: Vec<String> = (0..6)
                .flat_map(|chunk| {
                    let at = 20 * chunk;
                    (0..10).map(move |i| format!("Part(({at}, {i}))")).chain([format!("Output({at})")])
                })
                .collect();
            assert_eq!(pieces.iter().map(|piece| format!("{piece:?}")).collect::<Vec<_>>(), expected);
            let handed_then = handed_then.unwrap();
            assert!(handed_then <= PARTS_WAITING + 1, "{handed_then} parts handed, {threads} threads");
        }
    }

    #[test]
    fn an_error_of_the_taker_stops_the_driving_and_the_workers() {
        // the workers of later chunks wait to hand out parts: dropping the
        // driver ends them (the test would hang otherwise)
        let input = games(30);
        for threads in [1, 2, 4] {
            let work = Counting { parts: 50, handed: Arc::default() };
            let mut ordered = Ordered::new(Chunker::with_target(&input[..], 1), work, threads).unwrap();
            let mut taken = 0;
            let driven = ordered.drive(|_| {
                taken += 1;
                if taken == 70 { Err(taken) } else { Ok(None) }
            });
            assert_eq!(driven.unwrap_err(), 70, "{threads} threads");
            drop(ordered);
        }
    }

    #[test]
    fn a_read_error_comes_after_the_pieces_of_the_chunks_before_it() {
        use crate::pgn::test_io::Failing;
        for threads in [1, 2, 4] {
            let chunker = Chunker::with_target(Failing(games(5)), 1);
            let work = Counting { parts: 1, handed: Arc::default() };
            let mut ordered = Ordered::new(chunker, work, threads).unwrap();
            let mut outputs = Vec::new();
            let read = ordered.drive(|piece| {
                if let Piece::Output(at) = piece {
                    outputs.push(at);
                }
                Ok::<_, ()>(None)
            });
            assert!(matches!(read, Ok(Err(_))), "{threads} threads");
            assert_eq!(outputs, [0, 20, 40, 60, 80]);
            assert_eq!(ordered.bytes_read(), 100);
        }
    }

    #[test]
    #[should_panic(expected = "work failed")]
    fn a_panic_in_work_with_parts_reaches_the_caller() {
        struct Failing;
        impl ChunkWork for Failing {
            type Part = ();
            type Output = ();
            fn work(&self, chunk: Chunk, parts: &mut Parts<'_, ()>) {
                parts.send(());
                assert!(chunk.start.offset != 40, "work failed");
            }
        }
        let input = games(10);
        let mut ordered = Ordered::new(Chunker::with_target(&input[..], 1), Failing, 3).unwrap();
        let _ = ordered.drive(|_| Ok::<_, ()>(None));
    }
}
