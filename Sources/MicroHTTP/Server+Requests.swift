import CMicroHTTPD
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

extension Server {
    // MARK: - Requests

    /// One call of libmicrohttpd's access handler; see `MHD_AccessHandlerCallback`.
    func handle(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>,
        upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> Bool {
        guard let stateAddress = slot.pointee, RawTarget(slot: stateAddress) == nil else {
            let target = RawTarget(slot: slot.pointee)
            let uriIsWellFormed = target?.isWellFormed(url: url, version: version) ?? false
            var refusal = headRefusal(of: connection, targetLength: target?.length ?? 0, version: version)
            if refusal == nil, target?.hasEscapedSlash == true {
                // The decoded path would put a separator where the client wrote none, and no
                // path segment can hold a "/": such a path names nothing here.
                refusal = HTTPError(.notFound, "There is no page at this address.", reason: .notFound)
            }
            // A target a NUL cut short is not what was sent: a responder reading raw targets gets none.
            let rawTarget = responder.readsRawTargets && target?.isWhole(url: url, version: version) == true
                ? ConnectionContext.of(connection)?.rawTarget.withLock { $0 } ?? "" : ""
            return begin(
                connection: connection, url: url, rawTarget: rawTarget, method: method, uriIsWellFormed: uriIsWellFormed, refusal: refusal, slot: slot
            )
        }
        let state = Unmanaged<RequestState>.fromOpaque(stateAddress).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            defer { uploadSize.pointee = 0 }
            return receive(upload, count: uploadSize.pointee, into: state)
        }
        guard !state.answered else { return true }
        watchdog.answering(connection)
        if let file = state.staticFile {
            state.answered = true
            let tags = MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "If-None-Match").map { String(cString: $0) }
            return queue(answer(for: file, on: connection, ifNoneMatch: tags), on: connection, for: state)
        }
        state.finishBody()
        state.startedAt = DispatchTime.now().uptimeNanoseconds
        let response = if let rejection = state.rejection {
            responder.respond(to: rejection, for: state.request)
        } else {
            responder.respond(to: state.request)
        }
        state.answered = true
        return queue(response, on: connection, for: state)
    }

    /// The first call: headers are in, the body (if any) is not.
    private func begin(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        rawTarget: String,
        method: UnsafePointer<CChar>,
        uriIsWellFormed: Bool,
        refusal: HTTPError?,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> Bool {
        // A path that is not UTF-8 is refused below, yet kept with U+FFFD for each bad byte (as
        // `String(cString:)` reads it): the responder still sees where the request was meant
        // to go, and can refuse it in that part's own format.
        let validPath = String(validatingCString: url)
        let pathIsUTF8 = validPath != nil
        var path = validPath ?? String(cString: url)
        var refusal = refusal
        var hostOfTarget: String?
        switch RequestTargetForm(path) {
        case .absolute(let authority, let pathOfTarget):
            path = pathOfTarget
            hostOfTarget = authority
        case .invalid(let why):
            refusal = refusal ?? HTTPError(.badRequest, why, reason: .malformedAddress)
        case .path:
            break
        }
        if uriIsWellFormed, pathIsUTF8, refusal == nil, let file = staticFile(for: connection, path: path, method: method) {
            watchdog.headersReceived(connection)
            let state = RequestState(request: Request(method: .get, path: ""), maximumFormFields: 0)
            state.staticFile = file
            slot.pointee = Unmanaged.passRetained(state).toOpaque()
            requestsInFlight.add(1, ordering: .sequentiallyConsistent)
            return true
        }
        let query = Self.values(of: MHD_ValueKind.GET_ARGUMENT_KIND, on: connection)
        let decodedQuery = query.compactMap { pair in pair.value.map { (name: pair.name, value: $0) } }
        // A value that is not UTF-8 became nil: the request is refused below, with no query.
        let queryIsUTF8 = decodedQuery.count == query.count
        var headers = Self.headers(on: connection)
        if let hostOfTarget { headers["Host"] = hostOfTarget }
        if refusal == nil, let host = headers["Host"], !RequestTargetForm.isAuthority(host) {
            refusal = HTTPError(.badRequest, "The request's host is not a host name, an address or a port.", reason: .malformedHost)
        }
        let peer = Self.clientAddress(of: connection)
        let request = Request(
            method: HTTPMethod(rawValue: String(cString: method)),
            path: path,
            target: rawTarget,
            query: queryIsUTF8 ? Parameters(decodedQuery) : Parameters(),
            headers: headers,
            cookies: Self.cookies(on: connection),
            remoteAddress: trustedProxies.isEmpty ? peer : trustedProxies.clientAddress(peer: peer, forwardedFor: headers.values(named: "X-Forwarded-For"))
        )
        watchdog.headersReceived(connection)
        let state = RequestState(request: request, maximumFormFields: configuration.maximumFormFields)
        slot.pointee = Unmanaged.passRetained(state).toOpaque()
        requestsInFlight.add(1, ordering: .sequentiallyConsistent)

        let body = BodyFields(request.headers)
        if isStopping.load(ordering: .sequentiallyConsistent) {
            // Stopping means no new work, even on connections kept alive from before.
            state.rejection = HTTPError(
                .serviceUnavailable, "The server is shutting down. Please try again in a moment.", reason: .shuttingDown, headers: ["Retry-After": "5"]
            )
        } else if let refusal {
            state.rejection = refusal
        } else if !uriIsWellFormed || !pathIsUTF8 || !queryIsUTF8 {
            state.rejection = HTTPError(
                .badRequest, "The address contains a malformed percent-escape or text that is not valid UTF-8.", reason: .malformedAddress
            )
        } else if body.hasUnknownCoding {
            // RFC 9112 §6.1: a transfer coding the server does not understand is a 501.
            state.rejection = HTTPError(
                .notImplemented, "The request's body is sent in a transfer coding this server does not read.", reason: .unknownTransferCoding
            )
        } else if body.hasAmbiguousLength {
            // Two lengths, or a length beside chunked encoding, is how requests get smuggled
            // past a proxy that reads the body differently.
            state.rejection = HTTPError(.badRequest, "The request states its length more than once.", reason: .repeatedLength)
        } else if let length = body.length.flatMap(Int.init), length > configuration.maximumBodySize {
            state.rejection = Self.bodyTooLarge(limit: configuration.maximumBodySize)
        }
        if let rejection = state.rejection {
            // Answering now makes libmicrohttpd close the connection instead of reading the body.
            state.answered = true
            watchdog.answering(connection)
            state.startedAt = DispatchTime.now().uptimeNanoseconds
            return queue(responder.respond(to: rejection, for: state.request), on: connection, for: state)
        }
        let contentType = body.contentType ?? ""
        let isURLEncodedForm = Self.mediaType(contentType, startsWith: "application/x-www-form-urlencoded")
        if isURLEncodedForm {
            state.formEncoding = PercentEncodingValidator(rejectsControlCharacters: false)
        }
        if isURLEncodedForm || Self.mediaType(contentType, startsWith: "multipart/form-data") {
            let stateAddress = Unmanaged.passUnretained(state).toOpaque()
            // The buffer only has to hold a field's name (values arrive in pieces); libmicrohttpd
            // zeroes all of it for every form, so it is kept at the 1 KiB its manual suggests.
            state.postProcessor = MHD_create_post_processor(connection, 1024, formFieldReceiver, stateAddress)
        }
        return true
    }


    /// Why the request line and header fields are refused before anything else is read of
    /// them, or `nil`: a target or header fields past the limits (the connection's memory is
    /// larger, so that these answers are the server's and not libmicrohttpd's bare ones), an
    /// HTTP/1.1 request without the `Host` it requires, or any with two. Static files are
    /// checked the same way.
    private func headRefusal(of connection: OpaquePointer, targetLength: Int, version: UnsafePointer<CChar>) -> HTTPError? {
        if targetLength > configuration.maximumTargetLength {
            return HTTPError(.uriTooLong, "The address is longer than the \(configuration.maximumTargetLength / 1024) KiB this server accepts.", reason: .targetTooLong)
        }
        var fieldCount: UInt32 = 0, hostCount: UInt32 = 0, malformedCount: UInt32 = 0
        let headerBytes = cmhd_header_bytes(connection, &fieldCount, &hostCount, &malformedCount)
        // A field a front end may read otherwise (`Content-Length : 3`, which libmicrohttpd
        // ignores, leaving the body to be read as the next request) or one libmicrohttpd ends
        // the head at (`: value`, first among the fields): what follows might be read as
        // another request on this connection. So the request is refused, and the connection closed.
        if malformedCount > 0 {
            return HTTPError(
                .badRequest, "The request has a header field whose name is empty or holds a space or another character no name may have.",
                reason: .malformedField, headers: ["Connection": "close"]
            )
        }
        if fieldCount > configuration.maximumHeaderFields {
            return HTTPError(.requestHeaderFieldsTooLarge, "The request has more than \(configuration.maximumHeaderFields) header fields.", reason: .headerFieldsTooLarge)
        }
        if headerBytes > configuration.maximumHeaderBytes {
            return HTTPError(
                .requestHeaderFieldsTooLarge, "The request's header fields are larger than the \(configuration.maximumHeaderBytes / 1024) KiB this server accepts.",
                reason: .headerFieldsTooLarge
            )
        }
        // Two Host fields leave open which site is meant (RFC 9112 §3.2 asks for 400 in any
        // version). HTTP/1.0 (and a request line without a version) may leave Host out;
        // libmicrohttpd answers every version but 1.0 and 1.1 itself, with 505.
        if hostCount > 1 {
            return HTTPError(.badRequest, "The request has more than one Host header.", reason: .repeatedHost)
        }
        if hostCount == 0, version.pointee != 0, strcmp(version, "HTTP/1.0") != 0 {
            return HTTPError(.badRequest, "The request has no Host header, which HTTP/1.1 requires.", reason: .missingHost)
        }
        return nil
    }

    /// Takes a piece of the body. A body that outgrows the limit is discarded and answered
    /// with 413 once complete (libmicrohttpd accepts an answer only before or after the body);
    /// one that goes on far past the limit gets its connection closed.
    private func receive(_ upload: UnsafePointer<CChar>?, count: Int, into state: RequestState) -> Bool {
        state.bytesReceived += count
        guard !state.answered, state.rejection == nil, let upload else {
            return state.bytesReceived <= configuration.maximumBodySize * 16
        }
        if state.bytesReceived > configuration.maximumBodySize {
            state.rejection = Self.bodyTooLarge(limit: configuration.maximumBodySize)
        } else if state.postProcessor != nil {
            let piece = UnsafeRawBufferPointer(start: upload, count: count)
            state.formEncoding?.feed(piece)
            state.formBody.append(contentsOf: piece)
        } else {
            state.request.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: count))
        }
        return true
    }

    /// Whether `contentType`, lowercased, begins with `prefix` (lowercase). An ASCII value, as
    /// they are, is compared byte by byte instead of being lowercased into a new string.
    private static func mediaType(_ contentType: String, startsWith prefix: String) -> Bool {
        var value = contentType, prefix = prefix
        let isASCIIMatch = value.withUTF8 { bytes in
            prefix.withUTF8 { prefix -> Bool? in
                guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
                guard bytes.count >= prefix.count else { return false }
                for index in prefix.indices {
                    let byte = bytes[index], lower = prefix[index]
                    guard byte == lower || (byte | 0x20 == lower && lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) else { return false }
                }
                return true
            }
        }
        return isASCIIMatch ?? contentType.lowercased().hasPrefix(prefix)
    }

    private static func bodyTooLarge(limit: Int) -> HTTPError {
        HTTPError(.contentTooLarge, "The request body is larger than the \(limit / 1024) KiB this server accepts.", reason: .bodyTooLarge)
    }

    /// What the header fields say about the body, read in one pass over them: this runs for
    /// every request, and looking each name up scans the fields again.
    private struct BodyFields {
        /// How many `Content-Length` fields there are, and the first one's value.
        private(set) var lengthCount = 0
        private(set) var length: String?
        private(set) var isChunked = false
        /// Whether a `Transfer-Encoding` names anything but `chunked`, or comes twice: the
        /// length of such a body is unknowable here (libmicrohttpd would read it until the
        /// client closes).
        private(set) var hasUnknownCoding = false
        /// The first `Content-Type`.
        private(set) var contentType: String?

        init(_ headers: HTTPHeaders) {
            for field in headers {
                if field.name.equalsIgnoringASCIICase("Content-Length") {
                    lengthCount += 1
                    if length == nil { length = field.value }
                } else if field.name.equalsIgnoringASCIICase("Transfer-Encoding") {
                    hasUnknownCoding = isChunked || !field.value.equalsIgnoringASCIICase("chunked")
                    isChunked = true
                } else if contentType == nil, field.name.equalsIgnoringASCIICase("Content-Type") {
                    contentType = field.value
                }
            }
        }

        /// Two lengths, or a length beside chunked encoding.
        var hasAmbiguousLength: Bool { lengthCount > 1 || (lengthCount == 1 && isChunked) }
    }

    func completed(_ connection: OpaquePointer?, _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ termination: MHD_RequestTerminationCode) {
        if let connection { watchdog.answered(connection) }
        guard let stateAddress = slot?.pointee, RawTarget(slot: stateAddress) == nil else { return }
        let state = Unmanaged<RequestState>.fromOpaque(stateAddress).takeUnretainedValue()
        // Static files are the server's own answers; the responder hears only of its own.
        if state.staticFile == nil, let status = state.answerStatus {
            let isStream = state.answerBodyBytes == nil
            let isSent = state.answerQueued && (isStream || termination == MHD_RequestTerminationCode.REQUEST_TERMINATED_COMPLETED_OK)
            responder.completed(state.request, Delivery(status: status, bodyBytes: state.answerBodyBytes, startedAt: state.startedAt, isSent: isSent, routeSlot: state.answerRouteSlot))
        }
        Unmanaged<RequestState>.fromOpaque(stateAddress).release()
        slot?.pointee = nil
        requestsInFlight.subtract(1, ordering: .relaxed)
    }

    func connection(
        _ connection: OpaquePointer, changed event: MHD_ConnectionNotificationCode, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) {
        // Without a per-address limit there is nothing to count (the default behind a proxy).
        let counts = configuration.connectionsPerIPLimit > 0
        if event == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
            watchdog.connectionStarted(connection, socketContext: socketContext)
            if counts {
                let address = IPAddress(clientOf: connection)
                connectionsPerClient.withLock { $0.started(connection, address: address) }
            }
        } else {
            if counts { connectionsPerClient.withLock { $0.closed(connection) } }
            watchdog.connectionClosed(connection, socketContext: socketContext)
        }
    }

    // MARK: - Reading what libmicrohttpd parsed

    /// Calls `body` with each name and value of `kind`, in order, as `visitor` reads them.
    private static func forEachValue(
        of kind: MHD_ValueKind, on connection: OpaquePointer, visitor: MHD_KeyValueIteratorN = valueVisitor, _ body: (String, String?) -> Void
    ) {
        withoutActuallyEscaping(body) { body in
            var visit = body
            withUnsafeMutablePointer(to: &visit) { pointer in
                _ = MHD_get_connection_values_n(connection, kind, visitor, pointer)
            }
        }
    }

    private static func values(of kind: MHD_ValueKind, on connection: OpaquePointer) -> [(name: String, value: String?)] {
        var collected: [(name: String, value: String?)] = []
        forEachValue(of: kind, on: connection) { collected.append((name: $0, value: $1)) }
        return collected
    }

    private static func headers(on connection: OpaquePointer) -> HTTPHeaders {
        // Counting first (a walk of libmicrohttpd's list) spares the array's regrowth.
        var headers = HTTPHeaders(minimumCapacity: Int(MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, nil, nil)))
        forEachValue(of: MHD_ValueKind.HEADER_KIND, on: connection, visitor: headerVisitor) { headers.add($0, $1 ?? "") }
        return headers
    }

    private static func cookies(on connection: OpaquePointer) -> Cookies {
        var cookies = Cookies()
        forEachValue(of: MHD_ValueKind.COOKIE_KIND, on: connection) { cookies.append(name: $0, value: $1 ?? "") }
        return cookies
    }

    private static func clientAddress(of connection: OpaquePointer) -> String {
        ConnectionContext.of(connection)?.peerAddress ?? ConnectionContext.peerAddress(of: connection)
    }
}
