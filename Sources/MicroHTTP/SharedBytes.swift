import CMicroHTTPD
import Synchronization

/// Bytes that many responses send without copying them, such as a static file read once at
/// start: each answer lends them to libmicrohttpd and keeps them alive until it is sent.
///
/// ```swift
/// let logo = SharedBytes(try Array(Data(contentsOf: url)))
/// return Response(headers: ["Content-Type": "image/png"], body: .shared(logo))
/// ```
/// These bytes also keep the last libmicrohttpd response the server built around them: when
/// the next answer has the same status and header fields (a static file's always do), it is
/// queued as it is, with no header building per answer.
///
/// `@unchecked Sendable`: the memory is written once, in `init`, and only read afterwards;
/// the prepared response is only touched under its lock.
public final class SharedBytes: @unchecked Sendable {
    /// The bytes, owned by this object or by `owner`.
    let buffer: UnsafeRawBufferPointer
    /// The object whose memory these bytes are, when they are a second view of it.
    private let owner: SharedBytes?
    private let prepared = Mutex<PreparedResponse?>(nil)

    /// Copies `bytes` into memory of their own.
    public init(_ bytes: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        memory.copyBytes(from: bytes)
        buffer = UnsafeRawBufferPointer(memory)
        owner = nil
    }

    /// The same bytes as `other`, without a copy, but with a prepared response of their own:
    /// for answers that send the same bytes with different header fields, each of which should
    /// stay prepared (a file's answers for versioned and plain addresses, say, or its `200` and
    /// `304`).
    public init(sameBytesAs other: SharedBytes) {
        buffer = other.buffer
        owner = other.owner ?? other
    }

    deinit {
        prepared.withLock { prepared in
            if let prepared { MHD_destroy_response(prepared.handle) }
        }
        if owner == nil { buffer.deallocate() }
    }

    /// The number of bytes.
    public var count: Int { buffer.count }

    /// A copy of the bytes, for tests and diagnostics.
    public var bytes: [UInt8] { Array(buffer) }

    /// Queues the prepared response for `status` and `headers` on `connection`, preparing it
    /// first (with `prepare`, which adds the header fields) unless the last one matches.
    ///
    /// The response points into this object's memory without owning it: the caller keeps
    /// this object alive until the request is complete.
    func queuePrepared(status: UInt32, headers: HTTPHeaders, on connection: OpaquePointer, prepare: (OpaquePointer) -> Void) -> Bool {
        prepared.withLock { prepared in
            let handle: OpaquePointer
            if let current = prepared, current.status == status, current.headers.hasSameFields(as: headers) {
                handle = current.handle
            } else {
                guard let created = MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), MHD_ResponseMemoryMode.RESPMEM_PERSISTENT
                ) else { return false }
                prepare(created)
                if let old = prepared { MHD_destroy_response(old.handle) }
                prepared = PreparedResponse(status: status, headers: headers, handle: created)
                handle = created
            }
            // Under the lock, so a concurrent replacement cannot destroy it first;
            // libmicrohttpd counts the connection's reference itself.
            return MHD_queue_response(connection, status, handle) == MHD_Result.YES
        }
    }
}

/// A libmicrohttpd response with the status and header fields it was built for.
/// `@unchecked Sendable`: libmicrohttpd responses may be queued from any thread.
private struct PreparedResponse: @unchecked Sendable {
    let status: UInt32
    let headers: HTTPHeaders
    let handle: OpaquePointer
}
