import Dispatch
@testable import QuickCart
import Synchronization
import Testing

/// The face over libcrypto, against the standard vectors (FIPS 180-4 examples, RFC 4231).
@Suite("Crypto")
struct CryptoTests {
    private func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

    @Test("SHA-256 of the standard messages", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256(message: String, expected: String) {
        #expect(hex(SHA256.hash(Array(message.utf8))) == expected)
        #expect(SHA256.hexDigest(of: message) == expected)
    }

    @Test("SHA-256 of a million a's")
    func sha256Long() {
        #expect(hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("HMAC-SHA-256: RFC 4231 test cases 1, 2, 4, 6 and 7")
    func hmac() {
        #expect(hex(HMACKey([UInt8](repeating: 0x0b, count: 20)).authenticate(Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(hex(HMACKey(Array("Jefe".utf8)).authenticate("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(hex(HMACKey(Array(1...25)).authenticate([UInt8](repeating: 0xcd, count: 50)))
                == "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
        #expect(hex(HMACKey([UInt8](repeating: 0xaa, count: 131)).authenticate(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        let message = "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
        #expect(hex(HMACKey([UInt8](repeating: 0xaa, count: 131)).authenticate(message.utf8))
                == "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
    }

    @Test("HMAC-SHA-256: an empty key is a key, and one key reused gives the same codes")
    func hmacKeyReused() {
        let empty = HMACKey([])
        #expect(hex(empty.authenticate([UInt8]())) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        #expect(hex(empty.authenticate([UInt8]())) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        let key = HMACKey(Array("key".utf8))
        let fox = "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
        #expect(hex(key.authenticate("The quick brown fox jumps over the lazy dog".utf8)) == fox)
        #expect(hex(key.authenticate("another message".utf8)) != fox)
        #expect(hex(key.authenticate("The quick brown fox jumps over the lazy dog".utf8)) == fox, "a code leaves the key as it was")
    }

    @Test("HMAC-SHA-256: one key shared by many threads at once")
    func hmacKeyShared() {
        let key = HMACKey(Array("key".utf8))
        let codes = Mutex<Set<String>>([])
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let code = hex(key.authenticate("The quick brown fox jumps over the lazy dog".utf8))
            codes.withLock { _ = $0.insert(code) }
        }
        #expect(codes.withLock { $0 } == ["f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"])
    }

    @Test("Random bytes: the length asked for, different every time")
    func randomBytes() {
        let first = SecureRandom.bytes(count: 32), second = SecureRandom.bytes(count: 32)
        #expect(first.count == 32 && second.count == 32 && first != second)
        #expect(SecureRandom.bytes(count: 0).isEmpty)
    }

    @Test("Constant-time comparison: equal only for the same bytes")
    func constantTime() {
        #expect(ConstantTime.equals("abc", "abc"))
        #expect(ConstantTime.equals("", ""))
        #expect(!ConstantTime.equals("abc", "abd"))
        #expect(!ConstantTime.equals("abc", "abcd"))
        #expect(!ConstantTime.equals("é", "e\u{301}"), "bytes are compared, not characters")
    }
}
