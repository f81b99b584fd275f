import Foundation
import FuzzSupport
import GlimpseImage

/// Why a seed could not be made.
struct SeedError: Error, CustomStringConvertible {
    var description: String
}

/// Writes each target's seeds into its folder, replacing the folder's previous contents.
struct SeedWriter {
    let corpus: String

    /// The photos the seeds are derived from (small, varied scenes).
    static let photos = ["001-wooden-jetty-on-a-calm-lake.jpg", "009-water-drop-splash.jpg",
                         "014-ladybug-among-forget-me-nots.jpg", "005-fallen-maple-leaf-in-autumn.jpg"]

    /// A catalog photo decoded with its longer side at most `side` pixels.
    static func photo(_ name: String, side: Int) throws -> PixelBuffer {
        try ImageDecoder.decode(contentsOfFile: Repository.images + "/photos/" + name,
                                options: DecodingOptions(maxDimension: side)).pixelBuffer
    }

    /// Replaces `target`'s folder with `files` (name → bytes).
    func write(_ target: String, _ files: [(String, [UInt8])]) throws {
        let folder = corpus + "/" + target
        let manager = FileManager.default
        if manager.fileExists(atPath: folder) { try manager.removeItem(atPath: folder) }
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, bytes) in files {
            guard manager.createFile(atPath: folder + "/" + name, contents: Data(bytes)) else {
                throw SeedError(description: "cannot write \(folder)/\(name)")
            }
        }
        print("\(target): \(files.count) seeds, \(files.reduce(0) { $0 + $1.1.count }) bytes")
    }
}
