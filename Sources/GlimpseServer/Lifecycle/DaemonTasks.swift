/// Where the daemon's own tasks run: the executor of ``GlimpseServerConfiguration/taskExecutor`` while
/// ``GlimpseServer/run()`` serves, carried as a task-local value so that the tasks the daemon starts
/// outside its task tree (a query's task, work cancelled when its client leaves, the shutdown grace
/// timer) prefer it too; unstructured tasks inherit task-local values but not an executor preference.
enum DaemonTasks {
    /// The executor the daemon's tasks prefer; `nil` for Swift's global concurrent executor.
    @TaskLocal static var executor: (any TaskExecutor)?

    /// An unstructured task running `operation` on the daemon's executor.
    static func start<T: Sendable>(
        _ operation: sending @escaping @isolated(any) () async throws -> T
    ) -> Task<T, any Error> {
        Task(executorPreference: executor, operation: operation)
    }

    /// ``start(_:)`` for work that cannot fail.
    static func start(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: executor, operation: operation)
    }
}
