#ifndef CGNUTLS_SHIM_H
#define CGNUTLS_SHIM_H

#include <stdlib.h>
#include <string.h>
#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>

// Stateless helpers only. A static in a header function is a separate copy in every unit
// that inlines it, so the identity in force and the certificate callback that reads it live
// in MicroHTTP (TLSIdentity.swift), where each has one definition.

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

/// Whether GnuTLS accepts `priorities` as a priority string.
static inline int cgnutls_priorities_valid(const char *priorities) {
    gnutls_priority_t cache;
    int result = gnutls_priority_init(&cache, priorities, NULL);
    if (result >= 0) gnutls_priority_deinit(cache);
    return result;
}

#endif
