import Foundation
import GlimpseTestSupport
import Testing

/// docs/modules.dot and docs/modules.svg are the package's target graph as Package.swift declares it
/// (scripts/module-graph.sh), and docs/architecture.md shows the picture and names every target. The
/// script also refuses a test target that depends on a macro target (it doubles every clean build).
@Suite("module graph")
struct ModuleGraphTests {
    static let committedDOT = Repository.root + "/docs/modules.dot"

    /// The target names of a DOT file written by scripts/module-graph.sh (package nodes left out).
    static func targets(inDOT dot: String) -> [String] {
        dot.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("    \""), line.hasSuffix("];"), !line.contains(" -> "),
                  let close = line.dropFirst(5).firstIndex(of: "\"") else { return nil }
            let name = String(line[line.index(line.startIndex, offsetBy: 5)..<close])
            return name.hasPrefix("package ") ? nil : name
        }
    }

    @Test func theCommittedGraphIsPackageSwifts() async throws {
        let run = try await runProcess("/bin/bash", [Repository.root + "/scripts/module-graph.sh", "--dot"], in: Repository.root)
        #expect(run.status == 0, "scripts/module-graph.sh --dot failed: \(run.err)")
        let committed = try String(contentsOfFile: Self.committedDOT, encoding: .utf8)
        #expect(
            run.out == committed,
            "docs/modules.dot does not match Package.swift: run scripts/module-graph.sh and commit docs/modules.dot and docs/modules.svg")
    }

    @Test func thePictureAndTheArchitectureShowEveryTarget() async throws {
        let targets = Self.targets(inDOT: try String(contentsOfFile: Self.committedDOT, encoding: .utf8))
        #expect(targets.count >= 30 && targets.contains("GlimpseEngine") && targets.contains("glimpse"), "\(targets)")
        let svg = try String(contentsOfFile: Repository.root + "/docs/modules.svg", encoding: .utf8)
        let architecture = try String(contentsOfFile: Repository.root + "/docs/architecture.md", encoding: .utf8)
        #expect(architecture.contains("](modules.svg)"), "docs/architecture.md shows docs/modules.svg")
        for target in targets {
            // Graphviz writes a hyphen in a title as `&#45;`.
            let title = "<title>" + target.replacingOccurrences(of: "-", with: "&#45;") + "</title>"
            #expect(svg.contains(title), "docs/modules.svg lacks \(target): run scripts/module-graph.sh")
            #expect(architecture.contains("`\(target)`"), "docs/architecture.md does not name the target `\(target)`")
        }
    }
}
