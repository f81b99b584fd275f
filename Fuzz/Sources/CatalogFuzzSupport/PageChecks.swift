import Foundation
import FuzzSupport
import GlimpseTerminalText
public import GlimpseCatalog
import GlimpseIntents
import GlimpseWire

/// The cursor key of the fuzz targets and of the seeds that carry signed cursors.
public let fuzzCursorKey = CursorKey(passphrase: "glimpse fuzz cursor key")

/// What the cursor and catalog targets check of every page: that it is consistent, that the daemon's
/// JSON of it encodes, and that its cursor leads on through the rest of the list.
public enum PageChecks {
    /// Checks `page` and up to `maxPages` - 1 pages after it, got with `limit`.
    public static func walk(_ page: VisualSearchPage, query: VisualSearchQuery, limit: Int?, maxPages: Int = 8) {
        let pageSize = limit ?? query.configuration.defaultLimit
        var page = page
        for _ in 0..<maxPages {
            check(page, pageSize: pageSize)
            guard let cursor = page.nextCursor else { return }
            let next: VisualSearchPage
            do {
                next = try query.page(after: cursor, limit: limit)
            } catch {
                fatalError("fuzz check failed: the cursor of a page is refused: \(error)")
            }
            FuzzCheck.require(next.offset == page.offset + page.items.count && next.totalCount == page.totalCount
                                  && next.snapshotID == page.snapshotID,
                              "page at \(next.offset) of \(next.totalCount) follows \(page.items.count) at \(page.offset)")
            page = next
        }
    }

    private static func check(_ page: VisualSearchPage, pageSize: Int) {
        FuzzCheck.require(page.items.count <= pageSize, "\(page.items.count) items on a page of \(pageSize)")
        FuzzCheck.require(page.offset >= 0 && page.offset + page.items.count <= page.totalCount,
                          "items \(page.offset)+\(page.items.count) of \(page.totalCount)")
        FuzzCheck.require((page.nextCursor == nil) == (page.offset + page.items.count >= page.totalCount),
                          "a cursor at \(page.offset)+\(page.items.count) of \(page.totalCount): \(page.nextCursor ?? "none")")
        for item in page.items {
            FuzzCheck.require(item.score.isFinite && (0...1).contains(item.score), "score \(item.score)")
            FuzzCheck.require(item.reason.labelFit.isFinite, "label fit \(item.reason.labelFit)")
        }
        let json = QueryResponseJSON(page: page)
        do {
            _ = try JSONEncoder().encode(json)
        } catch {
            fatalError("fuzz check failed: the page's JSON does not encode: \(error)")
        }
        FuzzCheck.require(!json.text().isEmpty, "empty text")
    }
}
