// Fuzz target: reading the session cookie, `SessionToken(cookieValue:key:)` in QuickCart, and
// the SHA-256 / HMAC-SHA-256 (libcrypto, through Crypto.swift) that signs it.
//
// Built by Fuzz/run together with Sources/QuickCart/Core/Sessions/{SessionToken,Crypto,Hex}.swift
// (all internal, needing only the CCrypto module). The input chooses a secret, a token (id and issue time),
// which the harness signs with its own plain SHA-256 (below), and then one of
// - mode 0: a raw cookie value (any bytes), which must never crash the reader, and which, if it
//   is accepted, must name a token whose own cookie reads back as that same token;
// - mode 1: edits (replace, insert, delete a byte) to the token's correctly signed cookie: an
//   edited cookie may be refused or read as the very same token, never as another one;
// - mode 2: a message, hashed and authenticated under the secret: the shop's SHA256 and HMACKey
//   must agree with the plain implementation.

private struct Reader {
    var bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func take(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }
    var rest: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[min(offset, bytes.count)...]) }
}

/// Lower-case hex written out here, independent of the shop's Hex that the target exercises.
private func plainHex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
}

/// The plain implementation against known answers (RFC 4231-style, computed elsewhere), once.
private let plainImplementationIsRight: Bool = {
    check(plainHex(PlainSHA256.hmac(key: Array("key".utf8), message: Array("The quick brown fox jumps over the lazy dog".utf8)))
          == "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8", "the harness's plain HMAC is wrong")
    check(plainHex(PlainSHA256.hmac(key: Array(0..<100), message: Array(repeating: UInt8(ascii: "a"), count: 200)))
          == "87235f3ef49ccf2e317dd0e547fd0f760017f82b6e329e7a7be9335675da6239", "the harness's plain HMAC is wrong (long)")
    return true
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionCookie(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard plainImplementationIsRight else { return 0 }
    var input = Reader(bytes: UnsafeBufferPointer(start: start, count: count))
    let secret = input.take(Int(input.byte()) % 80)
    let issuedAt = Int64(bitPattern: input.take(8).reduce(0) { $0 << 8 | UInt64($1) } >> 1)
    let id = Hex.encode(input.take(20))
    let mode = input.byte() % 3
    let key = HMACKey(secret)

    let cookie = signedCookie(id: id, issuedAt: issuedAt, secret: secret)
    guard let token = SessionToken(cookieValue: cookie, key: key) else {
        fail("a correctly signed cookie is refused (or the format changed): \(cookie)")
    }
    check(token.id == id && token.issuedAt == issuedAt && token.cookieValue(key: key) == cookie,
          "\(cookie) reads back as \(token)")

    switch mode {
    case 0:
        let raw = String(decoding: input.rest, as: UTF8.self)
        if let read = SessionToken(cookieValue: raw, key: key) {
            check(SessionToken(cookieValue: read.cookieValue(key: key), key: key) == read,
                  "\(raw) was accepted as \(read), whose own cookie does not read back")
        }
    case 1:
        var edited = Array(cookie.utf8)
        while input.offset + 3 <= count {
            let kind = input.byte() % 3, position = Int(input.byte()), value = input.byte()
            switch kind {
            case 0 where !edited.isEmpty: edited[position % edited.count] = value
            case 1: edited.insert(value, at: position % (edited.count + 1))
            case 2 where !edited.isEmpty: edited.remove(at: position % edited.count)
            default: break
            }
        }
        let text = String(decoding: edited, as: UTF8.self)
        if let read = SessionToken(cookieValue: text, key: key) {
            check(read == token, "the edited cookie \(text) reads as another session: \(read)")
        }
        // The unedited cookie under another secret is refused.
        if !secret.isEmpty {
            var other = secret
            other[0] ^= 1
            check(SessionToken(cookieValue: cookie, key: HMACKey(other)) == nil,
                  "a cookie signed with one secret is accepted with another")
        }
    default:
        let message = Array(input.rest)
        let expected = PlainSHA256.hash(message)
        check(SHA256.hash(message) == expected, "SHA256.hash differs from the plain one for \(message)")
        check(key.authenticate(message) == PlainSHA256.hmac(key: secret, message: message),
              "HMACKey(\(secret)).authenticate differs from the plain HMAC for \(message)")
    }
    return 0
}

/// The cookie format as SessionToken writes it: `id.issuedAt.signature`, the signature being the
/// first 16 bytes of HMAC-SHA-256(secret, "session|id|issuedAt") in lower-case hex, computed here
/// with the plain implementation. Checked against the real reader on every input (above), so a
/// change of format fails loudly.
private func signedCookie(id: String, issuedAt: Int64, secret: [UInt8]) -> String {
    let mac = PlainSHA256.hmac(key: secret, message: Array("session|\(id)|\(issuedAt)".utf8))
    return "\(id).\(issuedAt).\(plainHex(mac.prefix(16)))"
}

/// SHA-256 and HMAC as FIPS 180-4 and RFC 2104 state them, written for clarity, not speed.
private enum PlainSHA256 {
    static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func hash(_ message: [UInt8]) -> [UInt8] {
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var padded = message + [0x80]
        padded += [UInt8](repeating: 0, count: (56 - padded.count % 64 + 64) % 64)
        padded += (0..<8).reversed().map { UInt8(truncatingIfNeeded: (UInt64(message.count) * 8) >> (UInt64($0) * 8)) }
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            var w = (0..<16).map { i in
                (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(padded[chunk + i * 4 + $1]) }
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ w[i - 15] >> 3
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ w[i - 2] >> 10
                w.append(w[i - 16] &+ s0 &+ w[i - 7] &+ s1)
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ (e & f ^ ~e & g) &+ k[i] &+ w[i]
                let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ (a & b ^ a & c ^ b & c)
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (i, v) in [a, b, c, d, e, f, g, hh].enumerated() { h[i] = h[i] &+ v }
        }
        return h.flatMap { v in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    }

    static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        return hash(block.map { $0 ^ 0x5c } + hash(block.map { $0 ^ 0x36 } + message))
    }
}
