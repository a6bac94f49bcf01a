#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

// libvips is opened at run time (dlopen), only by the commands that make thumbnails: linked
// into the executable, it and the hundred libraries it pulls in would load into every server
// too, costing start-up time and memory for code the server never runs. Its headers are not
// included either (they need GLib's, whose pkg-config flags carry -pthread, which SwiftPM
// refuses): the few functions used are declared here from libvips 8.14's headers, and
// VipsImage stays opaque.
typedef struct _VipsImage VipsImage;

/// A warning libvips gave, kept (under a lock: libvips may warn from its worker threads).
typedef struct CVipsWarning { pthread_mutex_t lock; char text[512]; } CVipsWarning;

/// libvips' functions, resolved once by cvips_open.
typedef struct CVipsLibrary {
    int (*init)(const char *argv0);
    void (*cache_set_max)(int max);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*block_untrusted_set)(int state);
    void (*operation_block_set)(const char *name, int state);
    int (*jpegload_buffer)(void *buf, size_t len, VipsImage **out, ...);
    int (*pngload_buffer)(void *buf, size_t len, VipsImage **out, ...);
    int (*webpload_buffer)(void *buf, size_t len, VipsImage **out, ...);
    unsigned (*log_set_handler)(const char *domain, int levels, void (*handler)(const char *, int, const char *, void *), void *data);
    int (*image_get_width)(const VipsImage *image);
    int (*image_get_height)(const VipsImage *image);
    char **(*image_get_fields)(VipsImage *image);
    int (*thumbnail_image)(VipsImage *in, VipsImage **out, int width, ...);
    int (*webpsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    int (*jpegsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    int (*pngsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    int (*black)(VipsImage **out, int width, int height, ...);
    int (*linear)(VipsImage *in, VipsImage **out, const double *a, const double *b, int n, ...);
    int (*cast)(VipsImage *in, VipsImage **out, int format, ...);
    void (*object_unref)(void *object);
    void (*free)(void *memory);
    void (*strfreev)(char **strings);
    /// The last warning libvips gave (see cvips_keep_warning).
    CVipsWarning warning;
} CVipsLibrary;

// Values of libvips' enums and macros used below (vips/resample.h, vips/image.h,
// vips/foreign.h) and of GLib's log levels (glib/gmessages.h).
#define CVIPS_SIZE_DOWN 2
#define CVIPS_MAX_COORD 10000000
#define CVIPS_FORMAT_UCHAR 0
#define CVIPS_FAIL_ON_ERROR 2
#define CVIPS_ACCESS_SEQUENTIAL 1
#define CVIPS_G_LOG_LEVEL_WARNING (1 << 4)

/// The formats an import reads; each has its own loader, and only that one is ever called.
typedef enum CVipsFormat { CVIPS_JPEG = 0, CVIPS_PNG = 1, CVIPS_WEBP = 2 } CVipsFormat;

// libvips' warnings (a damaged JPEG gives several) go through GLib's log, whose default
// handler prints raw "VIPS-WARNING" lines on standard error. They are caught here instead:
// the last one is kept, under a lock (libvips may warn from its worker threads), for the
// Swift side to word into its error when libvips' own error buffer says nothing.
static inline void cvips_keep_warning(const char *domain, int level, const char *message, void *data) {
    (void)domain; (void)level;
    CVipsWarning *warning = (CVipsWarning *)data;
    pthread_mutex_lock(&warning->lock);
    strncpy(warning->text, message ? message : "", sizeof(warning->text) - 1);
    warning->text[sizeof(warning->text) - 1] = 0;
    pthread_mutex_unlock(&warning->lock);
}

/// Opens libvips, resolves its functions (GLib's through it) and starts it as `program`
/// (the name in its messages). NULL when it cannot be loaded; then `*error` is dlerror's
/// message. Never closed: libvips cannot be unloaded.
static inline CVipsLibrary *cvips_open(const char *program, const char **error) {
    void *handle = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libvips.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { *error = dlerror(); return NULL; }
    CVipsLibrary *library = (CVipsLibrary *)calloc(1, sizeof(CVipsLibrary));
    if (!library) { *error = "out of memory"; return NULL; }
    void **slots[] = {
        (void **)&library->init, (void **)&library->cache_set_max, (void **)&library->error_buffer,
        (void **)&library->error_clear, (void **)&library->block_untrusted_set, (void **)&library->operation_block_set,
        (void **)&library->jpegload_buffer, (void **)&library->pngload_buffer, (void **)&library->webpload_buffer,
        (void **)&library->log_set_handler,
        (void **)&library->image_get_width, (void **)&library->image_get_height, (void **)&library->image_get_fields,
        (void **)&library->thumbnail_image, (void **)&library->webpsave_buffer, (void **)&library->jpegsave_buffer,
        (void **)&library->pngsave_buffer, (void **)&library->black, (void **)&library->linear, (void **)&library->cast,
        (void **)&library->object_unref, (void **)&library->free, (void **)&library->strfreev,
    };
    const char *names[] = {
        "vips_init", "vips_cache_set_max", "vips_error_buffer", "vips_error_clear", "vips_block_untrusted_set",
        "vips_operation_block_set", "vips_jpegload_buffer", "vips_pngload_buffer", "vips_webpload_buffer",
        "g_log_set_handler", "vips_image_get_width", "vips_image_get_height", "vips_image_get_fields",
        "vips_thumbnail_image", "vips_webpsave_buffer", "vips_jpegsave_buffer", "vips_pngsave_buffer", "vips_black",
        "vips_linear", "vips_cast", "g_object_unref", "g_free", "g_strfreev",
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        *slots[i] = dlsym(handle, names[i]);
        if (!*slots[i]) { *error = names[i]; free(library); return NULL; }
    }
    pthread_mutex_init(&library->warning.lock, NULL);
    library->log_set_handler("VIPS", CVIPS_G_LOG_LEVEL_WARNING, cvips_keep_warning, &library->warning);
    if (library->init(program) != 0) { *error = library->error_buffer(); free(library); return NULL; }
    // One image at a time: libvips' operation cache would only hold memory.
    library->cache_set_max(0);
    // Debian's libvips also reads PDF, SVG, HEIF, JPEG XL, OpenSlide and anything ImageMagick
    // does: those loaders (and every other) are blocked, the untrusted ones by libvips' own
    // list and the rest by name, so only the three buffer loaders an import calls can run.
    library->block_untrusted_set(1);
    library->operation_block_set("VipsForeignLoad", 1);
    library->operation_block_set("VipsForeignLoadJpegBuffer", 0);
    library->operation_block_set("VipsForeignLoadPngBuffer", 0);
    library->operation_block_set("VipsForeignLoadWebpBuffer", 0);
    return library;
}

// libvips' operations take their optional arguments as NULL-terminated varargs, which Swift
// cannot call: each use the Swift module needs is one fixed-argument function here.

/// Opens an image in memory with `format`'s own loader, never one libvips guesses: only the
/// header is read now, pixels are decoded when used, in one pass from the top, and a damaged
/// image fails instead of being decoded into grey. A JPEG is shrunk by `shrink` (1, 2, 4 or 8)
/// as it is decoded. 0 on success; release *out with cvips_unref. The buffer is only read.
static inline int cvips_load(const CVipsLibrary *vips, CVipsFormat format, void *buffer, size_t length, VipsImage **out, int shrink) {
    switch (format) {
    case CVIPS_JPEG:
        return vips->jpegload_buffer(buffer, length, out, "fail_on", CVIPS_FAIL_ON_ERROR,
            "access", CVIPS_ACCESS_SEQUENTIAL, "shrink", shrink, NULL);
    case CVIPS_PNG:
        return vips->pngload_buffer(buffer, length, out, "fail_on", CVIPS_FAIL_ON_ERROR,
            "access", CVIPS_ACCESS_SEQUENTIAL, NULL);
    case CVIPS_WEBP:
        return vips->webpload_buffer(buffer, length, out, "fail_on", CVIPS_FAIL_ON_ERROR,
            "access", CVIPS_ACCESS_SEQUENTIAL, NULL);
    }
    return -1;
}

/// A thumbnail that fits in `width` × `height` pixels, keeping the aspect ratio (never
/// upscaled), turned upright by its orientation tag, of a loaded image. 0 on success.
static inline int cvips_thumbnail(const CVipsLibrary *vips, VipsImage *image, VipsImage **out, int width, int height) {
    return vips->thumbnail_image(image, out, width,
        "height", height,
        "size", CVIPS_SIZE_DOWN,
        NULL);
}

/// Encodes as WebP, asking libvips to strip metadata. 0 on success; free *buffer with vips->free.
static inline int cvips_webpsave_stripped(const CVipsLibrary *vips, VipsImage *image, void **buffer, size_t *length, int quality) {
    return vips->webpsave_buffer(image, buffer, length, "Q", quality, "strip", 1, NULL);
}

/// Encodes as JPEG or PNG: for tools and tests that make images. 0 on success; free
/// *buffer with vips->free.
static inline int cvips_jpegsave(const CVipsLibrary *vips, VipsImage *image, void **buffer, size_t *length) {
    return vips->jpegsave_buffer(image, buffer, length, NULL);
}

static inline int cvips_pngsave(const CVipsLibrary *vips, VipsImage *image, void **buffer, size_t *length) {
    return vips->pngsave_buffer(image, buffer, length, NULL);
}

/// A `width` × `height` image of three 8-bit bands, every pixel (red, green, blue). 0 on success.
static inline int cvips_solid(const CVipsLibrary *vips, VipsImage **out, int width, int height, double red, double green, double blue) {
    VipsImage *black = NULL;
    if (vips->black(&black, width, height, "bands", 3, NULL)) return -1;
    double add[3] = { red, green, blue };
    double times[3] = { 1, 1, 1 };
    VipsImage *colored = NULL;
    int failed = vips->linear(black, &colored, times, add, 3, NULL);
    vips->object_unref(black);
    if (failed) return -1;
    failed = vips->cast(colored, out, CVIPS_FORMAT_UCHAR, NULL);
    vips->object_unref(colored);
    return failed;
}

static inline void cvips_unref(const CVipsLibrary *vips, VipsImage *image) {
    vips->object_unref(image);
}

// The plain calls, through the table (its entries are never NULL once cvips_open returned it).

static inline const char *cvips_error_buffer(const CVipsLibrary *vips) { return vips->error_buffer(); }
static inline void cvips_error_clear(const CVipsLibrary *vips) { vips->error_clear(); }
static inline int cvips_width(const CVipsLibrary *vips, const VipsImage *image) { return vips->image_get_width(image); }
static inline int cvips_height(const CVipsLibrary *vips, const VipsImage *image) { return vips->image_get_height(image); }
static inline char **cvips_fields(const CVipsLibrary *vips, VipsImage *image) { return vips->image_get_fields(image); }
static inline void cvips_free(const CVipsLibrary *vips, void *memory) { vips->free(memory); }
static inline void cvips_strfreev(const CVipsLibrary *vips, char **strings) { vips->strfreev(strings); }

/// Copies the last warning caught (empty when none) into `buffer` and forgets it.
static inline void cvips_take_warning(CVipsLibrary *vips, char *buffer, size_t capacity) {
    pthread_mutex_lock(&vips->warning.lock);
    strncpy(buffer, vips->warning.text, capacity - 1);
    buffer[capacity - 1] = 0;
    vips->warning.text[0] = 0;
    pthread_mutex_unlock(&vips->warning.lock);
}

#endif
