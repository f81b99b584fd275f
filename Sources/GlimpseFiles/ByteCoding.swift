// Byte coding of every Glimpse file format: little-endian values, length-prefixed strings and bulk
// arrays written to and read from bytes, with reads that never go past the end of their range.

/// Appends values to a byte array: little-endian unless a method says otherwise.
///
/// The writing half of every Glimpse file format (index files, model files, the feature cache) and of
/// continuation cursors (which are big-endian).
package struct ByteWriter: Sendable {
    @usableFromInline var storage: [UInt8]

    /// The bytes written so far.
    @inlinable
    package var bytes: [UInt8] { storage }

    /// An empty writer with room for `capacity` bytes.
    @inlinable
    package init(capacity: Int = 0) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    /// Appends `value` little-endian.
    @inlinable
    package mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }

    /// Appends `value` big-endian (network order).
    @inlinable
    package mutating func append<T: FixedWidthInteger>(bigEndian value: T) {
        withUnsafeBytes(of: value.bigEndian) { storage.append(contentsOf: $0) }
    }

    /// Appends `value` as its IEEE-754 bit pattern, little-endian.
    @inlinable
    package mutating func append(_ value: Float) { append(value.bitPattern) }

    /// Appends integers little-endian, copying in bulk on little-endian machines.
    @inlinable
    package mutating func append<T: FixedWidthInteger>(contentsOf values: [T]) {
        #if _endian(little)
        values.withUnsafeBytes { storage.append(contentsOf: $0) }
        #else
        for value in values { append(value) }
        #endif
    }

    /// Appends floats as their IEEE-754 bit patterns, copying in bulk on little-endian machines.
    @inlinable
    package mutating func append(contentsOf values: [Float]) {
        #if _endian(little)
        values.withUnsafeBytes { storage.append(contentsOf: $0) }
        #else
        for value in values { append(value.bitPattern) }
        #endif
    }

    /// Appends raw memory as it is; on big-endian machines the caller must pass little-endian data.
    @inlinable
    package mutating func append(raw: UnsafeRawBufferPointer) { storage.append(contentsOf: raw) }

    /// Appends `string` as a `u32` byte count followed by its UTF-8.
    @inlinable
    package mutating func append(string: String) {
        let utf8 = Array(string.utf8)
        append(UInt32(truncatingIfNeeded: utf8.count))
        storage.append(contentsOf: utf8)
    }

    /// Overwrites the bytes at `offset` with `value`, little-endian (a length written once it is known).
    ///
    /// - Precondition: `offset + T.bitWidth / 8 <= bytes.count`.
    @inlinable
    package mutating func patch<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for i in 0..<raw.count { storage[offset + i] = raw[i] }
        }
    }
}

/// Why a ``ByteReader`` stopped: what it was reading, where, and what was wrong.
///
/// Each file format turns it into its own error, in its own words.
package struct ByteReadError: Error, Sendable, Equatable {
    /// What was wrong.
    package enum Problem: Sendable, Equatable {
        /// The value runs past the end of the range being read.
        case overrun
        /// A length-prefixed string declares `length` bytes: more than its limit or than remain.
        case stringOutOfRange(length: Int)
        /// A length-prefixed string is not valid UTF-8.
        case invalidUTF8
    }

    /// What was wrong.
    package var problem: Problem
    /// The name the caller gave the value, such as `"vectors"` (`"a field"` when it gave none).
    package var what: String
    /// The byte offset where the value starts (for strings: where their UTF-8 starts, after the length).
    package var offset: Int

    /// An error of `problem` reading `what` at `offset`.
    @inlinable
    package init(_ problem: Problem, what: String, offset: Int) {
        self.problem = problem
        self.what = what
        self.offset = offset
    }
}

/// Reads values from a range of bytes: little-endian unless a method says otherwise, and never past
/// ``end``. Every failure is a ``ByteReadError`` passed through the `failure` closure given at creation,
/// so each format throws its own typed error.
///
/// Reads straight from memory: bulk reads (``readArray(_:count:_:)``, ``readFloats(count:_:)``) are
/// one copy each, so large index files load at memory speed.
package struct ByteReader<Failure: Error> {
    /// The bytes read from; they must stay alive while the reader is used.
    package let bytes: UnsafeRawBufferPointer
    /// Where reading stops (exclusive).
    package let end: Int
    /// Where the next read starts.
    package var offset: Int
    @usableFromInline let failure: (ByteReadError) -> Failure

    /// A reader of `bytes[offset..<end]` (`end` defaults to the end of `bytes`) that throws `failure` of
    /// each ``ByteReadError``.
    @inlinable
    package init(
        _ bytes: UnsafeRawBufferPointer, offset: Int = 0, end: Int? = nil,
        failure: @escaping (ByteReadError) -> Failure
    ) {
        self.bytes = bytes
        self.end = min(end ?? bytes.count, bytes.count)
        self.offset = offset
        self.failure = failure
    }

    /// The bytes left before ``end``.
    @inlinable
    package var remaining: Int { end - offset }

    /// Whether every byte up to ``end`` has been read.
    @inlinable
    package var isAtEnd: Bool { offset >= end }

    @inlinable
    func overrun(_ what: String) -> Failure { failure(ByteReadError(.overrun, what: what, offset: offset)) }

    /// Reads one little-endian integer.
    @inlinable
    package mutating func read<T: FixedWidthInteger>(_: T.Type = T.self, _ what: String = "a field") throws(Failure) -> T {
        T(littleEndian: try load(T.self, what))
    }

    /// Reads one big-endian (network order) integer.
    @inlinable
    package mutating func read<T: FixedWidthInteger>(bigEndian _: T.Type, _ what: String = "a field") throws(Failure) -> T {
        T(bigEndian: try load(T.self, what))
    }

    /// The next `T`'s bytes as they are in memory.
    @inlinable
    mutating func load<T: FixedWidthInteger>(_: T.Type, _ what: String) throws(Failure) -> T {
        let size = MemoryLayout<T>.size
        guard offset >= 0, remaining >= size else { throw overrun(what) }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += size
        return value
    }

    /// Reads one float stored as its little-endian IEEE-754 bit pattern.
    @inlinable
    package mutating func readFloat(_ what: String = "a field") throws(Failure) -> Float {
        Float(bitPattern: try read(UInt32.self, what))
    }

    /// Reads `count` little-endian integers, copying in bulk on little-endian machines.
    @inlinable
    package mutating func readArray<T: FixedWidthInteger>(
        _: T.Type, count: Int, _ what: String = "a field"
    ) throws(Failure) -> [T] {
        let size = MemoryLayout<T>.size
        guard offset >= 0, count >= 0, count <= remaining / size else { throw overrun(what) }
        let start = offset
        let source = bytes
        let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            #if _endian(little)
            if count > 0, let base = buffer.baseAddress, let from = source.baseAddress {
                // safe because count * size <= remaining: the copy stays inside `source`.
                UnsafeMutableRawPointer(base).copyMemory(from: from + start, byteCount: count * size)
            }
            #else
            for i in 0..<count {
                buffer[i] = T(littleEndian: source.loadUnaligned(fromByteOffset: start + i * size, as: T.self))
            }
            #endif
            initialized = count
        }
        offset += count * size
        return values
    }

    /// Reads `count` floats stored as little-endian IEEE-754 bit patterns.
    @inlinable
    package mutating func readFloats(count: Int, _ what: String = "a field") throws(Failure) -> [Float] {
        #if _endian(little)
        guard offset >= 0, count >= 0, count <= remaining / 4 else { throw overrun(what) }
        let start = offset
        let source = bytes
        let values = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0, let base = buffer.baseAddress, let from = source.baseAddress {
                // safe because count * 4 <= remaining: the copy stays inside `source`.
                UnsafeMutableRawPointer(base).copyMemory(from: from + start, byteCount: count * 4)
            }
            initialized = count
        }
        offset += count * 4
        return values
        #else
        return try readArray(UInt32.self, count: count, what).map { Float(bitPattern: $0) }
        #endif
    }

    /// Reads `count` raw bytes.
    @inlinable
    package mutating func readBytes(count: Int, _ what: String = "a field") throws(Failure) -> [UInt8] {
        try readArray(UInt8.self, count: count, what)
    }

    /// Reads a `u32` byte count and that many bytes of UTF-8, refusing more than `maxLength` bytes.
    @inlinable
    package mutating func readString(maxLength: Int, _ what: String = "a string") throws(Failure) -> String {
        let length = Int(try read(UInt32.self, what))
        guard length <= maxLength, length <= remaining else {
            throw failure(ByteReadError(.stringOutOfRange(length: length), what: what, offset: offset))
        }
        let utf8 = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
        guard let string = String(validating: utf8, as: UTF8.self) else {
            throw failure(ByteReadError(.invalidUTF8, what: what, offset: offset))
        }
        offset += length
        return string
    }
}

extension ByteReader where Failure == ByteReadError {
    /// A reader of `bytes[offset..<end]` that throws ``ByteReadError`` as it is.
    @inlinable
    package init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0, end: Int? = nil) {
        self.init(bytes, offset: offset, end: end, failure: { $0 })
    }
}

/// Runs `body` over the bytes of `array`, keeping `body`'s typed error (the standard library's
/// `withUnsafeBytes` throws untyped errors).
@inlinable
package func withBytes<Result, Failure: Error>(
    of array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
) throws(Failure) -> Result {
    let outcome: Swift.Result<Result, Failure> = array.withUnsafeBytes { raw in
        do throws(Failure) {
            return .success(try body(raw))
        } catch {
            return .failure(error)
        }
    }
    return try outcome.get()
}
