import CCrypto
import Synchronization

// The shop's cryptography, from OpenSSL's libcrypto (Debian's libssl-dev), behind a face of
// Swift types: C types and return codes stay in this file.

/// SHA-256 (FIPS 180-4).
enum SHA256 {
    /// The 32-byte digest of `message`.
    static func hash(_ message: some Sequence<UInt8>) -> [UInt8] {
        let bytes = Array(message)
        var digest = [UInt8](repeating: 0, count: 32)
        let succeeded = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                ccrypto_sha256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        // Only a broken libcrypto fails a digest of memory it was given.
        precondition(succeeded == 1, "libcrypto failed to compute SHA-256")
        return digest
    }

    /// The digest of `text`'s UTF-8 bytes, as 64 lower-case hex digits.
    static func hexDigest(of text: String) -> String {
        Hex.encode(hash(text.utf8))
    }
}

/// An HMAC-SHA-256 key (RFC 2104).
struct HMACKey: Sendable {
    private let keyed: KeyedContext

    init(_ key: [UInt8]) {
        keyed = KeyedContext(key)
    }

    /// The 32-byte authentication code of `message`.
    func authenticate(_ message: some Sequence<UInt8>) -> [UInt8] {
        let bytes = Array(message)
        var code = [UInt8](repeating: 0, count: 32)
        let context = keyed.take()
        let succeeded = bytes.withUnsafeBufferPointer { input in
            code.withUnsafeMutableBufferPointer { output in
                ccrypto_hmac_sha256(context.context, input.baseAddress, input.count, output.baseAddress)
            }
        }
        keyed.giveBack(context)
        precondition(succeeded == 1, "libcrypto failed to compute HMAC-SHA-256")
        return code
    }

    /// libcrypto's context holding the key, set up once, and copies of it that compute codes:
    /// one thread uses a copy at a time, and starts it from the key again for each code, which
    /// costs less than copying the keyed context and freeing the copy every time.
    /// `@unchecked Sendable`: the keyed context is only read (copied) after `init`, which
    /// libcrypto allows from any number of threads at once; the copies are handed out under a lock.
    private final class KeyedContext: @unchecked Sendable {
        private let keyed: OpaquePointer
        /// Copies not in use: as many as threads have computed codes at one time.
        private let spares = Mutex<[Copy]>([])

        /// A copy of the keyed context. `@unchecked Sendable`: only one thread holds it at a time.
        struct Copy: @unchecked Sendable {
            let context: OpaquePointer
        }

        init(_ key: [UInt8]) {
            let made = key.withUnsafeBufferPointer { ccrypto_hmac_sha256_new($0.baseAddress, $0.count) }
            // Only a libcrypto without HMAC or SHA-256 (or out of memory) cannot make one.
            guard let made else { preconditionFailure("libcrypto could not set up HMAC-SHA-256") }
            keyed = made
        }

        /// A copy for this thread alone until ``giveBack(_:)``.
        func take() -> Copy {
            if let spare = spares.withLock({ $0.popLast() }) { return spare }
            guard let context = ccrypto_hmac_sha256_dup(keyed) else { preconditionFailure("libcrypto could not copy an HMAC-SHA-256 context") }
            return Copy(context: context)
        }

        /// Returns a copy from ``take()`` for the next code.
        func giveBack(_ copy: Copy) {
            spares.withLock { $0.append(copy) }
        }

        deinit {
            for copy in spares.withLock({ $0 }) { ccrypto_hmac_sha256_free(copy.context) }
            ccrypto_hmac_sha256_free(keyed)
        }
    }
}

/// Bytes from OpenSSL's CSPRNG, which the operating system seeds.
enum SecureRandom {
    /// `count` random bytes.
    static func bytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let succeeded = bytes.withUnsafeMutableBufferPointer { ccrypto_random_bytes($0.baseAddress, $0.count) }
        // Without randomness no session id or secret can be made safely: stopping is the only
        // answer (OpenSSL fails here only when the system cannot seed it).
        precondition(succeeded == 1, "libcrypto could not produce random bytes")
        return bytes
    }
}

/// Comparison whose time does not depend on where two secrets differ.
enum ConstantTime {
    /// Whether `lhs` and `rhs` have the same UTF-8 bytes. Only the length may leak, and
    /// every token compared here has a fixed, public length.
    static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(bytes: Array(lhs.utf8), Array(rhs.utf8))
    }

    /// Whether `a` and `b` are the same bytes; only the length may leak.
    static func equals(bytes a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in ccrypto_equal(a.baseAddress, b.baseAddress, a.count) == 1 }
        }
    }
}
