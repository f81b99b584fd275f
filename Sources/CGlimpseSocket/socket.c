#define _GNU_SOURCE
#include "CGlimpseSocket.h"

#include <errno.h>
#include <string.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>
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

int CGlimpseSocket_describe_listener(int fd, CGlimpseSocket_listener *out) {
    memset(out, 0, sizeof(*out));
    struct stat info;
    if (fstat(fd, &info) != 0) {
        return errno;
    }
    if (!S_ISSOCK(info.st_mode)) {
        return ENOTSOCK;
    }
    socklen_t len = sizeof(out->type);
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &out->type, &len) != 0) {
        return errno;
    }
    len = sizeof(out->accepting);
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &out->accepting, &len) != 0) {
        return errno;
    }
    struct sockaddr_storage address;
    socklen_t address_len = sizeof(address);
    memset(&address, 0, sizeof(address));
    if (getsockname(fd, (struct sockaddr *)&address, &address_len) != 0) {
        return errno;
    }
    out->family = address.ss_family;
    if (address.ss_family == AF_UNIX && address_len > offsetof(struct sockaddr_un, sun_path)) {
        const struct sockaddr_un *unix_address = (const struct sockaddr_un *)&address;
        size_t path_len = address_len - offsetof(struct sockaddr_un, sun_path);
        if (path_len > sizeof(out->path) - 1) {
            path_len = sizeof(out->path) - 1;
        }
        memcpy(out->path, unix_address->sun_path, path_len);
        if (out->path[0] == '\0' && path_len > 0) {
            out->path[0] = '@';  // abstract namespace, written as systemd writes it
        }
        out->path[path_len] = '\0';
    }
    return 0;
}

int CGlimpseSocket_notify(const char *path, const char *message) {
    struct sockaddr_un addr;
    size_t len = strlen(path);
    if (len == 0 || (path[0] != '/' && path[0] != '@')) {
        return EINVAL;
    }
    if (len > sizeof(addr.sun_path) - 1) {
        return ENAMETOOLONG;
    }
    memset(&addr, 0, sizeof(addr));
    addr.sun_family = AF_UNIX;
    memcpy(addr.sun_path, path, len);
    if (path[0] == '@') {
        addr.sun_path[0] = '\0';
    }
    socklen_t addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return errno;
    }
    size_t message_len = strlen(message);
    ssize_t sent;
    do {
        sent = sendto(fd, message, message_len, MSG_NOSIGNAL, (struct sockaddr *)&addr, addr_len);
    } while (sent < 0 && errno == EINTR);
    int result = sent < 0 ? errno : ((size_t)sent == message_len ? 0 : EMSGSIZE);
    close(fd);
    return result;
}

// CGlimpseSocket_peer is read directly by getsockopt(SO_PEERCRED) from Swift, so it must match
// struct ucred byte for byte.
#include <stddef.h>
_Static_assert(sizeof(CGlimpseSocket_peer) == sizeof(struct ucred), "CGlimpseSocket_peer size differs from ucred");
_Static_assert(offsetof(CGlimpseSocket_peer, pid) == offsetof(struct ucred, pid), "pid offset differs");
_Static_assert(offsetof(CGlimpseSocket_peer, uid) == offsetof(struct ucred, uid), "uid offset differs");
_Static_assert(offsetof(CGlimpseSocket_peer, gid) == offsetof(struct ucred, gid), "gid offset differs");
