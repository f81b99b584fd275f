// Writes the seed corpora of the non-image fuzz targets into CORPUS/<target>/ (scripts/fuzz-seeds.sh
// passes Fuzz/Corpus), each made with the project's own encoders and writers from the bundled catalog
// and a few catalog photos decoded small. The image seeds come from scripts/fuzz/image_seeds.py.
//
//   glimpse-fuzz-seeds CORPUS
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: glimpse-fuzz-seeds CORPUS\n".utf8))
    exit(2)
}
let seeds = SeedWriter(corpus: CommandLine.arguments[1])
do {
    try seeds.cursors()
    try seeds.catalogs()
    try seeds.entityQueries()
    try seeds.labelModels()
    try seeds.featureCaches()
    try seeds.indexFiles()
    try seeds.featurePrintModels()
    try seeds.httpRequests()
} catch {
    FileHandle.standardError.write(Data("glimpse-fuzz-seeds: \(error)\n".utf8))
    exit(1)
}
