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

    /// The dependency edges of a DOT file written by scripts/module-graph.sh: each target's direct
    /// dependencies (targets, and packages as `package <identity>`).
    static func dependencies(inDOT dot: String) -> [String: [String]] {
        var edges: [String: [String]] = [:]
        for line in dot.split(separator: "\n") where line.hasPrefix("    \"") && line.hasSuffix("\";") {
            let ends = line.dropFirst(5).dropLast(2).components(separatedBy: "\" -> \"")
            guard ends.count == 2 else { continue }
            edges[ends[0], default: []].append(ends[1])
        }
        return edges
    }

    /// Every target and package that `roots` depend on, directly or not, and the roots themselves.
    static func closure(of roots: [String], in edges: [String: [String]]) -> Set<String> {
        var seen = Set(roots)
        var pending = roots
        while let next = pending.popLast() {
            for dependency in edges[next] ?? [] where seen.insert(dependency).inserted {
                pending.append(dependency)
            }
        }
        return seen
    }

    /// What building the App Intents macros takes: the plug-in, its definitions and swift-syntax.
    static let macroModules: Set<String> = ["AppIntentsMacros", "AppIntentsMacroDefinitions", "package swift-syntax"]

    /// The daemon, the engine and the command-line tool build on AppIntentsCore, never on the macros, so a
    /// release `glimpse` compiles no swift-syntax (`VisualSearchResult` writes its conformance out).
    @Test func theDaemonAndTheCommandLineToolBuildNoMacros() throws {
        let edges = Self.dependencies(inDOT: try String(contentsOfFile: Self.committedDOT, encoding: .utf8))
        // The check can fail: the product users import does reach the macros.
        #expect(Self.closure(of: ["AppIntents"], in: edges).isSuperset(of: Self.macroModules))
        for root in ["glimpse", "GlimpseServer", "GlimpseEngine"] {
            let closure = Self.closure(of: [root], in: edges)
            #expect(closure.contains("GlimpseCatalog") && closure.contains("AppIntentsCore"), "\(root): \(closure.sorted())")
            #expect(closure.isDisjoint(with: Self.macroModules),
                    "\(root) depends on \(closure.intersection(Self.macroModules).sorted()): build it on AppIntentsCore")
        }
    }

    /// The fuzz package (Fuzz/Package.swift, built in release with sanitizers) uses Glimpse's products by
    /// name; none of them, and nothing of its own, reaches the macros or swift-syntax.
    @Test func theFuzzPackageBuildsNoMacros() throws {
        let dot = try String(contentsOfFile: Self.committedDOT, encoding: .utf8)
        let (targets, edges) = (Set(Self.targets(inDOT: dot)), Self.dependencies(inDOT: dot))
        let manifest = try String(contentsOfFile: Repository.root + "/Fuzz/Package.swift", encoding: .utf8)
        #expect(!manifest.contains("swift-syntax") && !manifest.contains("\"AppIntents\""))
        let products = Set(manifest.matches(of: /glimpse\("([A-Za-z]+)"\)/).map { String($0.output.1) })
        #expect(products.count >= 5 && products.contains("GlimpseCatalog") && products.contains("GlimpseServer"), "\(products.sorted())")
        for product in products.sorted() {
            // Each of these library products is the target of the same name (docs/modules.dot shows it).
            #expect(targets.contains(product), "\(product) is not a target in docs/modules.dot")
            let closure = Self.closure(of: [product], in: edges)
            #expect(closure.isDisjoint(with: Self.macroModules),
                    "the fuzz package's \(product) depends on \(closure.intersection(Self.macroModules).sorted())")
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
