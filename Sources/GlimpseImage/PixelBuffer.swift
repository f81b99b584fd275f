/// The memory layout of one pixel in a ``PixelBuffer``.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Red, green, blue and alpha, one byte each, in that order; alpha is straight (not premultiplied).
    case rgba8
    /// Red, green and blue, one byte each, in that order.
    case rgb8
    /// One byte of luminance.
    case gray8

    /// The number of bytes one pixel occupies.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8: 4
        case .rgb8: 3
        case .gray8: 1
        }
    }

    /// The lowercase name used in command-line and JSON output, such as `rgb8`.
    public var description: String { rawValue }
}

/// Why a ``PixelBuffer`` could not be created.
public enum PixelBufferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Width or height is zero or negative.
    case emptyImage(width: Int, height: Int)
    /// `bytesPerRow` is smaller than `width × bytesPerPixel`.
    case rowTooShort(bytesPerRow: Int, minimum: Int)
    /// The byte count does not match `bytesPerRow × height`.
    case sizeMismatch(expected: Int, actual: Int)
    /// `bytesPerRow × height` does not fit in memory addresses.
    case tooLarge(width: Int, height: Int)

    /// A sentence that says what was wrong and what to pass instead.
    public var description: String {
        switch self {
        case let .emptyImage(width, height):
            "pixel buffer of \(width)×\(height) has no pixels; width and height must be at least 1"
        case let .rowTooShort(bytesPerRow, minimum):
            "bytesPerRow \(bytesPerRow) is shorter than one row of pixels (\(minimum) bytes)"
        case let .sizeMismatch(expected, actual):
            "pixel data holds \(actual) bytes but bytesPerRow × height needs \(expected)"
        case let .tooLarge(width, height):
            "pixel buffer of \(width)×\(height) overflows the address space"
        }
    }
}

/// An immutable, thread-safe image in memory: the Linux counterpart of `CVReadOnlyPixelBuffer`.
///
/// A pixel buffer has a fixed size, row stride and ``PixelFormat``. Its bytes never change after
/// creation, so copies share storage and it can be handed between tasks at no cost. Pixels are
/// read only inside the closures of ``withUnsafeBytes(_:)`` and ``withUnsafeRow(_:_:)``.
public struct PixelBuffer: Sendable {
    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// Bytes from the start of one row to the start of the next (at least `width × bytesPerPixel`).
    public let bytesPerRow: Int
    /// The layout of each pixel.
    public let pixelFormat: PixelFormat
    /// Row-major pixel bytes, `bytesPerRow × height` of them. Never mutated after `init`.
    private let storage: [UInt8]

    /// The number of pixels, `width × height`.
    public var pixelCount: Int { width * height }

    /// Creates a buffer that takes ownership of `bytes`, laid out row by row.
    ///
    /// - Parameters:
    ///   - width: the width in pixels.
    ///   - height: the height in pixels.
    ///   - pixelFormat: the layout of each pixel.
    ///   - bytesPerRow: the row stride; `nil` means rows are packed (`width × bytesPerPixel`).
    ///   - bytes: the pixels, row by row: exactly `bytesPerRow × height` bytes.
    /// - Throws: ``PixelBufferError`` when the geometry and the byte count disagree.
    public init(
        width: Int,
        height: Int,
        pixelFormat: PixelFormat,
        bytesPerRow: Int? = nil,
        bytes: [UInt8]
    ) throws(PixelBufferError) {
        let stride = try Self.validate(width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: bytesPerRow)
        let (expected, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow else { throw .tooLarge(width: width, height: height) }
        guard bytes.count == expected else { throw .sizeMismatch(expected: expected, actual: bytes.count) }
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.pixelFormat = pixelFormat
        self.storage = bytes
    }

    /// Creates a buffer with packed rows whose bytes are written once by `initializer`.
    ///
    /// `initializer` receives uninitialized memory of `bytesPerRow × height` bytes and the row
    /// stride; it must write every byte. The memory must not escape the closure. This is how
    /// decoders fill a buffer without an extra copy.
    ///
    /// - Throws: ``PixelBufferError`` for an impossible geometry, or whatever `initializer` throws.
    public init<E: Error>(
        width: Int,
        height: Int,
        pixelFormat: PixelFormat,
        initializingWith initializer: (_ bytes: UnsafeMutableRawBufferPointer, _ bytesPerRow: Int) throws(E) -> Void
    ) throws(PixelBufferInitError<E>) {
        let stride: Int
        do {
            stride = try Self.validate(width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: nil)
        } catch {
            throw .invalidGeometry(error)
        }
        let (count, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow else { throw .invalidGeometry(.tooLarge(width: width, height: height)) }
        var failure: E?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            do throws(E) {
                try initializer(UnsafeMutableRawBufferPointer(buffer), stride)
                initializedCount = count
            } catch {
                // Zero the memory so the array is valid even though it is discarded.
                buffer.initialize(repeating: 0)
                initializedCount = count
                failure = error
            }
        }
        if let failure { throw .initializer(failure) }
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.pixelFormat = pixelFormat
        self.storage = bytes
    }

    private static func validate(
        width: Int, height: Int, pixelFormat: PixelFormat, bytesPerRow: Int?
    ) throws(PixelBufferError) -> Int {
        guard width > 0, height > 0 else { throw .emptyImage(width: width, height: height) }
        let (minimum, overflow) = width.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        guard !overflow else { throw .tooLarge(width: width, height: height) }
        let stride = bytesPerRow ?? minimum
        guard stride >= minimum else { throw .rowTooShort(bytesPerRow: stride, minimum: minimum) }
        return stride
    }

    /// Calls `body` with all pixel bytes, `bytesPerRow × height` of them, row by row.
    ///
    /// - warning: The pointer is valid only inside `body`; do not store or return it.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        // `storage` is a let, so its buffer stays alive and unchanged for the whole call.
        var result: Result<R, E>?
        storage.withUnsafeBytes { raw in
            do throws(E) { result = .success(try body(raw)) } catch { result = .failure(error) }
        }
        // `result` is always set: the closure above runs exactly once.
        switch result {
        case .success(let value)?: return value
        case .failure(let error)?: throw error
        case nil: preconditionFailure("withUnsafeBytes did not call its body")
        }
    }

    /// Calls `body` with the `width × bytesPerPixel` bytes of row `y` (0 is the top row).
    ///
    /// - Precondition: `0 <= y < height`.
    /// - warning: The pointer is valid only inside `body`; do not store or return it.
    public func withUnsafeRow<R, E: Error>(_ y: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        precondition(y >= 0 && y < height, "row \(y) is outside 0..<\(height)")
        let rowBytes = width * pixelFormat.bytesPerPixel
        return try withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: raw[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)]))
        }
    }
}

/// Why ``PixelBuffer/init(width:height:pixelFormat:initializingWith:)`` failed.
public enum PixelBufferInitError<Failure: Error>: Error {
    /// The requested size or format is impossible.
    case invalidGeometry(PixelBufferError)
    /// The initializer closure threw.
    case initializer(Failure)
}

extension PixelBuffer: Equatable {
    /// Two buffers are equal when their size, format and visible pixels are equal (row padding is ignored).
    public static func == (lhs: PixelBuffer, rhs: PixelBuffer) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.pixelFormat == rhs.pixelFormat else {
            return false
        }
        if lhs.bytesPerRow == rhs.bytesPerRow { return lhs.storage == rhs.storage }
        let rowBytes = lhs.width * lhs.pixelFormat.bytesPerPixel
        return lhs.withUnsafeBytes { l in
            rhs.withUnsafeBytes { r in
                (0..<lhs.height).allSatisfy { y in
                    memcmpEqual(l.baseAddress! + y * lhs.bytesPerRow, r.baseAddress! + y * rhs.bytesPerRow, rowBytes)
                }
            }
        }
    }
}

private func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    UnsafeRawBufferPointer(start: a, count: count).elementsEqual(UnsafeRawBufferPointer(start: b, count: count))
}
