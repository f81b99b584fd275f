import GlimpseVision
public import GlimpseWire

extension Engine {
    /// The print-alone accept line of the matcher served now (GlimpseVision's `PrintCalibration`), as the
    /// daemon reports it; `nil` without a matcher or a calibration.
    public var printLine: PrintLineJSON? {
        guard let calibration = current.matcher?.printCalibration else { return nil }
        return PrintLineJSON(
            evidence: calibration.threshold, nulls: calibration.nullCount, nullsLeftOut: calibration.nullsLeftOut,
            lookAlikePlaces: calibration.raisedLines.count)
    }
}
