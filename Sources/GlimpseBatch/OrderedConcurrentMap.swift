/// Runs a transform over a sequence with bounded concurrency and hands the results back in input order.
///
/// At most `jobs` transforms run at once (a task group used as a sliding window). Results that
/// finish early wait in a reorder buffer until every earlier result has been emitted; the number of
/// inputs started but not yet emitted never exceeds `window`, so memory stays bounded whatever
/// the length of the sequence.
public struct OrderedConcurrentMap: Sendable {
    /// The largest number of transforms running at once (at least 1).
    public let jobs: Int
    /// The largest number of inputs started but not yet emitted (at least `jobs`).
    public let window: Int

    /// Creates a map running `jobs` transforms at once with a reorder window of `window` inputs
    /// (default `4 × jobs`).
    public init(jobs: Int, window: Int? = nil) {
        self.jobs = max(1, jobs)
        self.window = max(self.jobs, window ?? 4 * max(1, jobs))
    }

    /// Transforms every element of `inputs` and calls `emit` once per element, in input order,
    /// as soon as that element and all earlier ones are done.
    ///
    /// `inputs` is iterated lazily by the calling task, only as far as the window allows.
    /// If `emit` throws, the transforms in flight are cancelled and the error is rethrown.
    public func run<Inputs: Sequence, Output: Sendable>(
        _ inputs: Inputs,
        transform: @escaping @Sendable (Inputs.Element) async -> Output,
        emit: (Inputs.Element, Output) async throws -> Void
    ) async throws where Inputs.Element: Sendable {
        var iterator = inputs.makeIterator()
        try await withThrowingTaskGroup(of: (Int, Output).self) { group in
            var started = 0
            var emitted = 0
            var running = 0
            var exhausted = false
            // Inputs started and not yet emitted, and results waiting for an earlier one.
            var waitingInputs: [Int: Inputs.Element] = [:]
            var waitingResults: [Int: Output] = [:]
            waitingInputs.reserveCapacity(window)
            waitingResults.reserveCapacity(window)

            func fill() {
                while !exhausted, running < jobs, started - emitted < window {
                    guard let input = iterator.next() else {
                        exhausted = true
                        return
                    }
                    let index = started
                    waitingInputs[index] = input
                    group.addTask { (index, await transform(input)) }
                    started += 1
                    running += 1
                }
            }

            fill()
            while let (index, output) = try await group.next() {
                running -= 1
                waitingResults[index] = output
                while let ready = waitingResults.removeValue(forKey: emitted),
                      let input = waitingInputs.removeValue(forKey: emitted) {
                    try await emit(input, ready)
                    emitted += 1
                }
                fill()
            }
        }
    }
}
