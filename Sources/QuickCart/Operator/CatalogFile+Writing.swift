extension CatalogFile {
    /// The products as a catalog file that imports back unchanged (inactive ones included,
    /// marked `active` false). In CSV a cell a spreadsheet would run as a formula is written
    /// as text (``CSV/field(_:)``), which the import reads back as it was.
    static func text(of products: [Product], format: Format) -> String {
        switch format {
        case .csv:
            var lines = [fields.joined(separator: ",")]
            for product in products {
                let values = [
                    product.slug, product.name, product.summary, product.category, priceText(product.price),
                    product.image?.fileName ?? "", product.icon, String(product.isFeatured), String(product.isActive),
                ]
                lines.append(values.map(CSV.field).joined(separator: ","))
            }
            return lines.joined(separator: "\n") + "\n"
        case .json:
            let objects = products.map { product in
                let members = [
                    ("slug", JSONText.quoted(product.slug)), ("name", JSONText.quoted(product.name)),
                    ("summary", JSONText.quoted(product.summary)), ("category", JSONText.quoted(product.category)),
                    ("price", JSONText.quoted(priceText(product.price))),
                    ("image", product.image.map { JSONText.quoted($0.fileName) } ?? "null"),
                    ("icon", JSONText.quoted(product.icon)), ("featured", String(product.isFeatured)), ("active", String(product.isActive)),
                ]
                return "  {" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
            }
            return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
        }
    }
}
