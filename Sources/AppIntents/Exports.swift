// `import AppIntents` is what code written for Apple's framework says: it sees the whole query layer
// (AppIntentsCore, which has no macros and so no swift-syntax) and, as Apple's framework makes visible,
// Foundation (`Data`, `URL`, `String(format:)` in entity code), so that such code needs no extra import.
// This module adds only the macros (Macros.swift).
@_exported public import AppIntentsCore
@_exported public import Foundation
