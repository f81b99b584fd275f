#define _GNU_SOURCE
#include "CGlimpseSocket.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int CGlimpseSocket_peer_credentials(int fd, CGlimpseSocket_peer *out) {
    struct ucred cred;
    socklen_t len = sizeof(cred);
    memset(&cred, 0, sizeof(cred));
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
        return errno;
    }
    if (len != sizeof(cred)) {
        return EINVAL;
    }
    out->pid = cred.pid;
    out->uid = cred.uid;
    out->gid = cred.gid;
    return 0;
}

size_t CGlimpseSocket_max_path_length(void) {
    struct sockaddr_un addr;
    return sizeof(addr.sun_path) - 1;
}

int CGlimpseSocket_connect(const char *path) {
    struct sockaddr_un addr;
    size_t len = strlen(path);
    if (len > sizeof(addr.sun_path) - 1) {
        return -ENAMETOOLONG;
    }
    memset(&addr, 0, sizeof(addr));
    addr.sun_family = AF_UNIX;
    memcpy(addr.sun_path, path, len);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -errno;
    }
    int rc;
    do {
        rc = connect(fd, (struct sockaddr *)&addr, sizeof(addr));
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        int saved = errno;
        close(fd);
        return -saved;
    }
    return fd;
}

int CGlimpseSocket_probe(const char *path) {
    int fd = CGlimpseSocket_connect(path);
    if (fd < 0) {
        return -fd;
    }
    close(fd);
    return 0;
}

// CGlimpseSocket_peer is read directly by getsockopt(SO_PEERCRED) from Swift, so it must match
// struct ucred byte for byte.
#include <stddef.h>
_Static_assert(sizeof(CGlimpseSocket_peer) == sizeof(struct ucred), "CGlimpseSocket_peer size differs from ucred");
_Static_assert(offsetof(CGlimpseSocket_peer, pid) == offsetof(struct ucred, pid), "pid offset differs");
_Static_assert(offsetof(CGlimpseSocket_peer, uid) == offsetof(struct ucred, uid), "uid offset differs");
_Static_assert(offsetof(CGlimpseSocket_peer, gid) == offsetof(struct ucred, gid), "gid offset differs");
