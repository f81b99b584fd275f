extension CursorKey {
    /// `body` signed with this key and written as cursor text, exactly as the cursors a
    /// ``VisualSearchQuery`` issues are: so a fuzz target can send arbitrary cursor contents past the
    /// signature check into ``VisualSearchQuery/page(after:limit:)``.
    ///
    /// For the fuzz targets in `Fuzz/` only (`@_spi(Fuzzing)`); the layout of the body is private.
    @_spi(Fuzzing) public func signedCursor(body: [UInt8]) -> String {
        VisualSearchCursorCodec.sign(body, key: self)
    }
}
