import Foundation
import GlimpseEngine
import GlimpseServer
import GlimpseVision
import GlimpseWire
import Logging

extension ServeCommand {
    /// Logs where the print alone accepts a place on the catalog served, and what set the line
    /// (`glimpse catalog calibration` lists the look-alikes), or warns that without null prints beside
    /// the feature-print model the print alone accepts nothing.
    static func logPrintLine(of engine: Engine, service: CatalogSearchService, catalog: String, logger: Logger) {
        if engine.featurePrinter != nil, engine.current.matcher != nil, engine.nullPrints == nil {
            logger.warning(
                "no null prints beside the feature-print model: the print alone accepts no place, so a picture is accepted only on keypoint geometry; make them with `glimpse models null-prints` (a .\(NullPrints.fileExtension) file beside the model)",
                metadata: ["catalog": "\(catalog)"])
        }
        guard let line = service.printLine else { return }
        logger.info("print line", metadata: [
            "evidence": "\(String(format: "%.3f", line.evidence))", "nulls": "\(line.nulls)",
            "nulls_left_out": "\(line.nullsLeftOut) (copies of catalog photos)",
            "raised_lines": "\(line.lookAlikePlaces) (places with a close look-alike)",
        ])
    }
}
