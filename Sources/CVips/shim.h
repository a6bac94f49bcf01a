#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

#include <stddef.h>

// libvips' own headers pull in GLib's, whose include folders only pkg-config knows, and
// pkg-config's flags for them carry -pthread, which SwiftPM refuses (with a warning). So this
// header declares, from libvips 8.14's headers, just the functions QuickCart calls; the
// libraries are linked by the module map. VipsImage stays opaque.
typedef struct _VipsImage VipsImage;

int vips_init(const char *argv0);
void vips_cache_set_max(int max);
const char *vips_error_buffer(void);
void vips_error_clear(void);
const char *vips_foreign_find_load_buffer(const void *data, size_t size);
VipsImage *vips_image_new_from_buffer(const void *buf, size_t len, const char *option_string, ...);
int vips_image_get_width(const VipsImage *image);
int vips_image_get_height(const VipsImage *image);
char **vips_image_get_fields(VipsImage *image);
int vips_thumbnail_buffer(void *buf, size_t len, VipsImage **out, int width, ...);
int vips_webpsave_buffer(VipsImage *in, void **buf, size_t *len, ...);
int vips_jpegsave_buffer(VipsImage *in, void **buf, size_t *len, ...);
int vips_pngsave_buffer(VipsImage *in, void **buf, size_t *len, ...);
int vips_black(VipsImage **out, int width, int height, ...);
int vips_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int n, ...);
int vips_cast(VipsImage *in, VipsImage **out, int format, ...);
void g_object_unref(void *object);
void g_free(void *memory);
void g_strfreev(char **strings);

// Values of libvips' enums and macros used below (vips/resample.h, vips/image.h).
#define CVIPS_SIZE_DOWN 2
#define CVIPS_MAX_COORD 10000000
#define CVIPS_FORMAT_UCHAR 0

// libvips' operations take their optional arguments as NULL-terminated varargs, which Swift
// cannot call: each use QuickCart needs is one fixed-argument function here.

/// Reads only the header of an image in memory (pixels are decoded lazily, never here).
/// NULL on failure; release the result with cvips_unref.
static inline VipsImage *cvips_header_from_buffer(const void *buffer, size_t length) {
    return vips_image_new_from_buffer(buffer, length, "", NULL);
}

/// A thumbnail `width` pixels wide (never upscaled; the height follows the aspect ratio),
/// turned upright by its orientation tag, from an image in memory; a damaged image fails
/// instead of being decoded into grey. 0 on success.
static inline int cvips_thumbnail_buffer(void *buffer, size_t length, VipsImage **out, int width) {
    return vips_thumbnail_buffer(buffer, length, out, width,
        "height", CVIPS_MAX_COORD,
        "size", CVIPS_SIZE_DOWN,
        "option_string", "fail_on=error",
        NULL);
}

/// Encodes as WebP with all metadata (EXIF, XMP, ICC, comments) stripped. 0 on success;
/// free *buffer with g_free.
static inline int cvips_webpsave_stripped(VipsImage *image, void **buffer, size_t *length, int quality) {
    return vips_webpsave_buffer(image, buffer, length, "Q", quality, "strip", 1, NULL);
}

/// Encodes as JPEG or PNG: for tools and tests that make images. 0 on success; free
/// *buffer with g_free.
static inline int cvips_jpegsave(VipsImage *image, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(image, buffer, length, NULL);
}

static inline int cvips_pngsave(VipsImage *image, void **buffer, size_t *length) {
    return vips_pngsave_buffer(image, buffer, length, NULL);
}

/// A `width` × `height` image of three 8-bit bands, every pixel (red, green, blue). 0 on success.
static inline int cvips_solid(VipsImage **out, int width, int height, double red, double green, double blue) {
    VipsImage *black = NULL;
    if (vips_black(&black, width, height, "bands", 3, NULL)) return -1;
    double add[3] = { red, green, blue };
    double times[3] = { 1, 1, 1 };
    VipsImage *colored = NULL;
    int failed = vips_linear(black, &colored, times, add, 3, NULL);
    g_object_unref(black);
    if (failed) return -1;
    failed = vips_cast(colored, out, CVIPS_FORMAT_UCHAR, NULL);
    g_object_unref(colored);
    return failed;
}

static inline void cvips_unref(VipsImage *image) {
    g_object_unref(image);
}

#endif
