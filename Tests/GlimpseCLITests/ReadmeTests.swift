import Foundation
import GlimpseTestSupport
import Testing

/// README.md is a map into docs/: short, free of issue references, and every relative link in it and in
/// docs/*.md leads to a file of the repository.
@Suite("README and docs")
struct ReadmeTests {
    static let readmePath = Repository.root + "/README.md"
    static let maximumReadmeLines = 250

    /// The number of lines of a text, as `wc -l` counts them for a file that ends with a newline.
    static func lineCount(of text: String) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        return text.hasSuffix("\n") ? lines - 1 : lines
    }

    /// Every issue reference in a text: "issue 28", "Issues 3", "#55".
    static func issueReferences(in text: String) throws -> [String] {
        let pattern = try Regex(#"[Ii]ssues? \d+|#\d+"#)
        return text.matches(of: pattern).map { String(text[$0.range]) }
    }

    /// The targets of the markdown links `](target)` outside fenced code blocks, in order.
    static func linkTargets(in text: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            for piece in line.components(separatedBy: "](").dropFirst() {
                guard let close = piece.firstIndex(of: ")") else { continue }
                // A link may carry a title after a space: `](path "title")`.
                let target = piece[..<close].split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
                targets.append(target)
            }
        }
        return targets
    }

    /// The relative link targets of a markdown file that name no file or folder of the repository.
    /// Web and mail links and links to an anchor of the same page are left out; `path#anchor` is
    /// checked for its path.
    static func brokenLinks(in text: String, of file: String) -> [String] {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        return linkTargets(in: text).filter { target in
            if target.isEmpty || target.hasPrefix("#") { return false }
            if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") {
                return false
            }
            let path = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
            let resolved = folder.appendingPathComponent(path).standardized.path
            return !FileManager.default.fileExists(atPath: resolved)
        }
    }

    /// README.md and every markdown file of docs/, as full paths.
    static func markdownFiles() throws -> [String] {
        let docs = Repository.root + "/docs"
        let names = try FileManager.default.contentsOfDirectory(atPath: docs).filter { $0.hasSuffix(".md") }.sorted()
        return [readmePath] + names.map { docs + "/" + $0 }
    }

    @Test func theChecksFindWhatTheyLookFor() throws {
        let sample = """
            Fixed in issue 28 (#55); see [the API](docs/api.md#routes), [nothing](docs/nowhere.md),
            [a section](#measured) and [the web](https://example.org/a.md).
            ```
            [in a code block](not-checked.md)
            ```
            """
        #expect(Self.lineCount(of: "a\nb\n") == 2 && Self.lineCount(of: "a\nb") == 2)
        #expect(try Self.issueReferences(in: sample) == ["issue 28", "#55"])
        #expect(try Self.issueReferences(in: "[api](docs/api.md#limits), 10⁶ photos, `# comment`").isEmpty)
        #expect(Self.brokenLinks(in: sample, of: Self.readmePath) == ["docs/nowhere.md"])
    }

    @Test func theReadmeIsShort() throws {
        let readme = try String(contentsOfFile: Self.readmePath, encoding: .utf8)
        let lines = Self.lineCount(of: readme)
        #expect(
            lines <= Self.maximumReadmeLines,
            "README.md has \(lines) lines, more than \(Self.maximumReadmeLines): move the detail into docs/ and link to it")
    }

    @Test func theReadmeCitesNoIssue() throws {
        let readme = try String(contentsOfFile: Self.readmePath, encoding: .utf8)
        let references = try Self.issueReferences(in: readme)
        #expect(references.isEmpty, "README.md cites issues: \(references); say what, not which issue")
    }

    @Test func everyRelativeLinkLeadsToAFile() throws {
        let files = try Self.markdownFiles()
        #expect(files.count >= 5, "\(files)")
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let broken = Self.brokenLinks(in: text, of: file)
            let name = String(file.dropFirst(Repository.root.count + 1))
            #expect(broken.isEmpty, "\(name) links to files that do not exist: \(broken)")
        }
    }
}
