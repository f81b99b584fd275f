public import GlimpseFeaturePrint

/// The models committed in `Models/`, loaded once per test process.
public enum CommittedModels {
    /// The committed feature-print network (`Models/featureprint.glimpsemodel`) as a printer pool.
    public static let featurePrinter: Result<FeaturePrinterPool, FeaturePrintModelError> = {
        do throws(FeaturePrintModelError) {
            return .success(FeaturePrinterPool(model: try FeaturePrintModel.load(from: Repository.featurePrintModel)))
        } catch {
            return .failure(error)
        }
    }()

    /// The committed int8 feature-print network (`Models/featureprint-int8.glimpsemodel`) as a printer pool.
    public static let int8FeaturePrinter: Result<FeaturePrinterPool, FeaturePrintModelError> = {
        do throws(FeaturePrintModelError) {
            return .success(FeaturePrinterPool(model: try FeaturePrintModel.load(from: Repository.featurePrintInt8Model)))
        } catch {
            return .failure(error)
        }
    }()
}
