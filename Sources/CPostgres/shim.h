#ifndef CPOSTGRES_SHIM_H
#define CPOSTGRES_SHIM_H

#include <libpq-fe.h>

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
