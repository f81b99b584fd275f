import Foundation

/// The value of the sample named exactly `series` (the metric's name with its labels, as printed, such as
/// `glimpse_errors_total{kind="cancelled"}`) in a Prometheus text exposition, or `nil` when it has none.
public func metricSample(_ exposition: String, _ series: String) -> Double? {
    for line in exposition.split(separator: "\n") where line.hasPrefix(series + " ") {
        return Double(line.dropFirst(series.count + 1).trimmingCharacters(in: .whitespaces))
    }
    return nil
}
