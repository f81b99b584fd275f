/// Appends little-endian values to a byte array: the writing half of the index file format.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    /// Appends integers, copying in bulk on little-endian machines.
    mutating func append<T: FixedWidthInteger>(contentsOf values: [T]) {
        #if _endian(little)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        for value in values { append(value) }
        #endif
    }

    /// Appends floats as their IEEE-754 bit patterns, copying in bulk on little-endian machines.
    mutating func append(contentsOf values: [Float]) {
        #if _endian(little)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        for value in values { append(value.bitPattern) }
        #endif
    }

    /// Appends raw memory; on big-endian machines the caller must pass little-endian data.
    mutating func append(raw: UnsafeRawBufferPointer) { bytes.append(contentsOf: raw) }

    /// Overwrites 4 bytes at `offset` with `value`, little-endian.
    mutating func patch(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for i in 0..<4 { bytes[offset + i] = raw[i] }
        }
    }
}

/// Reads little-endian values from a byte range, refusing to read past its end.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    mutating func read<T: FixedWidthInteger>(_: T.Type, _ what: String) throws(IndexFileError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw .malformed("\(what) runs past the end of its section") }
        let value = T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        offset += size
        return value
    }

    /// Reads `count` integers, copying in bulk on little-endian machines.
    mutating func readArray<T: FixedWidthInteger>(_: T.Type, count: Int, _ what: String) throws(IndexFileError) -> [T] {
        let size = MemoryLayout<T>.size
        guard count >= 0, count <= remaining / size else { throw .malformed("\(what) runs past the end of its section") }
        let start = offset
        let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            #if _endian(little)
            if count > 0, let base = buffer.baseAddress, let source = bytes.baseAddress {
                UnsafeMutableRawPointer(base).copyMemory(
                    from: source + start, byteCount: count * size)
            }
            #else
            for i in 0..<count {
                buffer[i] = T(littleEndian: bytes.loadUnaligned(fromByteOffset: start + i * size, as: T.self))
            }
            #endif
            initialized = count
        }
        offset += count * size
        return values
    }

    /// Reads `count` floats stored as IEEE-754 bit patterns.
    mutating func readFloats(count: Int, _ what: String) throws(IndexFileError) -> [Float] {
        #if _endian(little)
        guard count >= 0, count <= remaining / 4 else { throw .malformed("\(what) runs past the end of its section") }
        let start = offset
        let values = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0, let base = buffer.baseAddress, let source = bytes.baseAddress {
                UnsafeMutableRawPointer(base).copyMemory(
                    from: source + start, byteCount: count * 4)
            }
            initialized = count
        }
        offset += count * 4
        return values
        #else
        return try readArray(UInt32.self, count: count, what).map { Float(bitPattern: $0) }
        #endif
    }

    mutating func readBytes(count: Int, _ what: String) throws(IndexFileError) -> [UInt8] {
        try readArray(UInt8.self, count: count, what)
    }
}

/// Runs `body` over the bytes of `array`, keeping the typed error.
func withBytes<R>(
    of array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(IndexFileError) -> R
) throws(IndexFileError) -> R {
    let result: Result<R, IndexFileError> = array.withUnsafeBytes { raw in
        do throws(IndexFileError) {
            return .success(try body(raw))
        } catch {
            return .failure(error)
        }
    }
    return try result.get()
}
