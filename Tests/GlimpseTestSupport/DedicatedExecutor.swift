import Dispatch

/// A task executor on threads of its own, for an in-process daemon or catalog store under test.
///
/// Swift Testing runs every test of the suite as a task on Swift's global concurrent executor, which has
/// one thread per core: on a 2-core machine, two tests computing for seconds hold both, and every other
/// task waits in line behind a few hundred such tests. A daemon whose steps (accepting, reading a body,
/// answering) each wait in that line took over 600 s to answer one `curl`. With this executor as
/// `GlimpseServerConfiguration.taskExecutor` its steps run on threads the operating system schedules
/// beside the suite's, as they would in a daemon process of its own.
public final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: a DispatchQueue is thread-safe. A concurrent queue runs each job on a thread of the
    // overcommitting pool, which starts threads even while every core is busy.
    private let queue: DispatchQueue

    /// The executor the suite's in-process daemons share.
    public static let shared = DedicatedExecutor(label: "glimpse.test.daemon")

    /// The executor of the suite's PostgreSQL stores' own tasks (their pools, leases and listeners),
    /// `PostgresCatalogStore.open(…, taskExecutor:)`.
    public static let store = DedicatedExecutor(label: "glimpse.test.store")

    /// The executor of the tests' own side of an exchange with an in-process daemon (their requests and
    /// the reading of the answers): on the global executor a test's task waits in line each time it
    /// resumes, for minutes at the start of a parallel run, and a daemon closes a connection left idle
    /// that long under it.
    public static let clients = DedicatedExecutor(label: "glimpse.test.clients")

    /// An executor whose jobs run on a concurrent queue named `label`.
    public init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    /// Runs `job` on one of the queue's threads.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
