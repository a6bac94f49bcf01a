#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

// libvips is opened at run time (dlopen), only by the commands that make thumbnails: linked
// into the executable, it and the hundred libraries it pulls in would load into every server
// too, costing start-up time and memory for code the server never runs. Its headers are not
// included either (they need GLib's, whose pkg-config flags carry -pthread, which SwiftPM
// refuses): the few functions used are declared here from libvips 8.14's headers, and
// VipsImage stays opaque.
typedef struct _VipsImage VipsImage;

/// libvips' functions, resolved once by cvips_open.
typedef struct CVipsLibrary {
    int (*init)(const char *argv0);
    void (*cache_set_max)(int max);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    const char *(*foreign_find_load_buffer)(const void *data, size_t size);
    VipsImage *(*image_new_from_buffer)(const void *buf, size_t len, const char *option_string, ...);
    int (*image_get_width)(const VipsImage *image);
    int (*image_get_height)(const VipsImage *image);
    char **(*image_get_fields)(VipsImage *image);
    int (*thumbnail_buffer)(void *buf, size_t len, VipsImage **out, int width, ...);
    int (*webpsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    int (*jpegsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    int (*pngsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    int (*black)(VipsImage **out, int width, int height, ...);
    int (*linear)(VipsImage *in, VipsImage **out, const double *a, const double *b, int n, ...);
    int (*cast)(VipsImage *in, VipsImage **out, int format, ...);
    void (*object_unref)(void *object);
    void (*free)(void *memory);
    void (*strfreev)(char **strings);
} CVipsLibrary;

// Values of libvips' enums and macros used below (vips/resample.h, vips/image.h).
#define CVIPS_SIZE_DOWN 2
#define CVIPS_MAX_COORD 10000000
#define CVIPS_FORMAT_UCHAR 0

/// Opens libvips and resolves its functions (GLib's through it). NULL when it cannot be
/// loaded; then `*error` is dlerror's message. Never closed: libvips cannot be unloaded.
static inline CVipsLibrary *cvips_open(const char **error) {
    void *handle = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libvips.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { *error = dlerror(); return NULL; }
    CVipsLibrary *library = (CVipsLibrary *)calloc(1, sizeof(CVipsLibrary));
    if (!library) { *error = "out of memory"; return NULL; }
    void **slots[] = {
        (void **)&library->init, (void **)&library->cache_set_max, (void **)&library->error_buffer,
        (void **)&library->error_clear, (void **)&library->foreign_find_load_buffer, (void **)&library->image_new_from_buffer,
        (void **)&library->image_get_width, (void **)&library->image_get_height, (void **)&library->image_get_fields,
        (void **)&library->thumbnail_buffer, (void **)&library->webpsave_buffer, (void **)&library->jpegsave_buffer,
        (void **)&library->pngsave_buffer, (void **)&library->black, (void **)&library->linear, (void **)&library->cast,
        (void **)&library->object_unref, (void **)&library->free, (void **)&library->strfreev,
    };
    const char *names[] = {
        "vips_init", "vips_cache_set_max", "vips_error_buffer", "vips_error_clear", "vips_foreign_find_load_buffer",
        "vips_image_new_from_buffer", "vips_image_get_width", "vips_image_get_height", "vips_image_get_fields",
        "vips_thumbnail_buffer", "vips_webpsave_buffer", "vips_jpegsave_buffer", "vips_pngsave_buffer", "vips_black",
        "vips_linear", "vips_cast", "g_object_unref", "g_free", "g_strfreev",
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        *slots[i] = dlsym(handle, names[i]);
        if (!*slots[i]) { *error = names[i]; free(library); return NULL; }
    }
    if (library->init("quickcart") != 0) { *error = library->error_buffer(); free(library); return NULL; }
    // One image at a time: libvips' operation cache would only hold memory.
    library->cache_set_max(0);
    return library;
}

// libvips' operations take their optional arguments as NULL-terminated varargs, which Swift
// cannot call: each use QuickCart needs is one fixed-argument function here.

/// Reads only the header of an image in memory (pixels are decoded lazily, never here).
/// NULL on failure; release the result with cvips_unref.
static inline VipsImage *cvips_header_from_buffer(const CVipsLibrary *vips, const void *buffer, size_t length) {
    return vips->image_new_from_buffer(buffer, length, "", NULL);
}

/// A thumbnail `width` pixels wide (never upscaled; the height follows the aspect ratio),
/// turned upright by its orientation tag, from an image in memory; a damaged image fails
/// instead of being decoded into grey. 0 on success.
static inline int cvips_thumbnail_buffer(const CVipsLibrary *vips, void *buffer, size_t length, VipsImage **out, int width) {
    return vips->thumbnail_buffer(buffer, length, out, width,
        "height", CVIPS_MAX_COORD,
        "size", CVIPS_SIZE_DOWN,
        "option_string", "fail_on=error",
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
static inline const char *cvips_find_loader(const CVipsLibrary *vips, const void *data, size_t size) {
    return vips->foreign_find_load_buffer(data, size);
}
static inline int cvips_width(const CVipsLibrary *vips, const VipsImage *image) { return vips->image_get_width(image); }
static inline int cvips_height(const CVipsLibrary *vips, const VipsImage *image) { return vips->image_get_height(image); }
static inline char **cvips_fields(const CVipsLibrary *vips, VipsImage *image) { return vips->image_get_fields(image); }
static inline void cvips_free(const CVipsLibrary *vips, void *memory) { vips->free(memory); }
static inline void cvips_strfreev(const CVipsLibrary *vips, char **strings) { vips->strfreev(strings); }

#endif
