@testable import QuickCart
import Testing

/// The signing primitives against the published test vectors (FIPS 180-4 examples, RFC 4231).
@Suite struct SHA256Tests {
    private func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func digests(message: String, expected: String) {
        #expect(hex(SHA256.hash(Array(message.utf8))) == expected)
    }

    @Test func aMillionAs() {
        #expect(hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func messagesAroundTheBlockBoundary() {
        // 55, 56 and 64 bytes: the padding spills into a second block at 56.
        #expect(hex(SHA256.hash([UInt8](repeating: 0x61, count: 55))) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(hex(SHA256.hash([UInt8](repeating: 0x61, count: 56))) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(hex(SHA256.hash([UInt8](repeating: 0x61, count: 64))) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test func hmacRFC4231() {
        // Test case 1: a 20-byte key.
        #expect(hex(SHA256.hmac(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2: a short key.
        #expect(hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than a block is hashed first.
        #expect(hex(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131), message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func aPreparedKeyAuthenticatesLikeTheOneShotFunction() {
        let key = HMACKey(Array("secret".utf8))
        for message in ["", "a", String(repeating: "x", count: 200)] {
            #expect(key.authenticate(message.utf8) == SHA256.hmac(key: Array("secret".utf8), message: Array(message.utf8)))
        }
    }
}
