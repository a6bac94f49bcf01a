import QuickCart
import Testing

/// The running shop's catalog: which stored catalog it takes.
@Suite("Live catalog snapshots")
struct LiveCatalogSnapshotTests {
    private static func source(version: Int64, origin: CatalogOrigin?) -> LiveCatalog {
        LiveCatalog(StoredCatalog(products: [], version: version, origin: origin), makeStarterCart: { _, _ in Cart() })
    }

    @Test("replace takes a newer catalog, or the same version from another origin, never an older one")
    func replaceTakesOnlyNewer() {
        let source = Self.source(version: 5, origin: .own)
        #expect(!source.replace(with: StoredCatalog(products: [], version: 4, origin: .demo)), "an older catalog was taken")
        #expect(!source.replace(with: StoredCatalog(products: [], version: 4, origin: .own)), "an older catalog was taken")
        #expect(source.current.version == 5 && source.current.origin == .own)
        #expect(!source.replace(with: StoredCatalog(products: [], version: 5, origin: .own)), "the same catalog was taken again")
        #expect(source.replace(with: StoredCatalog(products: [], version: 5, origin: .demo)))
        #expect(source.current.origin == .demo)
        #expect(source.replace(with: StoredCatalog(products: [], version: 6, origin: .demo)))
        #expect(source.current.version == 6)
    }
}
