// Apple's AppIntents framework makes Foundation visible to every file that imports it (`Data`, `URL`,
// `String(format:)` in entity code); this module does the same, so that such code needs no extra import.
@_exported public import Foundation
