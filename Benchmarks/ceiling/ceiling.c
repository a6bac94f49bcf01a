/*
 * The ceiling: the fastest a libmicrohttpd server on this machine can answer, for comparing
 * QuickCart against. It answers every GET (or HEAD) with one fixed body read from a file,
 * using QuickCart's daemon mode and limits (Sources/MicroHTTP/Server.swift and
 * Sources/CMicroHTTPD/shim.h): an internal polling thread pool in poll mode with
 * suspend/resume allowed, one thread per online CPU unless told, the same connection limit,
 * timeout, per-connection memory and listen backlog.
 *
 * Like QuickCart it answers only once the request is complete, never in the first
 * access-handler call: an answer queued in that call makes libmicrohttpd 0.9.75 close the
 * connection afterwards (no keep-alive).
 *
 *   ceiling --body FILE [--headers FILE] [--content-type TYPE] [--etag TAG]
 *           [--host 127.0.0.1] [--port 0] [--threads N]
 *
 * --headers names a file of "Name: value" lines added to every answer (the bench copies
 * QuickCart's own headers there, less Date, Content-Length, Set-Cookie, Connection and
 * Transfer-Encoding, so both servers send the same bytes). With --etag, a request whose
 * If-None-Match equals TAG gets 304 with no body, as QuickCart's static files do. Prints
 * "http://HOST:PORT/" once it accepts connections; SIGINT or SIGTERM stop it (exit 0).
 *
 * Built by `make bench` with `cc -O2`.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

static struct MHD_Response *full_response;
static struct MHD_Response *not_modified_response;
static const char *etag;
static int request_marker;

static void fail(const char *message) {
    fprintf(stderr, "ceiling: %s\n", message);
    exit(2);
}

static char *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) { perror(path); exit(2); }
    size_t capacity = 1 << 16, length = 0;
    char *bytes = malloc(capacity);
    size_t got;
    while ((got = fread(bytes + length, 1, capacity - length, file)) > 0) {
        length += got;
        if (length == capacity) bytes = realloc(bytes, capacity *= 2);
    }
    fclose(file);
    *size = length;
    return bytes;
}

/* Adds each "Name: value" line of the file to both responses (304 leaves out Content-Type). */
static void add_header_file(const char *path) {
    size_t size;
    char *text = read_file(path, &size);
    text = realloc(text, size + 1);
    text[size] = '\0';
    for (char *line = strtok(text, "\r\n"); line != NULL; line = strtok(NULL, "\r\n")) {
        char *colon = strchr(line, ':');
        if (colon == NULL) continue;
        *colon = '\0';
        const char *value = colon + 1;
        while (*value == ' ') value++;
        MHD_add_response_header(full_response, line, value);
        if (strcasecmp(line, "Content-Type") != 0) MHD_add_response_header(not_modified_response, line, value);
    }
    free(text);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **slot) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload;
    if (*slot == NULL) {            /* first call: headers only; answer later */
        *slot = &request_marker;
        return MHD_YES;
    }
    if (*upload_size != 0) {        /* a body (not expected): swallow it */
        *upload_size = 0;
        return MHD_YES;
    }
    if (etag != NULL) {
        const char *tag = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "If-None-Match");
        if (tag != NULL && strcmp(tag, etag) == 0)
            return MHD_queue_response(connection, MHD_HTTP_NOT_MODIFIED, not_modified_response);
    }
    return MHD_queue_response(connection, MHD_HTTP_OK, full_response);
}

static void quiet_logger(void *cls, const char *format, va_list arguments) {
    (void)cls; (void)format; (void)arguments;
}

int main(int argc, char **argv) {
    const char *body_path = NULL, *headers_path = NULL, *host = "127.0.0.1";
    const char *content_type = "text/html; charset=utf-8";
    int port = 0;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (value == NULL) fail("every option takes a value; see the comment at the top of ceiling.c");
        if (strcmp(argv[i], "--body") == 0) body_path = value;
        else if (strcmp(argv[i], "--headers") == 0) headers_path = value;
        else if (strcmp(argv[i], "--content-type") == 0) content_type = value;
        else if (strcmp(argv[i], "--etag") == 0) etag = value;
        else if (strcmp(argv[i], "--host") == 0) host = value;
        else if (strcmp(argv[i], "--port") == 0) port = atoi(value);
        else if (strcmp(argv[i], "--threads") == 0) threads = atol(value);
        else fail("unknown option; see the comment at the top of ceiling.c");
        i++;
    }
    if (body_path == NULL) fail("--body FILE is required");
    if (threads < 1) threads = 1;

    size_t size;
    char *body = read_file(body_path, &size);
    full_response = MHD_create_response_from_buffer(size, body, MHD_RESPMEM_PERSISTENT);
    not_modified_response = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    if (headers_path != NULL) add_header_file(headers_path);
    if (MHD_get_response_header(full_response, "Content-Type") == NULL)
        MHD_add_response_header(full_response, "Content-Type", content_type);
    if (etag != NULL) {
        if (MHD_get_response_header(full_response, "ETag") == NULL) MHD_add_response_header(full_response, "ETag", etag);
        if (MHD_get_response_header(not_modified_response, "ETag") == NULL) MHD_add_response_header(not_modified_response, "ETag", etag);
    }

    /* QuickCart's limits: 16,384 connections (open files raised to fit), 30 s idle timeout,
       8 KiB per connection, backlog 1024. */
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 16384 + 256) {
        limit.rlim_cur = limit.rlim_max < 16384 + 256 ? limit.rlim_max : 16384 + 256;
        setrlimit(RLIMIT_NOFILE, &limit);
        getrlimit(RLIMIT_NOFILE, &limit);
    }
    unsigned int connection_limit = 16384;
    if (limit.rlim_cur < connection_limit + 128) connection_limit = limit.rlim_cur > 144 ? (unsigned int)(limit.rlim_cur - 128) : 16;

    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) fail("--host must be an IPv4 address");

    signal(SIGPIPE, SIG_IGN);
    /* Blocked before libmicrohttpd's threads start, so they inherit the mask and only
       sigwait below sees SIGINT and SIGTERM. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);

    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_ALLOW_SUSPEND_RESUME,
        (uint16_t)port, NULL, NULL, answer, NULL,
        MHD_OPTION_EXTERNAL_LOGGER, quiet_logger, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)threads,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
        /* QuickCart's connection memory (Server.Configuration.connectionMemoryLimit): libmicrohttpd
           zeroes all of it after every request, so the ceiling pays what QuickCart pays. */
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(24 * 1024),
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)1024,
        MHD_OPTION_END);
    if (daemon == NULL) fail("cannot start the daemon (address in use?)");
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);

    printf("ceiling serving http://%s:%u/ (%zu bytes, %ld threads)\n", host, info ? info->port : 0, size, threads);
    fflush(stdout);

    int received;
    sigwait(&stop_signals, &received);
    MHD_stop_daemon(daemon);
    MHD_destroy_response(full_response);
    MHD_destroy_response(not_modified_response);
    free(body);
    return 0;
}
