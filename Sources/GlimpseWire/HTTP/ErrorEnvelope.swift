/// The wire shape of an error body.
public struct ErrorEnvelope: Codable, Sendable, Equatable {
    /// The error itself.
    public struct Detail: Codable, Sendable, Equatable {
        /// The HTTP status code.
        public var status: Int
        /// The machine-readable error name.
        public var code: String
        /// The sentence for people.
        public var message: String

        /// Creates the detail of an error body.
        public init(status: Int, code: String, message: String) {
            self.status = status
            self.code = code
            self.message = message
        }
    }

    /// The error itself.
    public var error: Detail

    /// Creates an error body.
    public init(error: Detail) {
        self.error = error
    }
}
