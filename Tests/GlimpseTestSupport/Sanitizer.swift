import Foundation

/// The sanitizer the tests run under, as `scripts/sanitize.sh` tells them (`GLIMPSE_SANITIZER` is
/// `address` or `thread`), or `nil`. Tests that measure memory or time skip exactly those measurements
/// under one: a sanitizer's shadow memory and quarantine grow the resident size, and its checks slow
/// everything several times over.
public let activeSanitizer: String? = ProcessInfo.processInfo.environment["GLIMPSE_SANITIZER"]
