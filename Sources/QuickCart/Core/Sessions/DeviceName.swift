/// A coarse name for the device a client is, from its User-Agent: the browser's family and the
/// system, nothing finer ("Chromium on Linux", "Safari on iPhone"), so Profile's devices list
/// tells devices apart without the shop keeping a fingerprint.
enum DeviceName {
    /// The most bytes of a User-Agent read: real ones are a few hundred.
    private static let readLimit = 512

    /// "BROWSER on SYSTEM", or "A browser" / "… on an unknown system" for what it cannot tell.
    static func of(userAgent: String?) -> String {
        guard let userAgent, !userAgent.isEmpty else { return "Unknown browser" }
        let text = String(decoding: userAgent.utf8.prefix(readLimit), as: UTF8.self)
        let browser = first(in: text, of: browsers) ?? "A browser"
        guard let system = first(in: text, of: systems) else { return browser + " on an unknown system" }
        return browser + " on " + system
    }

    /// The name of the first marker `text` contains, in the list's order (the more specific first).
    private static func first(in text: String, of markers: [(marker: String, name: String)]) -> String? {
        markers.first { text.contains($0.marker) }?.name
    }

    // Chromium's family all say "Chrome/" and "Safari/", and Safari says "Safari/": the
    // distinguishing markers come first. Headless Chromium (the tests') says "HeadlessChrome/".
    private static let browsers: [(marker: String, name: String)] = [
        ("Edg/", "Edge"), ("EdgA/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser/", "Samsung Internet"),
        ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"), ("HeadlessChrome/", "Chromium"), ("Chromium/", "Chromium"),
        ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"), ("curl/", "curl"),
    ]

    private static let systems: [(marker: String, name: String)] = [
        ("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("CrOS", "ChromeOS"), ("Windows", "Windows"),
        ("Mac OS X", "macOS"), ("Macintosh", "macOS"), ("Linux", "Linux"), ("X11", "Linux"),
    ]
}
