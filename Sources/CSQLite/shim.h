#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
/// Binding with it makes SQLite copy the bytes before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_config is variadic; Swift cannot call it. Turns off SQLite's memory statistics
/// for the whole process; SQLITE_MISUSE once SQLite is initialized, when it changes nothing.
static inline int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
