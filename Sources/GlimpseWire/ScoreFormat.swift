/// How scores are written for people: a fixed number of decimals, without locale or exponent.
public enum ScoreFormat {
    /// `0.91`: two decimals, as reasons and label lists show scores.
    public static func twoDecimals(_ value: Double) -> String { fixed(value, decimals: 2) }

    /// `0.9123`: four decimals, as result lines show scores.
    public static func fourDecimals(_ value: Double) -> String { fixed(value, decimals: 4) }

    private static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let fraction = String(abs(scaled) % scale)
        let sign = scaled < 0 ? "-" : ""
        return sign + "\(abs(scaled) / scale)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
