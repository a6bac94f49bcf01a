#if canImport(Glibc)
import Glibc
#endif

/// What the URI-log callback learns of a request target before libmicrohttpd decodes it,
/// carried to the access handler's first call in the request's `con_cls` slot.
///
/// libmicrohttpd hands the callback the raw target as a C string, so a raw NUL byte inside it
/// (`GET /search?q=a<NUL>b`) cuts it short: the rest is never seen and the request would be
/// answered as if it ended there. The callback therefore records the length it saw. In its read
/// buffer, libmicrohttpd ends the target with the NUL it writes over the space before the HTTP
/// version, and the version string the access handler receives starts right after that NUL: the
/// handler compares the two extents, and a difference means a NUL inside the target.
///
/// The callback also notes an escaped slash (`%2F`) in the path: libmicrohttpd decodes it into
/// a `/` that the decoded path cannot tell from a separator.
///
/// The mark is stored as an odd address (bit 0 set), which no object's address ever is, so the
/// access handler tells it apart from the request state it later keeps in the same slot.
struct RawTarget: Equatable {
    /// Whether the target up to its first NUL is well formed (escapes, control characters).
    let isWellFormed: Bool
    /// Whether the path (the target before any `?`) holds `%2F` or `%2f`.
    let hasEscapedSlash: Bool
    /// The target's length up to its first NUL.
    let length: Int

    /// Inspects the NUL-terminated target libmicrohttpd passes to the URI-log callback.
    init(inspecting uri: UnsafePointer<CChar>) {
        length = strlen(uri)
        isWellFormed = PercentEncodingValidator.isWellFormedTarget(uri)
        hasEscapedSlash = Self.pathHasEscapedSlash(UnsafeRawBufferPointer(start: uri, count: length))
    }

    init(isWellFormed: Bool, hasEscapedSlash: Bool = false, length: Int) {
        self.isWellFormed = isWellFormed
        self.hasEscapedSlash = hasEscapedSlash
        self.length = length
    }

    /// The mark to leave in the `con_cls` slot.
    var slotValue: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(
            bitPattern: UInt(truncatingIfNeeded: length) << 3 | (hasEscapedSlash ? 0b100 : 0) | (isWellFormed ? 0b10 : 0) | 1
        )!
    }

    /// The mark a slot holds, or `nil` when it holds something else (the request's state).
    init?(slot: UnsafeMutableRawPointer?) {
        guard let slot else { return nil }
        let bits = UInt(bitPattern: slot)
        guard bits & 1 == 1 else { return nil }
        isWellFormed = bits & 0b10 != 0
        hasEscapedSlash = bits & 0b100 != 0
        length = Int(bits >> 3)
    }

    /// Whether `target` holds `%2F` (either case) before its query.
    private static func pathHasEscapedSlash(_ target: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 2 < target.count, target[index] != UInt8(ascii: "?") {
            if target[index] == UInt8(ascii: "%"), target[index + 1] == UInt8(ascii: "2"), target[index + 2] | 0x20 == UInt8(ascii: "f") {
                return true
            }
            index += 1
        }
        return false
    }

    /// Whether the whole target is well formed, given the `url` and `version` libmicrohttpd
    /// passes to the access handler.
    func isWellFormed(url: UnsafePointer<CChar>, version: UnsafePointer<CChar>) -> Bool {
        isWellFormed && isWhole(url: url, version: version)
    }

    /// Whether the callback saw the whole target, no NUL cutting it short, given the `url` and
    /// `version` libmicrohttpd passes to the access handler (`url` starts where the target
    /// started; `version` starts one byte past its end, unless the request line had no
    /// version, when it is empty).
    func isWhole(url: UnsafePointer<CChar>, version: UnsafePointer<CChar>) -> Bool {
        guard version.pointee != 0 else { return true }
        return UnsafeRawPointer(version) - UnsafeRawPointer(url) == length + 1
    }

    /// The target as text (``Request/target``): its bytes as sent, each one outside ASCII
    /// percent-encoded, so that no byte is lost to UTF-8 decoding.
    static func text(of uri: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeRawBufferPointer(start: uri, count: strlen(uri))
        guard bytes.contains(where: { $0 >= 0x80 }) else { return String(decoding: bytes, as: UTF8.self) }
        let hex = PercentEncoding.hexDigits
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            if byte < 0x80 {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
