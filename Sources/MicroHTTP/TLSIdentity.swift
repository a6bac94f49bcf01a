import CGnuTLS
import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// HTTPS for a ``Server``: libmicrohttpd serves TLS through GnuTLS with the certificate chain
/// and key read from PEM files. Handshakes ask for the certificate through a callback, so
/// ``Server/reloadTLSIdentity()`` can put renewed files in force for new handshakes without
/// touching open connections or event streams.
public struct TLSConfiguration: Sendable, Equatable {
    /// The PEM file of the server's certificate, followed by its intermediates.
    public var certificatePath: String
    /// The PEM file of the certificate's private key.
    public var keyPath: String
    /// GnuTLS's priority string: which versions, ciphers and key exchanges are offered.
    public var priorities: String

    /// TLS 1.3 and 1.2 only, AEAD ciphers (AES-GCM, ChaCha20-Poly1305) with forward-secret
    /// key exchange, the server's order first: what current browsers speak, and nothing
    /// older (TLS 1.0 and 1.1, CBC, RSA key exchange are refused).
    public static let modernPriorities = "SECURE:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+CHACHA20-POLY1305:+AES-256-GCM:+AES-128-GCM:-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:%SERVER_PRECEDENCE"

    public init(certificatePath: String, keyPath: String, priorities: String = Self.modernPriorities) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.priorities = priorities
    }
}

/// The process's TLS identity: GnuTLS's callback has no context of its own, so one TLS
/// listener per process holds it at a time (``Server/start()`` refuses a second).
enum TLSIdentity {
    static let holder = Mutex<ObjectIdentifier?>(nil)

    /// The identity handshakes use, as its address's bit pattern (0 before the first load).
    private static let current = Atomic<UInt>(0)

    /// The identities a reload replaced, kept and never freed: a handshake under way, or a
    /// session resumed later, may still point into one (a few KiB per reload). Held here so
    /// that they are kept on purpose, not lost (as a leak checker would rightly say).
    private static let replaced = Mutex<[UInt]>([])

    /// GnuTLS's `gnutls_certificate_retrieve_function2`, as a C function pointer (Swift imports
    /// GnuTLS's typedef of it as a Swift closure type).
    typealias RetrieveFunction = @convention(c) (
        OpaquePointer?, UnsafePointer<gnutls_datum_t>?, Int32, UnsafePointer<gnutls_pk_algorithm_t>?, Int32,
        UnsafeMutablePointer<UnsafeMutablePointer<gnutls_pcert_st>?>?, UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32

    /// GnuTLS's certificate callback: the identity ``load(_:)`` put in force, or -1 (the
    /// handshake fails) when there is none.
    private static let retrieve: RetrieveFunction = { _, _, _, _, _, certificates, count, key in
        guard let certificates, let count, let key,
              let identity = UnsafeMutablePointer<cgnutls_identity>(bitPattern: current.load(ordering: .acquiring)) else { return -1 }
        // The chain is a C array (a tuple in Swift): its first element's address is the array's.
        let chain = UnsafeMutableRawPointer(identity) + MemoryLayout<cgnutls_identity>.offset(of: \.certificates)!
        certificates.pointee = chain.assumingMemoryBound(to: gnutls_pcert_st.self)
        count.pointee = identity.pointee.count
        key.pointee = identity.pointee.key
        return 0
    }

    /// ``retrieve`` as the pointer libmicrohttpd's `MHD_OPTION_HTTPS_CERT_CALLBACK` takes.
    static var certificateCallback: UnsafeMutableRawPointer { unsafeBitCast(retrieve, to: UnsafeMutableRawPointer.self) }

    /// Whether this libmicrohttpd serves HTTPS with a certificate callback.
    static var isSupported: Bool {
        cmhd_supports_tls_with_callback() != 0
    }

    /// Reads and checks both files (the key must be the certificate's), then puts them in
    /// force for the handshakes that follow; on any failure the identity in force stays.
    static func load(_ configuration: TLSConfiguration) throws(Server.StartError) {
        let certificate = try read(configuration.certificatePath)
        let key = try read(configuration.keyPath)
        var identity: UnsafeMutablePointer<cgnutls_identity>?
        let result = certificate.withUnsafeBufferPointer { certificate in
            key.withUnsafeBufferPointer { key in
                cgnutls_identity_load(certificate.baseAddress, UInt32(certificate.count), key.baseAddress, UInt32(key.count), &identity)
            }
        }
        guard result == 0, let identity else {
            throw Server.StartError(description: "cannot use \(configuration.certificatePath) with \(configuration.keyPath): \(String(cString: gnutls_strerror(result)))")
        }
        let previous = current.exchange(UInt(bitPattern: identity), ordering: .acquiringAndReleasing)
        if previous != 0 { replaced.withLock { $0.append(previous) } }
    }

    /// Fails unless GnuTLS reads `priorities`.
    static func checkPriorities(_ priorities: String) throws(Server.StartError) {
        let result = cgnutls_priorities_valid(priorities)
        guard result >= 0 else {
            throw Server.StartError(description: "the TLS priority string is not valid: \(String(cString: gnutls_strerror(result)))")
        }
    }

    private static func read(_ path: String) throws(Server.StartError) -> [CChar] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Server.StartError(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var bytes: [CChar] = []
        var chunk = [CChar](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Server.StartError(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes += chunk[..<count]
            guard bytes.count <= 1 << 20 else { throw Server.StartError(description: "\(path) is larger than 1 MiB: not a PEM certificate or key") }
        }
        return bytes
    }
}
