/// Bytes that many responses send without copying them, such as a static file read once at
/// start: each answer lends them to libmicrohttpd and keeps them alive until it is sent.
///
/// ```swift
/// let logo = SharedBytes(try Array(Data(contentsOf: url)))
/// return Response(headers: ["Content-Type": "image/png"], body: .shared(logo))
/// ```
/// `@unchecked Sendable`: the memory is written once, in `init`, and only read afterwards.
public final class SharedBytes: @unchecked Sendable {
    /// The bytes, owned by this object.
    let buffer: UnsafeRawBufferPointer

    /// Copies `bytes` into memory of their own.
    public init(_ bytes: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        memory.copyBytes(from: bytes)
        buffer = UnsafeRawBufferPointer(memory)
    }

    deinit {
        buffer.deallocate()
    }

    /// The number of bytes.
    public var count: Int { buffer.count }

    /// A copy of the bytes, for tests and diagnostics.
    public var bytes: [UInt8] { Array(buffer) }
}
