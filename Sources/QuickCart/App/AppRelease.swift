import FoundationEssentials

/// Which release of the shop this is, as the service worker knows it: a digest of everything a
/// page or the offline page is made of (every file of `Public/`, every template of `Views/`,
/// the shop's name). A new release gets a new worker, which keeps that release's files apart
/// from the last one's and takes over as ``InstallableApp`` describes.
enum AppRelease {
    /// 16 hexadecimal digits.
    static func digest(publicFiles: [(path: String, version: String)], viewsDirectory: String, shop: ShopIdentity) throws -> String {
        var material: [UInt8] = []
        func add(_ text: String) {
            material.append(contentsOf: text.utf8)
            material.append(0)
        }
        add(shop.name)
        add(shop.shortName)
        for file in publicFiles {
            add(file.path)
            add(file.version)
        }
        for template in try FileManager.default.subpathsOfDirectory(atPath: viewsDirectory).sorted() where template.hasSuffix(".mustache") {
            add(template)
            if let contents = FileManager.default.contents(atPath: viewsDirectory + "/" + template) {
                material.append(contentsOf: SHA256.hash([UInt8](contents)))
            }
        }
        return String(Hex.encode(SHA256.hash(material)).prefix(16))
    }
}
