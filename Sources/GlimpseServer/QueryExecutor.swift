import NIOPosix

/// A task executor with its own threads, so CPU-bound query work (decoding, feature extraction,
/// matching) never runs on an event loop or on the shared Swift concurrency threads.
///
/// Work runs here when started inside `withTaskExecutorPreference(executor)`.
final class QueryExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the only stored property is NIOThreadPool, which is itself thread-safe.
    private let pool: NIOThreadPool

    /// Starts `threads` threads.
    init(threads: Int) {
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.submit { _ in
            // Run even when the pool reports shutdown: a job that never runs would hang its task.
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }

    /// Stops the threads once queued jobs have run.
    func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}
