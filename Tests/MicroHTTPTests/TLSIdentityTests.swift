@testable import MicroHTTP
import CGnuTLS
import Foundation
import Testing

/// The certificate callback libmicrohttpd is handed must see the identity ``TLSIdentity/load(_:)``
/// puts in force. It once read a slot of its own that nothing wrote (a header's `static`, one per
/// compiled unit), and every handshake failed after the ClientHello; this calls the callback
/// through the very pointer the server passes as `MHD_OPTION_HTTPS_CERT_CALLBACK`.
@Suite struct TLSIdentityTests {
    @Test("The callback the server hands to libmicrohttpd returns the loaded certificate, and the new one after a reload")
    func callbackSeesTheLoadedIdentity() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = TLSConfiguration(certificatePath: folder.appendingPathComponent("shop.pem").path, keyPath: folder.appendingPathComponent("shop.key").path)
        let retrieve = unsafeBitCast(TLSIdentity.certificateCallback, to: TLSIdentity.RetrieveFunction.self)

        for (certificate, key) in [(Self.first, Self.firstKey), (Self.second, Self.secondKey)] {
            try certificate.write(toFile: configuration.certificatePath, atomically: true, encoding: .utf8)
            try key.write(toFile: configuration.keyPath, atomically: true, encoding: .utf8)
            try TLSIdentity.load(configuration)
            var chain: UnsafeMutablePointer<gnutls_pcert_st>?
            var count: UInt32 = 0
            var privateKey: OpaquePointer?
            #expect(retrieve(nil, nil, 0, nil, 0, &chain, &count, &privateKey) == 0)
            #expect(count == 1)
            #expect(privateKey != nil)
            let presented = try #require(chain).pointee.cert
            #expect(Data(bytes: presented.data, count: Int(presented.size)) == Self.der(certificate))
        }
    }

    /// The DER bytes of a PEM certificate.
    static func der(_ pem: String) -> Data? {
        Data(base64Encoded: pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined())
    }

    // Two self-signed P-256 certificates (CN=first, CN=second) and their keys, valid for a century.
    static let first = """
        -----BEGIN CERTIFICATE-----
        MIIBdzCCAR2gAwIBAgIUWbzmBAPsehlxenVmwNLI3Y75sTkwCgYIKoZIzj0EAwIw
        EDEOMAwGA1UEAwwFZmlyc3QwIBcNMjYxMjAzMTExMTIwWhgPMjEyNjExMDkxMTEx
        MjBaMBAxDjAMBgNVBAMMBWZpcnN0MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE
        qyIDz7WH0WbeqaqshEHAVYjFeb8NllzkKGs57DZ2VEJQfZOs0fc0cxyLBbBKsRTS
        v9UOGofILdY9+J87ykuk36NTMFEwHQYDVR0OBBYEFPbEsXOeprFcLNj/4He5hn2H
        CFljMB8GA1UdIwQYMBaAFPbEsXOeprFcLNj/4He5hn2HCFljMA8GA1UdEwEB/wQF
        MAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIgb7F/VxL8ZW7ZMhNsmoHGM/Y2Uob1NkfI
        2v64hsFKtOYCIQCW5iqArNmXgIQB8b+zo8I5DFZRBTh38NSaMegyMLlltA==
        -----END CERTIFICATE-----
        """
    static let firstKey = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgOhXIl1DGkezKXiV5
        YCbPTqhOo3F0ppuxPUAbn0qK94ihRANCAASrIgPPtYfRZt6pqqyEQcBViMV5vw2W
        XOQoaznsNnZUQlB9k6zR9zRzHIsFsEqxFNK/1Q4ah8gt1j34nzvKS6Tf
        -----END PRIVATE KEY-----
        """
    static let second = """
        -----BEGIN CERTIFICATE-----
        MIIBeTCCAR+gAwIBAgIUYkGNq+WnA9W7RpSf4HJReLbDeOAwCgYIKoZIzj0EAwIw
        ETEPMA0GA1UEAwwGc2Vjb25kMCAXDTI2MTIwMzExMTEyMFoYDzIxMjYxMTA5MTEx
        MTIwWjARMQ8wDQYDVQQDDAZzZWNvbmQwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNC
        AAQOl8fL8i5/u049gWufOuGhKGa2LdeJF9r+RX+duM8hwKQpqmYJI90Z24c9hef4
        EpDGdFsVMdq+tO/EsMwM2J9yo1MwUTAdBgNVHQ4EFgQUHE/AzRQ8zijhvLRv8NZS
        vgHWFzkwHwYDVR0jBBgwFoAUHE/AzRQ8zijhvLRv8NZSvgHWFzkwDwYDVR0TAQH/
        BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiBS3xzDlgcITP2xs3olXI/nMpXru7Vu
        eqDwiY1chtWBZAIhAIJE5nVtTUnvezD80zVG2H/YPQJESzKqmHnm8TH5g74M
        -----END CERTIFICATE-----
        """
    static let secondKey = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSbcdH7TKAyPFIY5a
        ussbkjdd0bbRixhtWgslTS6IicmhRANCAAQOl8fL8i5/u049gWufOuGhKGa2LdeJ
        F9r+RX+duM8hwKQpqmYJI90Z24c9hef4EpDGdFsVMdq+tO/EsMwM2J9y
        -----END PRIVATE KEY-----
        """
}
