import CGlimpseFeaturePrint

/// Which code runs an int8 network (`gfp_int8_engine`).
enum Int8Engine: Sendable {
    /// The hand-written AVX-512 VNNI kernels when the processor has them and the C library was compiled
    /// with optimisation (a release build); otherwise one XNNPACK subgraph. Unoptimised, the hand-written
    /// kernels run several times slower than XNNPACK, which Debian ships optimised, so debug builds and
    /// the test suite print on XNNPACK (the two agree to a cosine of 0.999; a test checks it).
    case automatic
    /// Always one XNNPACK subgraph.
    case xnnpack
    /// The hand-written kernels whenever the processor has VNNI, even in a build without optimisation.
    case handWritten

    /// The C library's value.
    var cValue: gfp_int8_engine {
        switch self {
        case .automatic: GFP_INT8_ENGINE_AUTOMATIC
        case .xnnpack: GFP_INT8_ENGINE_XNNPACK
        case .handWritten: GFP_INT8_ENGINE_HAND_WRITTEN
        }
    }
}
