import CGlimpseSocket
public import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process at the other end of a Unix socket connection, as the kernel recorded it at
/// `connect(2)` time (`SO_PEERCRED`).
public struct PeerCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The peer's process id.
    public var pid: Int32
    /// The peer's effective user id.
    public var uid: UInt32
    /// The peer's effective group id.
    public var gid: UInt32
    /// The peer's supplementary groups (`SO_PEERGROUPS`), as they were at `connect(2)` time; empty when
    /// the kernel cannot report them.
    public var groups: [UInt32]

    /// Creates credentials from their three ids and the supplementary groups.
    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// `pid=… uid=… gid=… groups=…`, for logs.
    public var description: String {
        "pid=\(pid) uid=\(uid) gid=\(gid)" + (groups.isEmpty ? "" : " groups=\(groups.map(String.init).joined(separator: ","))")
    }

    /// Reads the credentials of the peer connected to `channel`.
    ///
    /// The value is read with `getsockopt(SO_PEERCRED)` into `CGlimpseSocket_peer`, a struct
    /// declared layout-compatible with `struct ucred` (checked by a static assertion in the C target).
    /// - Returns: `nil` when the channel is not a socket or the option cannot be read.
    public static func of(_ channel: any Channel) async -> PeerCredentials? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let future: EventLoopFuture<CGlimpseSocket_peer> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_PEERCRED)
        )
        guard let peer = try? await future.get() else { return nil }
        let groupsFuture: EventLoopFuture<CGlimpseSocket_peer_groups> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(CGlimpseSocket_SO_PEERGROUPS)
        )
        let groups = (try? await groupsFuture.get()).map(Self.groupList) ?? []
        return PeerCredentials(pid: peer.pid, uid: peer.uid, gid: peer.gid, groups: groups)
    }

    /// The groups in a `SO_PEERGROUPS` answer. The kernel writes the list in ascending order and leaves
    /// the rest of the (zero-filled) buffer alone, so the list ends where a zero follows a non-zero
    /// entry; a leading zero (group 0) cannot be told from an empty list and is left out (a peer is then
    /// not let in as a member of group 0 unless that is its primary group).
    static func groupList(_ answer: CGlimpseSocket_peer_groups) -> [UInt32] {
        withUnsafeBytes(of: answer.groups) { raw in
            let all = raw.bindMemory(to: UInt32.self)
            var groups: [UInt32] = []
            for gid in all {
                if gid == 0 {
                    if groups.isEmpty { continue }
                    break
                }
                if let last = groups.last, gid <= last { break }
                groups.append(gid)
            }
            return groups
        }
    }
}

/// Which peers may use the daemon: everyone, or only listed user and group ids.
public struct PeerPolicy: Sendable, Equatable {
    /// User ids allowed in; empty means "no restriction by user".
    public var allowedUIDs: Set<UInt32>
    /// Group ids allowed in; empty means "no restriction by group".
    public var allowedGIDs: Set<UInt32>

    /// Creates a policy. With both sets empty every peer is allowed (the socket's mode and its
    /// directory still gate access).
    public init(allowedUIDs: Set<UInt32> = [], allowedGIDs: Set<UInt32> = []) {
        self.allowedUIDs = allowedUIDs
        self.allowedGIDs = allowedGIDs
    }

    /// Whether the policy restricts anyone (either set is non-empty).
    public var isRestricted: Bool { !allowedUIDs.isEmpty || !allowedGIDs.isEmpty }

    /// Whether `peer` may use the daemon: its uid is listed, or its primary gid or one of its
    /// supplementary groups is listed. Unknown credentials are refused when the policy restricts anyone.
    public func allows(_ peer: PeerCredentials?) -> Bool {
        guard isRestricted else { return true }
        guard let peer else { return false }
        return allowedUIDs.contains(peer.uid) || allowedGIDs.contains(peer.gid)
            || peer.groups.contains(where: allowedGIDs.contains)
    }
}
