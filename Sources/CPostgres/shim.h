#ifndef CPOSTGRES_SHIM_H
#define CPOSTGRES_SHIM_H

#include <fcntl.h>
#include <libpq-fe.h>

/// Glibc's pipe2 is declared only under _GNU_SOURCE, which Swift's Glibc module is not built
/// with; the declaration is repeated here (Linux has had it since 2.6.27).
int pipe2(int descriptors[2], int flags);

/// A pipe whose both ends are close-on-exec from the start: marked in a second call, a child
/// spawned by another thread in between would inherit them. 0 on success, else -1 and errno.
static inline int cpostgres_pipe_cloexec(int descriptors[2], int nonblocking) {
    return pipe2(descriptors, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
}

/// libpq's default notice processor prints every NOTICE and WARNING ("relation already
/// exists, skipping", ...) to stderr; the Swift layer reports what matters as errors instead.
static void cpostgres_ignore_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

static inline void cpostgres_silence_notices(PGconn *connection) {
    PQsetNoticeProcessor(connection, cpostgres_ignore_notice, NULL);
}

/// The PG_DIAG_* field codes are character-literal macros Swift does not import.
static inline const char *cpostgres_result_sqlstate(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_SQLSTATE);
}

static inline const char *cpostgres_result_primary_message(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
}

#endif
