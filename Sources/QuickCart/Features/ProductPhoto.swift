import Mustache

/// A product's photo as cards and cart rows draw it: the thumbnails the import made, in a
/// `srcset`, drawn in a square of ``drawnWidth`` CSS pixels (cropped to fill it), with the
/// product's name as its text. Made once per catalog, with the card.
final class ProductPhoto: Sendable {
    /// CSS pixels a photo is drawn at: the 160 px thumbnail serves screens up to 2.5×, the
    /// 320 px one denser screens and zoom.
    static let drawnWidth = 64
    /// The first cards or rows of a page are on screen at once and load their photos
    /// straight away; the rest wait until they are scrolled near (`loading="lazy"`).
    static let eagerCount = 4

    /// The smallest thumbnail, for browsers without `srcset`.
    let src: MustacheText
    /// Every thumbnail with its width, e.g. `/media/…-160.webp 160w, /media/…-320.webp 320w`.
    let srcset: MustacheText
    let alt: MustacheText
    /// The smallest thumbnail's size: its aspect ratio, known before it loads.
    let width: Int
    let height: Int

    init(_ image: ProductImage, name: String) {
        let widths = ProductImage.widths
        src = MustacheText(MediaFiles.path(of: image, width: widths[0]))
        // A small original's thumbnails are the same size: one candidate per width, the first
        // file of each (two with one descriptor make the whole `srcset` invalid).
        var candidates: [(width: Int, path: String)] = []
        for width in widths {
            let drawn = image.thumbnailSize(width: width).width
            if !candidates.contains(where: { $0.width == drawn }) { candidates.append((drawn, MediaFiles.path(of: image, width: width))) }
        }
        srcset = MustacheText(candidates.map { "\($0.path) \($0.width)w" }.joined(separator: ", "))
        alt = MustacheText(name)
        (width, height) = image.thumbnailSize(width: widths[0])
    }
}

/// A photo on a page (inside `partials/product` and the cart's rows).
struct ProductPhotoView: MustacheView {
    let photo: ProductPhoto
    /// Whether it waits until scrolled near: true below the first ``ProductPhoto/eagerCount``.
    let isLazy: Bool

    /// The photo of the card or row at `position` on its page (0 first), if it has one.
    init?(_ photo: ProductPhoto?, position: Int) {
        guard let photo else { return nil }
        self.photo = photo
        isLazy = position >= ProductPhoto.eagerCount
    }

    static let mustacheFields: MustacheFields<ProductPhotoView> = [
        "src": .text(\.photo.src),
        "srcset": .text(\.photo.srcset),
        "sizes": .int { _ in ProductPhoto.drawnWidth },
        "width": .int(\.photo.width),
        "height": .int(\.photo.height),
        "alt": .text(\.photo.alt),
        "lazy": .bool(\.isLazy),
    ]
}
