extension CatalogFile {
    /// The products as a catalog file that imports back unchanged (inactive ones included,
    /// marked `active` false). In CSV a cell a spreadsheet would run as a formula is written
    /// as text (``CSV/field(_:)``), which the import reads back as it was.
    static func text(of products: [Product], format: Format) -> String {
        switch format {
        case .csv:
            return TableFile.csvText(fields: fields, rows: products.map { product in
                [
                    product.slug, product.name, product.summary, product.category, priceText(product.price),
                    product.image?.fileName ?? "", product.icon, String(product.isFeatured), String(product.isActive),
                ]
            })
        case .json:
            return TableFile.jsonText(products.map { product in
                [
                    ("slug", JSONText.quoted(product.slug)), ("name", JSONText.quoted(product.name)),
                    ("summary", JSONText.quoted(product.summary)), ("category", JSONText.quoted(product.category)),
                    ("price", JSONText.quoted(priceText(product.price))),
                    ("image", product.image.map { JSONText.quoted($0.fileName) } ?? "null"),
                    ("icon", JSONText.quoted(product.icon)), ("featured", String(product.isFeatured)), ("active", String(product.isActive)),
                ]
            })
        }
    }
}
