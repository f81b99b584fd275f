import Foundation
import GlimpseImage
import GlimpseServer
import GlimpseWire
import Synchronization

/// The real catalog service, except that the first picture search waits until the test lets it go (or
/// its query is cancelled), and every picture search is counted: a gate the test holds shut, so that
/// what queues behind it does not depend on how fast the machine is.
final class HeldSearchService: ForwardingSearchService {
    let real: CatalogSearchService
    private let searches = Atomic(0)
    private let released = Atomic(false)

    init(real: CatalogSearchService) { self.real = real }

    /// Picture searches started so far.
    var searchCount: Int { searches.load(ordering: .acquiring) }

    /// Lets the held search finish.
    func release() { released.store(true, ordering: .releasing) }

    func search(image: PixelBuffer, labels: [String], limit: Int) async throws -> QueryResponseJSON {
        if searches.add(1, ordering: .acquiringAndReleasing).newValue == 1 {
            // Blocks its query thread, as a long CPU-bound query does (an `await` would free the thread),
            // checking for cancellation as the real stages do between them.
            let deadline = ContinuousClock.now + .seconds(120)
            while !released.load(ordering: .acquiring) && ContinuousClock.now < deadline {
                try Task.checkCancellation()
                usleep(5_000)
            }
        }
        return try await real.search(image: image, labels: labels, limit: limit)
    }
}
