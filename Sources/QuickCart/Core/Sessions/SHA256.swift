/// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), for signing session cookies and deriving
/// CSRF tokens. Written here because the toolchain has no crypto library on Linux and the
/// project takes no outside packages; the tests check it against the standard vectors.
///
/// Each new cookie is verified and its CSRF token derived once (SessionManager keeps them);
/// blocks are compressed in place, and ``HMACKey`` keeps the key's two padded blocks already
/// compressed, which halves the work for the short messages signed here.
struct SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private static let initialState: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)

    private var state = initialState
    private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var blockCount = 0
    private var totalCount: UInt64 = 0

    /// Adds `bytes` to the message.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { append(byte) }
    }

    /// The digest of everything added, with the standard padding.
    mutating func finalize() -> [UInt8] {
        let bitLength = totalCount &* 8
        append(0x80)
        while blockCount != 56 { append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        withUnsafeBytes(of: state) { words in
            for word in words.bindMemory(to: UInt32.self) {
                digest.append(UInt8(truncatingIfNeeded: word >> 24))
                digest.append(UInt8(truncatingIfNeeded: word >> 16))
                digest.append(UInt8(truncatingIfNeeded: word >> 8))
                digest.append(UInt8(truncatingIfNeeded: word))
            }
        }
        return digest
    }

    /// The 32-byte digest of `message`.
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(message)
        return hasher.finalize()
    }

    /// HMAC-SHA-256 of `message` under `key`.
    static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        HMACKey(key).authenticate(message)
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        withUnsafeMutableBytes(of: &block) { $0[blockCount] = byte }
        blockCount += 1
        totalCount &+= 1
        if blockCount == 64 {
            compress()
            blockCount = 0
        }
    }

    private mutating func compress() {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            withUnsafeBytes(of: block) { bytes in
                for i in 0..<16 {
                    schedule[i] = UInt32(bytes[i * 4]) << 24 | UInt32(bytes[i * 4 + 1]) << 16
                        | UInt32(bytes[i * 4 + 2]) << 8 | UInt32(bytes[i * 4 + 3])
                }
            }
            for i in 16..<64 {
                let s0 = schedule[i - 15].rotatedRight(7) ^ schedule[i - 15].rotatedRight(18) ^ (schedule[i - 15] >> 3)
                let s1 = schedule[i - 2].rotatedRight(17) ^ schedule[i - 2].rotatedRight(19) ^ (schedule[i - 2] >> 10)
                schedule[i] = schedule[i - 16] &+ s0 &+ schedule[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.roundConstants.withUnsafeBufferPointer { constants in
                for i in 0..<64 {
                    let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ choice &+ constants[i] &+ schedule[i]
                    let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
                }
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
        }
    }
}

/// An HMAC-SHA-256 key with its inner and outer padded blocks already compressed.
struct HMACKey: Sendable {
    private let inner: SHA256
    private let outer: SHA256

    init(_ key: [UInt8]) {
        var block = key.count > 64 ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.lazy.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(block.lazy.map { $0 ^ 0x5c })
        self.inner = inner
        self.outer = outer
    }

    /// The 32-byte authentication code of `message`.
    func authenticate(_ message: some Sequence<UInt8>) -> [UInt8] {
        var inner = self.inner
        inner.update(message)
        var outer = self.outer
        outer.update(inner.finalize())
        return outer.finalize()
    }
}

private extension UInt32 {
    @inline(__always)
    func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
