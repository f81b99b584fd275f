import Testing
@testable import GlimpseLabels

@Suite("Labels of real photos and the committed model")
struct RealPhotoTests {
    @Test("the committed model loads and was built on the committed feature-print network")
    func committedModelMatchesExtractor() throws {
        let model = try Fixtures.committedModel()
        #expect(model.extractor == Fixtures.committedExtractor.descriptor)
        let catalog = try LabelledPhotos.catalog(at: Fixtures.catalogPath)
        #expect(model.vocabulary == catalog.vocabulary)
        // A reference's stored vector is what the current code computes for its photo.
        let photo = try #require(catalog.photos.first)
        let position = try #require(model.references.firstIndex { $0.id == photo.id })
        let computed = Fixtures.committedExtractor.features(of: try LabelImageLoader.load(photo.path))
        let stored = Array(model.vectors(of: position))
        let distance = zip(computed, stored).reduce(Float(0)) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        #expect(distance < 1e-6)
    }

    @Test("a sky-and-mountain photo the model has not seen gets sky and mountain")
    func skyAndMountain() throws {
        let model = try Fixtures.committedModel()
        let id = "autumn-woods-below-ridge"
        let catalog = try LabelledPhotos.catalog(at: Fixtures.catalogPath)
        let photo = try #require(catalog.photos.first { $0.id == id })
        #expect(Set(photo.labels).isSuperset(of: ["sky", "mountain"]))
        let own = Set(model.references.indices.filter { model.references[$0].id == id })
        #expect(!own.isEmpty)
        let features = Fixtures.committedExtractor.features(of: try LabelImageLoader.load(photo.path))
        let labels = LabelPredictor(model: model).labels(forFeatures: features, excluding: own).map(\.label)
        #expect(labels.contains("sky"))
        #expect(labels.contains("mountain"))
    }

    @Test("a model built from labelled photos labels its own photos with their labels")
    func buildFromPhotos() async throws {
        let catalog = try LabelledPhotos.catalog(at: Fixtures.catalogPath)
        let photos = Array(catalog.photos.prefix(12))
        let builder = LabelModelBuilder()
        let features = try await builder.features(of: photos)
        #expect(features.allSatisfy { $0.count == 1 })
        let (model, _) = try builder.build(vocabulary: catalog.vocabulary, photos: photos, features: features)
        #expect(model.references.count == 12)
        let predictor = LabelPredictor(model: model)
        let first = try LabelImageLoader.load(photos[0].path)
        // An exact duplicate dominates the distance-weighted vote when the calibrated power is positive;
        // with equal weights it is one voter of k, so only check the top-scored label then.
        let top = try #require(predictor.scores(for: first).first)
        #expect(photos[0].labels.contains(top.label))
    }
}
