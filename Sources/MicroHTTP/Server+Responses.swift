import CMicroHTTPD

extension Server {
    // MARK: - Answers

    /// Hands `response` to libmicrohttpd, noting in `state` what was answered and whether
    /// libmicrohttpd took it, for the ``Delivery`` reported when the request completes.
    func queue(_ response: Response, on connection: OpaquePointer, for state: RequestState) -> Bool {
        state.answerStatus = response.status
        // A 304's body only gives its Content-Length: none of it is sent.
        state.answerBodyBytes = response.status.code == 304 ? 0 : response.body.count
        if state.answerRouteSlot < 0 { state.answerRouteSlot = response.routeSlot }
        // A refused stream queues its error page by a nested call, which notes that instead.
        let queued = enqueue(response, on: connection, for: state)
        state.answerQueued = queued
        return queued
    }

    private func enqueue(_ response: Response, on connection: OpaquePointer, for state: RequestState) -> Bool {
        if case .shared(let shared) = response.body, !isStopping.load(ordering: .sequentiallyConsistent) {
            // The prepared response reads the shared bytes until the request completes.
            state.sharedBody = shared
            return shared.queuePrepared(status: UInt32(response.status.code), headers: response.headers, on: connection) { handle in
                Self.addFields(of: response.headers, to: handle)
            }
        }
        let created: OpaquePointer?
        switch response.body {
        case .empty:
            created = MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            created = Self.lend(bytes)
        case .shared(let shared):
            let context = Unmanaged.passRetained(shared).toOpaque()
            created = MHD_create_response_from_buffer_with_free_callback_cls(
                shared.count, UnsafeMutableRawPointer(mutating: shared.buffer.baseAddress), sharedBytesSent, context
            )
            if created == nil { Unmanaged<SharedBytes>.fromOpaque(context).release() }
        case .eventStream(let stream):
            switch open(stream, on: connection, for: state.request.remoteAddress) {
            case .opened(let response): created = response
            case .refused(let error): return queue(responder.respond(to: error, for: state.request), on: connection, for: state)
            case .failed: created = nil
            }
        }
        guard let created else { return false }
        defer { MHD_destroy_response(created) }
        Self.addFields(of: response.headers, to: created)
        if isStopping.load(ordering: .sequentiallyConsistent) {
            // Answers given while stopping close their connection, so the stop can finish.
            MHD_add_response_header(created, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(response.status.code), created) == MHD_Result.YES
    }

    /// A response that sends `bytes` where they are, sparing the copy (and its allocation)
    /// libmicrohttpd would make: it keeps them until it has sent them.
    private static func lend(_ bytes: [UInt8]) -> OpaquePointer? {
        guard !bytes.isEmpty else {
            return MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
        }
        let lent = LentBytes(bytes)
        let context = Unmanaged.passRetained(lent).toOpaque()
        // The box never changes its array, so the array's storage stays where it is.
        let created = lent.bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer_with_free_callback_cls(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), lentBytesSent, context
            )
        }
        if created == nil { Unmanaged<LentBytes>.fromOpaque(context).release() }
        return created
    }

    /// Adds every header field but `Content-Length`, which libmicrohttpd sets itself. Short
    /// Swift strings live inline and have no NUL-terminated storage to lend, so passing them as
    /// C strings would allocate a copy each; all fields are copied with their terminators into
    /// one buffer on the stack instead, and handed to libmicrohttpd in one call.
    private static func addFields(of headers: HTTPHeaders, to response: OpaquePointer) {
        headers.withFields { fields in
            var byteCount = 0
            var fieldCount: UInt32 = 0
            for index in fields.indices where !fields[index].name.equalsIgnoringASCIICase("Content-Length") {
                byteCount += fields[index].name.utf8.count + fields[index].value.utf8.count + 2
                fieldCount += 1
            }
            guard fieldCount > 0 else { return }
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: byteCount) { buffer in
                let bytes = UnsafeMutableRawBufferPointer(buffer)
                var offset = 0
                for index in fields.indices where !fields[index].name.equalsIgnoringASCIICase("Content-Length") {
                    offset = append(fields[index].name, to: bytes, at: offset)
                    offset = append(fields[index].value, to: bytes, at: offset)
                }
                cmhd_add_response_headers(response, buffer.baseAddress!, fieldCount)
            }
        }
    }

    /// Copies `text` and a NUL terminator into `bytes` at `offset`; returns the offset after them.
    private static func append(_ text: String, to bytes: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        let end = offset + text.utf8.count
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            UnsafeMutableRawBufferPointer(rebasing: bytes[offset..<end]).copyMemory(from: UnsafeRawBufferPointer(utf8))
        }
        if copied == nil {
            for (index, byte) in zip(offset..<end, text.utf8) { bytes[index] = byte }
        }
        bytes[end] = 0
        return end + 1
    }
}

/// A response body held for libmicrohttpd while it sends it.
final class LentBytes: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}
