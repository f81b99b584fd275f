import ArgumentParser
import Foundation
import GlimpseEngine
import GlimpseFeaturePrint
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
        let extraction = try PhotoExtraction(featurePrint: featurePrint, catalogDirectory: store.catalog)
        let problems = try await StoreCommandFailure.run { () async throws(StoreError) in
            try await source.check(featuresKey: extraction.key)
        }
        let noModelFound = extraction.printer == nil && featurePrint.choice(catalogDirectory: store.catalog) == .automatic
        for problem in Self.explained(problems, noModelFound: noModelFound, catalog: store.catalog) {
            FileHandle.standardError.write(Data("problem: \(problem)\n".utf8))
        }
        guard problems.isEmpty else { throw ExitCode(1) }
        print("ok: \(source.path)")
    }

    /// The problems as reported, except that when no feature-print model was found the photos whose features
    /// were made with one are one problem with its real cause (the check compares stored features with what
    /// this command would make, and without the model it would make them without prints).
    static func explained(_ problems: [String], noModelFound: Bool, catalog: String) -> [String] {
        guard noModelFound else { return problems }
        let mismatch = problems.filter { $0.hasSuffix(SQLiteCatalogStore.otherSettingsProblem) }
        guard !mismatch.isEmpty else { return problems }
        return problems.filter { !$0.hasSuffix(SQLiteCatalogStore.otherSettingsProblem) } + [
            "\(mismatch.count) photos have features made with other settings or a feature-print model, and no "
                + "feature-print model was found to check them against (looked for "
                + "\(FeaturePrintModel.conventionalInt8Path) beside --catalog \(catalog), in the current directory and in "
                + "$\(FeaturePrintModel.environmentVariable)); name the model with --featureprint-model FILE or the "
                + "catalog folder with --catalog FOLDER",
        ]
    }
}
