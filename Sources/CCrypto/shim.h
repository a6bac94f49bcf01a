#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

#include <stddef.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

/// An HMAC-SHA-256 key made ready once (RFC 2104): SHA-256 states that have absorbed the key's
/// inner and outer pad blocks. A code then copies two plain structs and hashes only the message
/// and the inner digest. EVP_MAC, the API OpenSSL 3 prefers, duplicates and frees three digest
/// contexts per code (allocations each), a third of a code's cost; the SHA256_* functions
/// it deprecates for that reason are still libcrypto's own SHA-256, so their warnings are muted
/// here and only here.
typedef struct {
    SHA256_CTX inner;
    SHA256_CTX outer;
} ccrypto_hmac_sha256_key;

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

/// The prepared key for `key`, or NULL when out of memory. Free it with `ccrypto_hmac_sha256_free`.
static inline ccrypto_hmac_sha256_key *ccrypto_hmac_sha256_new(const unsigned char *key, size_t key_length) {
    ccrypto_hmac_sha256_key *keyed = OPENSSL_zalloc(sizeof *keyed);
    if (keyed == NULL) return NULL;
    unsigned char block[SHA256_CBLOCK] = {0};
    /* A key longer than a block is its digest (RFC 2104, section 2). */
    if (key_length > SHA256_CBLOCK) {
        SHA256(key, key_length, block);
    } else if (key_length > 0) {
        memcpy(block, key, key_length);
    }
    unsigned char pad[SHA256_CBLOCK];
    for (size_t index = 0; index < SHA256_CBLOCK; index++) pad[index] = block[index] ^ 0x36;
    int succeeded = SHA256_Init(&keyed->inner) == 1 && SHA256_Update(&keyed->inner, pad, SHA256_CBLOCK) == 1;
    for (size_t index = 0; index < SHA256_CBLOCK; index++) pad[index] = block[index] ^ 0x5c;
    succeeded = succeeded && SHA256_Init(&keyed->outer) == 1 && SHA256_Update(&keyed->outer, pad, SHA256_CBLOCK) == 1;
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(pad, sizeof pad);
    if (!succeeded) {
        OPENSSL_clear_free(keyed, sizeof *keyed);
        return NULL;
    }
    return keyed;
}

/// HMAC-SHA-256 of `message` under `keyed`, into `out` (32 bytes); 1 on success. `keyed` is
/// only read (copied), so threads may share it.
static inline int ccrypto_hmac_sha256(const ccrypto_hmac_sha256_key *keyed, const unsigned char *message,
                                      size_t message_length, unsigned char *out) {
    SHA256_CTX context = keyed->inner;
    unsigned char digest[SHA256_DIGEST_LENGTH];
    int succeeded = SHA256_Update(&context, message, message_length) == 1 && SHA256_Final(digest, &context) == 1;
    context = keyed->outer;
    succeeded = succeeded && SHA256_Update(&context, digest, sizeof digest) == 1 && SHA256_Final(out, &context) == 1;
    OPENSSL_cleanse(&context, sizeof context);
    OPENSSL_cleanse(digest, sizeof digest);
    return succeeded;
}

#pragma clang diagnostic pop

/// Frees a key of `ccrypto_hmac_sha256_new`, zeroing it first.
static inline void ccrypto_hmac_sha256_free(ccrypto_hmac_sha256_key *keyed) {
    OPENSSL_clear_free(keyed, sizeof *keyed);
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
