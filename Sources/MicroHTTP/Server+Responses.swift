import CMicroHTTPD

extension Server {
    // MARK: - Answers

    /// Hands `response` to libmicrohttpd, noting in `state` what was answered and whether
    /// libmicrohttpd took it, for the ``Delivery`` reported when the request completes.
    func queue(_ response: Response, on connection: OpaquePointer, for state: RequestState) -> Bool {
        state.answerStatus = response.status
        state.answerBodyBytes = response.body.count
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
            created = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
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

    /// Adds every header field but `Content-Length`, which libmicrohttpd sets itself.
    private static func addFields(of headers: HTTPHeaders, to response: OpaquePointer) {
        for field in headers where !field.name.equalsIgnoringASCIICase("Content-Length") {
            add(field, to: response)
        }
    }

    /// Adds a header field to a libmicrohttpd response. Short Swift strings live inline and
    /// have no NUL-terminated storage to lend, so passing them as C strings would allocate a
    /// copy each; both are copied to the stack with their terminators instead.
    private static func add(_ field: HTTPHeaders.Field, to response: OpaquePointer) {
        var name = field.name
        var value = field.value
        name.withUTF8 { name in
            value.withUTF8 { value in
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + value.count + 2) { buffer in
                    let bytes = UnsafeMutableRawBufferPointer(buffer)
                    bytes.copyMemory(from: UnsafeRawBufferPointer(name))
                    bytes[name.count] = 0
                    UnsafeMutableRawBufferPointer(rebasing: bytes[(name.count + 1)...]).copyMemory(from: UnsafeRawBufferPointer(value))
                    bytes[name.count + 1 + value.count] = 0
                    let base = buffer.baseAddress!
                    MHD_add_response_header(response, base, base + name.count + 1)
                }
            }
        }
    }
}
