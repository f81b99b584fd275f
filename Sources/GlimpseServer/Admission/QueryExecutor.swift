import NIOPosix
import Synchronization

/// A task executor with its own threads, so CPU-bound query work (decoding, feature extraction,
/// matching) never runs on an event loop or on the shared Swift concurrency threads.
///
/// Work runs here when started inside `withTaskExecutorPreference(executor)`. The threads start with
/// the first job, so an executor that never runs one (a daemon built but never run) holds none.
final class QueryExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: NIOThreadPool is itself thread-safe, and `phase` is behind its mutex.
    private let pool: NIOThreadPool

    private enum Phase { case idle, running, stopped }
    private let phase = Mutex(Phase.idle)

    /// Prepares `threads` threads (started by the first job).
    init(threads: Int) {
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
    }

    func enqueue(_ job: consuming ExecutorJob) {
        phase.withLock { phase in
            if phase == .idle {
                pool.start()
                phase = .running
            }
        }
        let job = UnownedJob(job)
        pool.submit { _ in
            // Run even when the pool reports shutdown: a job that never runs would hang its task.
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }

    /// Stops the threads once queued jobs have run; later jobs run on the thread that enqueues them.
    func shutdown() async {
        let wasRunning = phase.withLock { phase in
            defer { phase = .stopped }
            return phase == .running
        }
        if wasRunning { try? await pool.shutdownGracefully() }
    }
}
