// swift-tools-version: 6.1
//
// Landmarks: a landmark app's App Intents layer (entities, a @UnionValue result, the visual
// intelligence IntentValueQuery and the open intents), written as an iOS app writes it, answered by
// Glimpse's engine on Linux. It depends on Glimpse by path; copy it and point the path at your checkout.
import PackageDescription

let package = Package(
    name: "Landmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Glimpse", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Landmarks",
            dependencies: [
                .product(name: "AppIntents", package: "Glimpse"),
                .product(name: "VisualIntelligence", package: "Glimpse"),
                .product(name: "GlimpseEngine", package: "Glimpse"),
                .product(name: "GlimpseCatalog", package: "Glimpse"),
                .product(name: "GlimpseImage", package: "Glimpse"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
