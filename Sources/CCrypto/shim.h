#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

#include <stddef.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

/// An HMAC-SHA-256 context holding `key`, made once per key: OpenSSL's one-shot `HMAC()` fetches
/// the algorithm and sets the key up again on every call, which costs about 20,000 instructions;
/// the copies of a keyed context (`ccrypto_hmac_sha256_dup`) start from its key again for a
/// fraction of that. NULL when libcrypto cannot make one.
static inline EVP_MAC_CTX *ccrypto_hmac_sha256_new(const unsigned char *key, size_t key_length) {
    static const unsigned char no_key = 0;
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac); /* the context keeps its own reference */
    if (context == NULL) return NULL;
    OSSL_PARAM parameters[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0),
        OSSL_PARAM_construct_end(),
    };
    /* A NULL key means "keep the key set before"; an empty key is a key too. */
    if (EVP_MAC_init(context, key_length == 0 ? &no_key : key, key_length, parameters) != 1) {
        EVP_MAC_CTX_free(context);
        return NULL;
    }
    return context;
}

/// A context of its own for one thread at a time, holding `keyed`'s key: reused for code after
/// code (`ccrypto_hmac_sha256`), it saves the copy and the free of a context per code. NULL when
/// libcrypto cannot make one.
static inline EVP_MAC_CTX *ccrypto_hmac_sha256_dup(const EVP_MAC_CTX *keyed) {
    return EVP_MAC_CTX_dup(keyed);
}

/// HMAC-SHA-256 of `message` into `out` (32 bytes) with `context` (from `ccrypto_hmac_sha256_dup`,
/// used by one thread at a time); 1 on success. Starting again with no key keeps the context's
/// key and drops whatever an earlier code left in it.
static inline int ccrypto_hmac_sha256(EVP_MAC_CTX *context, const unsigned char *message,
                                      size_t message_length, unsigned char *out) {
    size_t out_length = 0;
    return EVP_MAC_init(context, NULL, 0, NULL) == 1
        && EVP_MAC_update(context, message, message_length) == 1
        && EVP_MAC_final(context, out, &out_length, 32) == 1 && out_length == 32;
}

/// Frees a context of `ccrypto_hmac_sha256_new` or `ccrypto_hmac_sha256_dup`.
static inline void ccrypto_hmac_sha256_free(EVP_MAC_CTX *keyed) {
    EVP_MAC_CTX_free(keyed);
}

/// SHA-256 of `message` into `out` (32 bytes); 1 on success, 0 on failure.
static inline int ccrypto_sha256(const unsigned char *message, size_t length, unsigned char *out) {
    return SHA256(message, length, out) != NULL;
}

/// `length` bytes from OpenSSL's CSPRNG (seeded by the operating system); 1 on success.
static inline int ccrypto_random_bytes(unsigned char *buffer, size_t length) {
    if (length > 0x7fffffff) return 0;
    return RAND_bytes(buffer, (int)length) == 1;
}

/// 1 when the `length` bytes at `a` and `b` are equal, in a time that does not depend on where
/// they differ.
static inline int ccrypto_equal(const void *a, const void *b, size_t length) {
    return CRYPTO_memcmp(a, b, length) == 0;
}

#endif
