import Foundation

/// The machine and build a measurement was taken on, for the header of every report.
public struct MachineInfo: Sendable, Hashable, Codable {
    /// Processor cores available to this process.
    public var cores: Int
    /// Physical memory in bytes.
    public var memoryBytes: UInt64
    /// The CPU model name, from `/proc/cpuinfo` (or `unknown`).
    public var cpuModel: String
    /// The operating system version string.
    public var system: String
    /// `release` or `debug`: how this binary was compiled.
    public var build: String
    /// The Swift compiler that built this binary, such as `6.3`.
    public var swift: String
    /// The Glimpse version.
    public var version: String

    enum CodingKeys: String, CodingKey {
        case cores, system, build, swift, version
        case memoryBytes = "memory_bytes", cpuModel = "cpu_model"
    }

    /// The version reported by `glimpse --version` and in bench headers.
    public static let glimpseVersion = "0.1.0"

    /// The processor cores available to this process.
    public static var activeProcessorCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Reads the current machine and build.
    public static func current() -> MachineInfo {
        MachineInfo(
            cores: activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory,
            cpuModel: cpuModelName(),
            system: ProcessInfo.processInfo.operatingSystemVersionString,
            build: buildConfiguration,
            swift: swiftVersion,
            version: glimpseVersion
        )
    }

    /// `release` when compiled with optimisation, else `debug`.
    public static var buildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    private static var swiftVersion: String {
        #if compiler(>=6.3)
        "6.3+"
        #elseif compiler(>=6.2)
        "6.2"
        #else
        "6.1"
        #endif
    }

    private static func cpuModelName() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    /// One line such as `2 cores, 24.0 GiB, AMD EPYC 7B13; Linux 6.1; release build; Swift 6.3+; glimpse 0.1.0`.
    public var line: String {
        let gib = Double(memoryBytes) / Double(1 << 30)
        return "\(cores) cores, \(format(gib, 1)) GiB, \(cpuModel); \(system); \(build) build; Swift \(swift); glimpse \(version)"
    }
}
