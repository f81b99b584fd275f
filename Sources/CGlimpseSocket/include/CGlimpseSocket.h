// Small socket helpers for the Glimpse daemon that Swift cannot express directly:
// reading SO_PEERCRED (`struct ucred` needs _GNU_SOURCE), probing a Unix socket path, inspecting a
// listening socket handed over by systemd, and sending systemd's readiness datagrams.
#ifndef CGLIMPSESOCKET_H
#define CGLIMPSESOCKET_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The identity of the process at the other end of a connected Unix socket, as the kernel
/// recorded it at connect(2) time.
typedef struct CGlimpseSocket_peer {
    pid_t pid;
    uid_t uid;
    gid_t gid;
} CGlimpseSocket_peer;

/// The supplementary groups of the peer of a connected Unix socket (SO_PEERGROUPS, Linux 4.13+): the
/// kernel fills the first entries in ascending order and leaves the rest as they were. A peer in more
/// groups than fit makes getsockopt(2) fail with ERANGE.
typedef struct CGlimpseSocket_peer_groups {
    gid_t groups[256];
} CGlimpseSocket_peer_groups;

/// SO_PEERGROUPS, which Swift's Glibc module does not export.
static const int CGlimpseSocket_SO_PEERGROUPS = 59;

/// Reads SO_PEERCRED of the connected Unix socket `fd` into `out`.
/// Returns 0 on success, otherwise the errno of getsockopt(2).
int CGlimpseSocket_peer_credentials(int fd, CGlimpseSocket_peer *out);

/// The longest socket path, in bytes without the terminating NUL, that fits in `sun_path`.
size_t CGlimpseSocket_max_path_length(void);

/// Tries to connect(2) to the Unix stream socket at `path` and closes the connection at once.
/// Returns 0 when a listener accepted the connection (the path is live), otherwise the errno:
/// ECONNREFUSED for a socket node nobody listens on, ENOENT for a missing path,
/// ENAMETOOLONG when the path does not fit in `sun_path`.
int CGlimpseSocket_probe(const char *path);

/// Connects a new Unix stream socket to `path`. Returns the descriptor (>= 0) or -errno.
/// The caller owns the descriptor and must close it.
int CGlimpseSocket_connect(const char *path);

/// What a descriptor handed over for socket activation is.
typedef struct CGlimpseSocket_listener {
    /// The address family from getsockname(2) (AF_UNIX for a Unix socket).
    int family;
    /// SO_TYPE (SOCK_STREAM for a stream socket).
    int type;
    /// SO_ACCEPTCONN: 1 when listen(2) was called on it.
    int accepting;
    /// The bound path (NUL-terminated; empty for an unnamed socket, "@name" for an abstract one).
    char path[110];
} CGlimpseSocket_listener;

/// Reads the family, type, listening state and bound path of the socket `fd` into `out`.
/// Returns 0 on success, otherwise the errno of fstat(2), getsockopt(2) or getsockname(2)
/// (ENOTSOCK when `fd` is open but not a socket, EBADF when it is not open).
int CGlimpseSocket_describe_listener(int fd, CGlimpseSocket_listener *out);

/// Sends `message` as one datagram to the systemd notification socket `path` (the value of
/// $NOTIFY_SOCKET: a filesystem path, or "@name" for the abstract namespace).
/// Returns 0 on success, otherwise the errno (ENAMETOOLONG, EINVAL for an empty or relative path).
int CGlimpseSocket_notify(const char *path, const char *message);

#ifdef __cplusplus
}
#endif

#endif
