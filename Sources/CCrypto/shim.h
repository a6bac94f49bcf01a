#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

#include <stddef.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

/// HMAC-SHA-256 of `message` under `key` into `out` (32 bytes); 1 on success, 0 on failure.
/// Keeps `EVP_MD` (a C type) and the int-sized key length on this side of the boundary.
static inline int ccrypto_hmac_sha256(const unsigned char *key, size_t key_length,
                                      const unsigned char *message, size_t message_length,
                                      unsigned char *out) {
    unsigned int out_length = 0;
    if (key_length > 0x7fffffff) return 0;
    return HMAC(EVP_sha256(), key, (int)key_length, message, message_length, out, &out_length) != NULL
        && out_length == 32;
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
