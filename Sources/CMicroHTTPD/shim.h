#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <errno.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// Everything `cmhd_start_daemon` needs, so that Swift never calls the C-variadic
/// `MHD_start_daemon` or builds an `MHD_OptionItem` array itself.
typedef struct cmhd_daemon_config {
    unsigned int flags;
    const struct sockaddr *address;      /* bound address, port included */
    MHD_AccessHandlerCallback handler;
    void *handler_cls;
    MHD_RequestCompletedCallback completed;
    void *completed_cls;
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection);
    void *uri_log_cls;
    MHD_NotifyConnectionCallback notify_connection;
    void *notify_connection_cls;
    MHD_AcceptPolicyCallback accept_policy; /* asked before each connection is taken */
    void *accept_policy_cls;
    void (*log_sink)(const char *message); /* receives libmicrohttpd's formatted log lines */
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    unsigned int connection_timeout;     /* seconds; 0 = never */
    size_t connection_memory_limit;      /* bytes per connection; bounds header and URL size */
    unsigned int per_ip_connection_limit;/* 0 = unlimited */
    unsigned int listen_backlog;
    int strict_for_client;               /* MHD_OPTION_STRICT_FOR_CLIENT (1 also refuses a missing Host) */
    void *tls_certificate_callback;      /* non-NULL: HTTPS (with MHD_USE_TLS in flags), a */
                                         /* gnutls_certificate_retrieve_function2 */
    const char *tls_priorities;          /* GnuTLS priority string, with the callback */
} cmhd_daemon_config;

/* libmicrohttpd hands its logger a format and a va_list, which Swift cannot take apart. */
static inline void cmhd_format_log(void *cls, const char *format, va_list arguments) {
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    ((void (*)(const char *))cls)(line);
}

/// Starts a daemon from `config`; NULL when it cannot (a port in use, say).
static inline struct MHD_Daemon *cmhd_start_daemon(const cmhd_daemon_config *config) {
    struct MHD_OptionItem options[] = {
        /* The external logger must come first, or early errors go to stderr unformatted. */
        { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)cmhd_format_log, (void *)config->log_sink },
        { MHD_OPTION_SOCK_ADDR, 0, (void *)config->address },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)config->completed, config->completed_cls },
        { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)config->uri_log, config->uri_log_cls },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)config->notify_connection, config->notify_connection_cls },
        { MHD_OPTION_THREAD_POOL_SIZE, config->thread_pool_size, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, config->connection_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, config->connection_timeout, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)config->connection_memory_limit, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, config->per_ip_connection_limit, NULL },
        { MHD_OPTION_LISTEN_BACKLOG_SIZE, config->listen_backlog, NULL },
        { MHD_OPTION_STRICT_FOR_CLIENT, config->strict_for_client, NULL },
        /* Only for HTTPS (libmicrohttpd refuses HTTPS options without MHD_USE_TLS): ended here otherwise. */
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    if (config->tls_certificate_callback != NULL) {
        const size_t tls = sizeof options / sizeof options[0] - 3;
        options[tls] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_CERT_CALLBACK, 0, config->tls_certificate_callback };
        options[tls + 1] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)config->tls_priorities };
    }
    const uint16_t port = config->address->sa_family == AF_INET6
        ? ntohs(((const struct sockaddr_in6 *)config->address)->sin6_port)
        : ntohs(((const struct sockaddr_in *)config->address)->sin_port);
    return MHD_start_daemon(config->flags, port, config->accept_policy, config->accept_policy_cls,
                            config->handler, config->handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// Adds `count` header fields to `response`, in order, from `fields`: each field's name and
/// then its value, each NUL-terminated, one after another. One call for all of a response's
/// fields spares Swift a closure and a copy per field.
static inline void cmhd_add_response_headers(struct MHD_Response *response, const char *fields, unsigned int count) {
    for (unsigned int index = 0; index < count; index++) {
        const char *name = fields;
        const char *value = name + strlen(name) + 1;
        fields = value + strlen(value) + 1;
        MHD_add_response_header(response, name, value);
    }
}

/// Whether this libmicrohttpd serves HTTPS (built with GnuTLS) with a certificate callback.
static inline int cmhd_supports_tls_with_callback(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES
        && MHD_is_feature_supported(MHD_FEATURE_HTTPS_CERT_CALLBACK) == MHD_YES;
}

/// The port the daemon is bound to (useful after binding port 0); 0 if unknown.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The connection's socket, or -1.
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The connection's socket context (the pointer libmicrohttpd keeps for the server from the
/// connection's start notification on), or NULL.
static inline void *cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// Writes `address` (IPv4 or IPv6, without its port) as text into `buffer`; returns 0 on success.
static inline int cmhd_format_address(const struct sockaddr *address, char *buffer, socklen_t size) {
    if (address == NULL || (address->sa_family != AF_INET && address->sa_family != AF_INET6)) return -1;
    const void *raw = address->sa_family == AF_INET6
        ? (const void *)&((const struct sockaddr_in6 *)address)->sin6_addr
        : (const void *)&((const struct sockaddr_in *)address)->sin_addr;
    return inet_ntop(address->sa_family, raw, buffer, size) == NULL ? -1 : 0;
}

/// Whether the `size` bytes at `text` are an HTTP token (RFC 9110 §5.6.2), as a field name must be.
static inline int cmhd_is_token(const char *text, size_t size) {
    if (size == 0) return 0;
    for (size_t index = 0; index < size; index++) {
        unsigned char byte = (unsigned char)text[index];
        if ((byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9')) continue;
        if (byte == 0 || strchr("!#$%&'*+-.^_`|~", byte) == NULL) return 0;
    }
    return 1;
}

static inline enum MHD_Result cmhd_count_header(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                         const char *value, size_t value_size) {
    (void)kind; (void)value;
    size_t *totals = cls;
    totals[0] += key_size + value_size + 4; /* ": " and CRLF, as sent */
    totals[1] += 1;
    if (key_size == 4 && strncasecmp(key, "host", 4) == 0) totals[2] += 1;
    /* A name that is empty or holds a blank or another byte no token has (RFC 9112 §5.1). */
    if (!cmhd_is_token(key, key_size)) totals[3] += 1;
    return MHD_YES;
}

/// The bytes of `connection`'s request header fields, each counted as sent (`name: value`
/// and CRLF), with their count in `count`, the number of `Host` fields among them in
/// `hosts` and of fields whose name is not a token in `malformed`: one walk of
/// libmicrohttpd's list, no text made.
static inline size_t cmhd_header_bytes(struct MHD_Connection *connection, unsigned int *count, unsigned int *hosts, unsigned int *malformed) {
    size_t totals[4] = { 0, 0, 0, 0 };
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, cmhd_count_header, totals);
    *count = (unsigned int)totals[1];
    *hosts = (unsigned int)totals[2];
    *malformed = (unsigned int)totals[3];
    return totals[0];
}

/// Writes `address` (IPv4 or IPv6, without its port) as 16 bytes into `bytes`, an IPv4 address
/// as its IPv4-mapped IPv6 form; returns 0 on success. No text is made: the accept policy
/// counts connections by these bytes.
static inline int cmhd_address_bytes(const struct sockaddr *address, uint8_t bytes[16]) {
    if (address == NULL) return -1;
    if (address->sa_family == AF_INET6) {
        memcpy(bytes, &((const struct sockaddr_in6 *)address)->sin6_addr, 16);
        return 0;
    }
    if (address->sa_family != AF_INET) return -1;
    memset(bytes, 0, 10);
    bytes[10] = 0xFF;
    bytes[11] = 0xFF;
    memcpy(bytes + 12, &((const struct sockaddr_in *)address)->sin_addr, 4);
    return 0;
}

/// Writes the client's address of `connection` as 16 bytes (see `cmhd_address_bytes`); 0 on success.
static inline int cmhd_client_address_bytes(struct MHD_Connection *connection, uint8_t bytes[16]) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? -1 : cmhd_address_bytes(info->client_addr, bytes);
}

/// Writes the client's address as text into `buffer`; returns 0 on success.
static inline int cmhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL) return -1;
    return cmhd_format_address(info->client_addr, buffer, size);
}

/// True when the peer of a (suspended) connection has closed its end: libmicrohttpd does
/// not watch suspended sockets, so a client that leaves would otherwise linger in CLOSE-WAIT.
static inline int cmhd_peer_has_left(int fd) {
    char byte;
    ssize_t received = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (received == 0) return 1;
    if (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return 1;
    return 0;
}

/// Ends a connection from outside libmicrohttpd's threads: its next read sees the end of the
/// stream and libmicrohttpd closes it as usual.
static inline void cmhd_shut_down(int fd) {
    shutdown(fd, SHUT_RDWR);
}

/// Raises the soft limit on open files towards `wanted` (capped by the hard limit).
/// Returns the soft limit in force afterwards.
static inline unsigned long cmhd_raise_open_file_limit(unsigned long wanted) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
    if (limit.rlim_cur < wanted) {
        limit.rlim_cur = wanted < limit.rlim_max ? wanted : limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
        getrlimit(RLIMIT_NOFILE, &limit);
    }
    return (unsigned long)limit.rlim_cur;
}

#endif
