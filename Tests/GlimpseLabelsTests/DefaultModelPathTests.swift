import Foundation
import GlimpseTestSupport
import Testing
@testable import GlimpseLabels

@Suite("Where the label model is found")
struct DefaultModelPathTests {
    /// The repository root.
    static var root: String { Repository.root }

    @Test("$GLIMPSE_LABEL_MODEL first, then Models/ beside the catalog folder, then the current directory")
    func order() throws {
        let images = Self.root + "/Images"
        #expect(LabelModel.defaultPath(catalogDirectory: images, environment: ["GLIMPSE_LABEL_MODEL": "/m/x.glimpsemodel"])
            == "/m/x.glimpsemodel")
        // The repository layout: Images/ and Models/ side by side, however the folder is written.
        let beside = Self.root + "/Models/labels.glimpsemodel"
        #expect(LabelModel.defaultPath(catalogDirectory: images, environment: [:]) == beside)
        #expect(LabelModel.defaultPath(catalogDirectory: images + "/../Images/", environment: [:]) == beside)
        // A catalog with no Models/ beside it, or none at all: the current directory's.
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-models-here/catalog").path
        #expect(LabelModel.defaultPath(catalogDirectory: elsewhere, environment: [:]) == "Models/labels.glimpsemodel")
        #expect(LabelModel.defaultPath(environment: ["GLIMPSE_LABEL_MODEL": ""]) == "Models/labels.glimpsemodel")
    }
}
