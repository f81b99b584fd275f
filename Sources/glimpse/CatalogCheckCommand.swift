import ArgumentParser
import Foundation
import GlimpseStore
import GlimpseStoreSQLite

/// `glimpse catalog check`: the store's integrity, photo bytes and features.
struct CatalogCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the store: database integrity, every photo against its SHA-256, features present.",
        discussion: "Exits with status 1 when a problem is found, listing each on standard error."
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var featurePrint: FeaturePrintOptions

    func run() async throws {
        let source = try store.openFile(mode: .read)
        // The model beside the catalog folder is found as every command finds it, from any directory.
        let key = try PhotoExtraction(featurePrint: featurePrint, catalogDirectory: store.catalog).key
        let problems = try await StoreCommandFailure.run { () async throws(StoreError) in
            try await source.check(featuresKey: key)
        }
        for problem in problems { FileHandle.standardError.write(Data("problem: \(problem)\n".utf8)) }
        guard problems.isEmpty else { throw ExitCode(1) }
        print("ok: \(source.path)")
    }
}
