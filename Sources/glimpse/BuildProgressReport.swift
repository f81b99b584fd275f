import Foundation
import GlimpseCatalog
import GlimpseVision

/// How the commands that build a matcher or extract catalog photos (`query`, `match`, `bench`, `eval`,
/// `catalog import`) say how far a long build has come: a line per step on standard error,
/// `glimpse: building the matcher: catalog photo features 3200/100000 (1200 kept from an interrupted build)`.
///
/// Lines are written when standard error is a terminal, when a step counts at least ``longBuild``
/// items, or when a build resumes an interrupted one, so that a small catalog's start stays quiet in
/// scripts while a build of hours says where it is in a log. (`serve` logs the same steps through its
/// logger.)
enum BuildProgressReport {
    /// A step with at least this many items is reported even when standard error is not a terminal.
    static let longBuild = 1_000

    /// The reporter of `command` (its name starts each line).
    static func standardError(_ command: String) -> @Sendable (MatcherBuildProgress) -> Void {
        let interactive = isatty(FileHandle.standardError.fileDescriptor) == 1
        return { step in
            guard interactive || step.total >= longBuild || step.kept > 0 || step.problem != nil else { return }
            FileHandle.standardError.write(Data("glimpse \(command): building the matcher: \(step)\n".utf8))
        }
    }

    /// The reporter of `command` for extracting catalog photos' features outside a matcher build
    /// (`catalog import`).
    static func extraction(_ command: String) -> @Sendable (ReferenceLoader.Progress) -> Void {
        let report = standardError(command)
        return { step in
            report(MatcherBuildProgress(stage: .references, done: step.done, total: step.total, kept: step.kept))
        }
    }
}
