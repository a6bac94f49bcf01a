/// Something the shop sells.
public struct Product: Hashable, Sendable, Identifiable {
    /// The catalog's id, stable across restarts and imports (it is the database's primary key).
    public var id: Int64
    /// A URL-safe name, e.g. `trail-running-shoes`; imports match products by it.
    public var slug: String
    public var name: String
    /// One line that says what it is.
    public var summary: String
    public var category: String
    public var price: Money
    /// The file name (without `.svg`) of its line icon in `Public/icons/`, shown when it has no photo.
    public var icon: String
    /// Whether Home shows it under "Featured".
    public var isFeatured: Bool
    /// Whether it is for sale. An import leaves out a product by making it inactive, never by
    /// deleting it: carts and past orders keep pointing at it.
    public var isActive: Bool
    /// Its photo, when it has one.
    public var image: ProductImage?

    /// Creates a product.
    public init(
        id: Int64, slug: String, name: String, summary: String, category: String, price: Money, icon: String, isFeatured: Bool,
        isActive: Bool = true, image: ProductImage? = nil
    ) {
        self.id = id
        self.slug = slug
        self.name = name
        self.summary = summary
        self.category = category
        self.price = price
        self.icon = icon
        self.isFeatured = isFeatured
        self.isActive = isActive
        self.image = image
    }
}

/// A product's photo: the operator's file in the media folder and the thumbnails made from it
/// at import, named by the hash of the original's bytes.
public struct ProductImage: Hashable, Sendable {
    /// The widths, in pixels, of the thumbnails made at import (1× and 2× of a card or cart row).
    public static let widths = [160, 320]
    /// A thumbnail is at most this many times as tall as it is wide: pages draw photos in a
    /// square, and a very tall original would otherwise send thousands of pixels no one sees
    /// (a 150 × 12,000 banner gets 8 × 640 and 16 × 1,280, not two of 150 × 12,000).
    public static let maximumAspect = 4

    /// The original's file name in the media folder, as the catalog file names it.
    public var fileName: String
    /// The lower-case hex SHA-256 of the original's bytes: the thumbnails' names begin with it.
    public var key: String
    /// The size in pixels of the widest thumbnail, upright (at most the original's size): the
    /// other thumbnails' sizes follow from it.
    public var width: Int
    public var height: Int

    public init(fileName: String, key: String, width: Int, height: Int) {
        self.fileName = fileName
        self.key = key
        self.width = width
        self.height = height
    }

    /// The file name of the thumbnail `width` pixels wide, e.g. `3f…a9-320.webp`.
    public func thumbnailName(width: Int) -> String {
        "\(key)-\(width).webp"
    }

    /// The size of the thumbnail made for `width`: the widest one's, fitted into `width` ×
    /// ``maximumAspect`` `width` (never larger than the widest one).
    public func thumbnailSize(width: Int) -> (width: Int, height: Int) {
        let fullWidth = max(1, self.width), fullHeight = max(1, height)
        let maximumHeight = width * Self.maximumAspect
        // Scaled by the side that meets its bound first, in whole-number arithmetic.
        if fullHeight * width > maximumHeight * fullWidth {
            let scaledHeight = min(maximumHeight, fullHeight)
            return (max(1, (fullWidth * scaledHeight + fullHeight / 2) / fullHeight), scaledHeight)
        }
        let scaledWidth = min(width, fullWidth)
        return (scaledWidth, max(1, (fullHeight * scaledWidth + fullWidth / 2) / fullWidth))
    }
}
