// Fuzz target: MicroHTTP's StaticFiles, resolving request paths to the files of one folder.
//
// Built by Fuzz/run together with Sources/MicroHTTP/*.swift and the other MicroHTTP targets into
// one executable (Fuzz/Support/MicroHTTPTargets.swift); uses only the public API. At start
// it lays out a fixture in a fresh temporary folder:
//
//     base/secret.txt, base/secret-dir/inner.txt, base/site-evil/x.txt   (secrets, outside)
//     base/site/   index.html, css/app.css, js/app.js, a file with spaces and one with accents,
//                  .hidden, dir.with.dots/file, and symbolic links: one to a file inside (served),
//                  and ones leading outside (relative, absolute, to a directory, to the sibling
//                  folder whose name starts like the served one), plus a loop.
//
// and serves base/site. The first input byte says whether an `If-None-Match` header is sent (its
// value then runs up to the first newline); the rest is the path, as `*path` would capture it.
// Checked: nothing outside the folder is ever served (no body holds a secret); a 200 serves
// exactly the file of that name in the folder; 304 only answers a matching `If-None-Match`;
// anything else is a 404.

import Foundation

private let secretMarker = "QUICKCART-FUZZ-SECRET"

private struct Fixture {
    let assets: StaticFiles
    /// Relative path → content, for every file that may be served.
    let servable: [String: [UInt8]]
    let secrets: [[UInt8]]
}

/// The fixture's folder: in $TMPDIR (Fuzz/run points it into its own work folder), removed at exit.
private let base = NSTemporaryDirectory() + "quickcart-fuzz-static-\(getpid())"

private let fixture: Fixture = {
    let manager = FileManager.default
    try? manager.removeItem(atPath: base)
    atexit { try? FileManager.default.removeItem(atPath: base) }
    let site = base + "/site"
    func write(_ path: String, _ text: String) {
        let url = URL(fileURLWithPath: base + "/" + path)
        try! manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: url)
    }
    let secrets = [
        "\(secretMarker) 1: outside the served folder\n",
        "\(secretMarker) 2: in a folder outside\n",
        "\(secretMarker) 3: in a sibling folder whose name starts like the served one\n",
    ]
    write("secret.txt", secrets[0])
    write("secret-dir/inner.txt", secrets[1])
    write("site-evil/x.txt", secrets[2])
    let servable: [String: String] = [
        "index.html": "<!doctype html><title>index</title>\n",
        "css/app.css": "body { color: #123; }\n",
        "js/app.js": "console.log('app');\n",
        "icons/cart.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>\n",
        "name with spaces.txt": "spaces\n",
        "caf\u{E9}.txt": "accents\n",
        ".hidden": "hidden\n",
        "dir.with.dots/file": "dots\n",
    ]
    for (path, text) in servable { write("site/" + path, text) }
    let links: [(String, String)] = [
        ("link-inside.css", "css/app.css"),
        ("link-outside.txt", "../secret.txt"),
        ("link-absolute.txt", base + "/secret.txt"),
        ("link-dir-outside", "../secret-dir"),
        ("link-sibling.txt", "../site-evil/x.txt"),
        ("css/link-up-and-out.txt", "../../secret.txt"),
        ("loop", "loop"),
    ]
    for (name, destination) in links {
        try! manager.createSymbolicLink(atPath: site + "/" + name, withDestinationPath: destination)
    }
    let assets = try! StaticFiles(directory: site)
    var expected = servable.mapValues { Array($0.utf8) }
    expected["link-inside.css"] = expected["css/app.css"]
    check(Set(assets.paths) == Set(expected.keys),
                 "StaticFiles serves \(assets.paths.sorted()), expected \(expected.keys.sorted())")
    return Fixture(assets: assets, servable: expected, secrets: secrets.map { Array($0.utf8) })
}()

public func fuzzStaticFiles(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    var text = String(decoding: UnsafeBufferPointer(start: start + 1, count: count - 1), as: UTF8.self)
    var headers = HTTPHeaders()
    if start[0] & 1 == 1 {
        let value = text.prefix { $0 != "\n" }
        headers.add("If-None-Match", String(value))
        text = String(text.dropFirst(value.count + 1))
    }
    let request = Request(method: start[0] & 2 == 0 ? .get : .head, path: "/static/" + text, headers: headers)
    let response: Response
    do {
        response = try fixture.assets.response(for: request, path: text)
    } catch let error as HTTPError {
        check(error.status == .notFound, "\(text): \(error.status)")
        check(fixture.servable[text] == nil, "\(text) is a file of the folder, yet 404")
        return 0
    } catch {
        fail("\(text): unexpected \(error)")
    }
    let body: [UInt8]
    switch response.body {
    case .bytes(let bytes): body = bytes
    case .shared(let shared): body = shared.bytes
    case .empty: body = []
    case .eventStream: fail("a stream")
    }
    for secret in fixture.secrets {
        check(body != secret, "SERVED A FILE FROM OUTSIDE THE FOLDER for \(text)")
    }
    check(!String(decoding: body, as: UTF8.self).contains(secretMarker), "secret content served for \(text)")
    guard let expected = fixture.servable[text] else {
        fail("\(text) is not a file of the folder, yet \(response.status)")
    }
    let etag = fixture.assets.etag(of: text)
    check(etag != nil && response.headers["ETag"] == etag, "\(text): ETag")
    switch response.status {
    case .ok:
        check(body == expected, "\(text): served other content")
        check(!names(etag!, in: headers), "\(text): 200 despite If-None-Match \(headers["If-None-Match"]!)")
    case .notModified:
        // A 304 carries the representation it stands for, whose length libmicrohttpd sends as
        // Content-Length and whose bytes it never sends.
        check(body == expected, "\(text): a 304 stands for other content")
        check(names(etag!, in: headers), "\(text): 304 unasked")
    default:
        fail("\(text): \(response.status)")
    }
    return 0
}

/// Whether `If-None-Match` is `*` or lists `etag`: a comma-separated list whose items may have
/// optional whitespace (spaces and tabs, RFC 9110's OWS) around them.
private func names(_ etag: String, in headers: HTTPHeaders) -> Bool {
    guard let tags = headers["If-None-Match"] else { return false }
    let blank: Set<Character> = [" ", "\t"]
    // Weak comparison, as If-None-Match asks: W/"x" names "x".
    return tags == "*" || tags.split(separator: ",").contains { item in
        let tag = Array(item.drop(while: blank.contains).reversed().drop(while: blank.contains).reversed())
        return tag.elementsEqual(etag) || tag.starts(with: "W/") && tag.dropFirst(2).elementsEqual(etag)
    }
}
