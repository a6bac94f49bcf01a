#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <stddef.h>
#include <string.h>
#include <zlib.h>

/// The most bytes `czlib_gzip` can write for `count` input bytes.
static inline size_t czlib_gzip_bound(size_t count) {
    /* deflateBound for the zlib wrapper, plus the gzip header and trailer's extra 12 bytes. */
    return (size_t)compressBound((uLong)count) + 18;
}

/// Compresses `count` bytes at `input` into a gzip member at `output` (room for
/// `czlib_gzip_bound(count)` bytes) at `level` (1 fastest … 9 smallest). Returns the bytes
/// written, or 0 on failure. deflateInit2 is a macro, which Swift cannot call.
static inline size_t czlib_gzip(const void *input, size_t count, void *output, size_t capacity, int level) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    /* 15 window bits + 16: a gzip header and trailer instead of zlib's. */
    if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)count;
    stream.next_out = (Bytef *)output;
    stream.avail_out = (uInt)capacity;
    int result = deflate(&stream, Z_FINISH);
    size_t written = capacity - stream.avail_out;
    deflateEnd(&stream);
    return result == Z_STREAM_END ? written : 0;
}

#endif
