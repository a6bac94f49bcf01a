/// Takes a catalog an import stored (on any instance sharing storage) and tells this instance's
/// open pages: the periodic check does it, and so does a request that found the stored catalog
/// ahead of the one in memory (Place order refused for a price the pages do not show yet).
struct CatalogUpdates: Sendable {
    let storage: any ShopStorage
    let hub: BadgeHub

    /// Takes the stored catalog when its version moved, announcing it once per version.
    /// - Returns: Whether a new catalog was taken.
    @discardableResult
    func takeNewCatalog() throws -> Bool {
        guard try storage.liveCatalog.refresh(from: storage.catalogStore) else { return false }
        let version = storage.liveCatalog.current.version
        Log.info("catalog version \(version) loaded")
        // Every instance polls, so each tells its own open pages, once per version.
        hub.announceCatalog(version: version)
        // A product no longer for sale leaves the count of every cart holding it: streams of
        // the counts alone (an app's, a load tool's) hear the new one too.
        for (liveKey, change) in try storage.carts.currentChanges(forLiveKeys: hub.liveKeysWithOpenStreams) {
            hub.recount(change, liveKey: liveKey)
        }
        return true
    }
}
