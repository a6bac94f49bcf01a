// Teaches ThreadSanitizer the happens-before edges of Swift's `Synchronization.Mutex` on Linux.
//
// Mutex's fast paths are user-space compare-exchanges inlined into our code, which TSan sees
// (acquire on lock, release on unlock). Its slow paths, taken whenever the lock is contended,
// live in the uninstrumented libswiftSynchronization.so: a relaxed spin and then PI futex
// syscalls (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI), where the kernel hands the lock over. TSan sees
// no release and no acquire there, so every access guarded by a contended Mutex (and every
// access ordered through one, such as a pooled connection handed from thread to thread) is
// reported as a race.
//
// Preloaded into the TSan test process (LD_PRELOAD), this library defines the three slow-path
// entry points itself, so the test binary's calls bind here first; each forwards to the real
// function (dlsym RTLD_NEXT) and tells TSan what the kernel did: acquire after a slow lock,
// release before a slow unlock, on the lock word's address, the same address whose atomics the
// fast paths use. Nothing is suppressed: races on data not ordered by a Mutex are still
// reported. In a process without TSan the annotations are weak and absent, and the wrappers
// only forward.
//
// ABI (checked against Swift 6.3.1's libswiftSynchronization.so on x86_64, where _unlockSlow
// passes r13 straight to futex(2)): the methods are `borrowing` on the @frozen, address-only
// `_MutexHandle`, whose only stored property is the `Atomic<UInt32>` lock word, so `self` is the
// lock word's address, passed as Swift's self (clang's swift_context), after the other arguments.
// Should a later toolchain rename these entry points, the constructor below says so, and the
// false reports come back: `make test-tsan` fails loudly rather than passing blind.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SWIFTCALL __attribute__((swiftcall))
#define SWIFT_SELF __attribute__((swift_context))

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

void __tsan_acquire(void *address) __attribute__((weak));
void __tsan_release(void *address) __attribute__((weak));

typedef SWIFTCALL void (*LockSlow)(uint32_t, void *SWIFT_SELF);
typedef SWIFTCALL bool (*TryLockSlow)(void *SWIFT_SELF);
typedef SWIFTCALL void (*UnlockSlow)(void *SWIFT_SELF);

static void *real(const char *name) {
    void *function = dlsym(RTLD_NEXT, name);
    if (function == NULL) {
        fprintf(stderr, "tsan-mutex-annotations: %s not found: %s\n", name, dlerror());
        abort();
    }
    return function;
}

SWIFTCALL void lockSlow(uint32_t selfID, void *SWIFT_SELF handle) __asm__(LOCK_SLOW);
SWIFTCALL void lockSlow(uint32_t selfID, void *SWIFT_SELF handle) {
    static LockSlow function;
    LockSlow forward = __atomic_load_n(&function, __ATOMIC_RELAXED);
    if (forward == NULL) {
        forward = (LockSlow)real(LOCK_SLOW);
        __atomic_store_n(&function, forward, __ATOMIC_RELAXED);
    }
    forward(selfID, handle);
    if (__tsan_acquire) __tsan_acquire(handle);
}

SWIFTCALL bool tryLockSlow(void *SWIFT_SELF handle) __asm__(TRY_LOCK_SLOW);
SWIFTCALL bool tryLockSlow(void *SWIFT_SELF handle) {
    static TryLockSlow function;
    TryLockSlow forward = __atomic_load_n(&function, __ATOMIC_RELAXED);
    if (forward == NULL) {
        forward = (TryLockSlow)real(TRY_LOCK_SLOW);
        __atomic_store_n(&function, forward, __ATOMIC_RELAXED);
    }
    bool locked = forward(handle);
    if (locked && __tsan_acquire) __tsan_acquire(handle);
    return locked;
}

SWIFTCALL void unlockSlow(void *SWIFT_SELF handle) __asm__(UNLOCK_SLOW);
SWIFTCALL void unlockSlow(void *SWIFT_SELF handle) {
    static UnlockSlow function;
    UnlockSlow forward = __atomic_load_n(&function, __ATOMIC_RELAXED);
    if (forward == NULL) {
        forward = (UnlockSlow)real(UNLOCK_SLOW);
        __atomic_store_n(&function, forward, __ATOMIC_RELAXED);
    }
    if (__tsan_release) __tsan_release(handle);
    forward(handle);
}

/// In a TSan process that has Synchronization loaded, checks that the entry points exist.
__attribute__((constructor)) static void checkEntryPoints(void) {
    if (!__tsan_acquire) return;
    void *library = dlopen("libswiftSynchronization.so", RTLD_LAZY | RTLD_NOLOAD);
    if (library == NULL) return;
    const char *names[] = {LOCK_SLOW, TRY_LOCK_SLOW, UNLOCK_SLOW};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (dlsym(library, names[i]) == NULL) {
            fprintf(stderr, "tsan-mutex-annotations: %s is not in libswiftSynchronization.so; "
                            "Mutex-guarded accesses will be reported as races\n", names[i]);
        }
    }
    dlclose(library);
}
