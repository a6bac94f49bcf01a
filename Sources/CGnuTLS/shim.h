#ifndef CGNUTLS_SHIM_H
#define CGNUTLS_SHIM_H

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>

/// A certificate chain and its private key, as GnuTLS hands them to a handshake.
typedef struct cgnutls_identity {
    gnutls_pcert_st certificates[16];
    unsigned int count;
    gnutls_privkey_t key;
} cgnutls_identity;

static inline void cgnutls_identity_free(cgnutls_identity *identity) {
    for (unsigned int index = 0; index < identity->count; index++) gnutls_pcert_deinit(&identity->certificates[index]);
    if (identity->key != NULL) gnutls_privkey_deinit(identity->key);
    free(identity);
}

/// GNUTLS_E_CERTIFICATE_KEY_MISMATCH unless the key is the first certificate's.
static inline int cgnutls_key_matches(cgnutls_identity *identity) {
    gnutls_pubkey_t own;
    int result = gnutls_pubkey_init(&own);
    if (result < 0) return result;
    unsigned char keyID[64], certificateID[64];
    size_t keyLength = sizeof keyID, certificateLength = sizeof certificateID;
    result = gnutls_pubkey_import_privkey(own, identity->key, 0, 0);
    if (result >= 0) result = gnutls_pubkey_get_key_id(own, GNUTLS_KEYID_USE_SHA256, keyID, &keyLength);
    if (result >= 0) result = gnutls_pubkey_get_key_id(identity->certificates[0].pubkey, GNUTLS_KEYID_USE_SHA256, certificateID, &certificateLength);
    gnutls_pubkey_deinit(own);
    if (result < 0) return result;
    return keyLength == certificateLength && memcmp(keyID, certificateID, keyLength) == 0 ? 0 : GNUTLS_E_CERTIFICATE_KEY_MISMATCH;
}

/// Reads a PEM certificate chain (the server's first) and its PEM private key; 0 and the
/// identity in `out`, or a GnuTLS error code (see gnutls_strerror).
static inline int cgnutls_identity_load(const char *certificates, unsigned int certificatesLength,
                                        const char *key, unsigned int keyLength, cgnutls_identity **out) {
    cgnutls_identity *identity = calloc(1, sizeof *identity);
    if (identity == NULL) return GNUTLS_E_MEMORY_ERROR;
    gnutls_datum_t chain = { (unsigned char *)certificates, certificatesLength };
    unsigned int count = 16;
    int result = gnutls_pcert_list_import_x509_raw(identity->certificates, &count, &chain, GNUTLS_X509_FMT_PEM, 0);
    if (result < 0) { free(identity); return result; }
    identity->count = count;
    result = gnutls_privkey_init(&identity->key);
    if (result >= 0) {
        gnutls_datum_t keyData = { (unsigned char *)key, keyLength };
        result = gnutls_privkey_import_x509_raw(identity->key, &keyData, GNUTLS_X509_FMT_PEM, NULL, 0);
    }
    if (result >= 0) result = cgnutls_key_matches(identity);
    if (result < 0) { cgnutls_identity_free(identity); return result; }
    *out = identity;
    return 0;
}

/// Where the identity handshakes use is kept. Header functions are compiled into each Swift
/// file that calls them, each with its own copy of this slot: only MicroHTTP's
/// TLSIdentity.swift may call the functions below. An identity replaced here is never freed:
/// a handshake under way, or a session resumed later, may still point into it (a few KiB per
/// reload).
static inline _Atomic(cgnutls_identity *) *cgnutls_current_identity(void) {
    static _Atomic(cgnutls_identity *) current;
    return &current;
}

static inline void cgnutls_install(cgnutls_identity *identity) {
    atomic_store(cgnutls_current_identity(), identity);
}

/// GnuTLS's certificate callback (gnutls_certificate_retrieve_function2): the current identity.
static int cgnutls_retrieve(gnutls_session_t session, const gnutls_datum_t *requested, int requestedCount,
                            const gnutls_pk_algorithm_t *algorithms, int algorithmCount,
                            gnutls_pcert_st **certificates, unsigned int *count, gnutls_privkey_t *key) {
    (void)session; (void)requested; (void)requestedCount; (void)algorithms; (void)algorithmCount;
    cgnutls_identity *identity = atomic_load(cgnutls_current_identity());
    if (identity == NULL) return -1;
    *certificates = identity->certificates;
    *count = identity->count;
    *key = identity->key;
    return 0;
}

/// The callback, as the pointer libmicrohttpd's MHD_OPTION_HTTPS_CERT_CALLBACK takes.
static inline void *cgnutls_retrieve_callback(void) {
    return (void *)cgnutls_retrieve;
}

/// Whether GnuTLS accepts `priorities` as a priority string.
static inline int cgnutls_priorities_valid(const char *priorities) {
    gnutls_priority_t cache;
    int result = gnutls_priority_init(&cache, priorities, NULL);
    if (result >= 0) gnutls_priority_deinit(cache);
    return result;
}

#endif
