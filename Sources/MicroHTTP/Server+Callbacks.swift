import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

// MARK: - C callbacks (they capture nothing; context travels in their `cls` arguments)

let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, upload, uploadSize, slot in
    guard let cls, let connection, let url, let method, let version, let uploadSize, let slot else { return MHD_Result.NO }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    let handled = server.handle(connection: connection, url: url, method: method, version: version, upload: upload, uploadSize: uploadSize, slot: slot)
    return handled ? MHD_Result.YES : MHD_Result.NO
}

let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, slot, termination in
    guard let cls else { return }
    Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue().completed(connection, slot, termination)
}

let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, event in
    guard let cls, let connection, let socketContext else { return }
    Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue().connection(connection, changed: event, socketContext: socketContext)
}

/// Asked before each connection is taken: `NO` refuses (closes) it unread.
let acceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
    guard let cls else { return MHD_Result.YES }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    guard server.configuration.connectionsPerIPLimit > 0 else { return MHD_Result.YES }
    let client = IPAddress(socketAddress: address)
    return server.connectionsPerClient.withLock { $0.admits(client) } ? MHD_Result.YES : MHD_Result.NO
}

/// Sees the raw request target before libmicrohttpd decodes it; its answer, a ``RawTarget``
/// mark, becomes the request's initial `con_cls`. With a `cls` (the server, when its responder
/// reads raw targets) it also copies the target into the connection's context, where the
/// access handler's first call finds it: libmicrohttpd decodes the target in place after this.
let rawURIInspector: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { cls, uri, connection in
    guard let uri else { return RawTarget(isWellFormed: false, length: 0).slotValue }
    if cls != nil, let connection, let context = ConnectionContext.of(connection) {
        let text = RawTarget.text(of: uri)
        context.rawTarget.withLock { $0 = text }
    }
    return RawTarget(inspecting: uri).slotValue
}

/// Hands each name and value to the visitor `cls` points to, as Swift strings: a name that is
/// not UTF-8 is decoded with replacement characters, a value that is not UTF-8 becomes `nil`,
/// and a missing value (a query's `?utm_source`, which libmicrohttpd gives as NULL) is empty.
let valueVisitor: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    visitField(cls, key, keySize, value.map { bytes($0, count: valueSize) })
}

/// ``valueVisitor`` for header fields: each value also without the spaces and tabs around it,
/// which are no part of it (RFC 9110 §5.5). libmicrohttpd drops those before a value, not those
/// after it; the bytes are cut before they become a string, so trimming allocates nothing.
let headerVisitor: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    visitField(cls, key, keySize, value.map { withoutBlanksAround(bytes($0, count: valueSize)) })
}

fileprivate func visitField(_ cls: UnsafeMutableRawPointer?, _ key: UnsafePointer<CChar>?, _ keySize: Int, _ value: UnsafeBufferPointer<UInt8>?) -> MHD_Result {
    guard let cls, let key else { return MHD_Result.YES }
    let visit = cls.assumingMemoryBound(to: ((String, String?) -> Void).self)
    let name = validUTF8(key, count: keySize) ?? String(decoding: bytes(key, count: keySize), as: UTF8.self)
    visit.pointee(name, value.map { String(utf8Bytes: $0) } ?? "")
    return MHD_Result.YES
}

/// `field` without the spaces and tabs at either end.
fileprivate func withoutBlanksAround(_ field: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0, end = field.count
    while start < end, field[start] == 0x20 || field[start] == 0x09 { start += 1 }
    while end > start, field[end - 1] == 0x20 || field[end - 1] == 0x09 { end -= 1 }
    return UnsafeBufferPointer(rebasing: field[start..<end])
}

/// Clears the `Bool` `cls` points to at the first name or value with a byte outside ASCII.
let asciiChecker: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls else { return MHD_Result.NO }
    let isASCII = { (text: UnsafePointer<CChar>?, count: Int) in
        text.map { bytes($0, count: count).allSatisfy { $0 < 0x80 } } ?? true
    }
    guard isASCII(key, keySize), isASCII(value, valueSize) else {
        cls.assumingMemoryBound(to: Bool.self).pointee = false
        return MHD_Result.NO
    }
    return MHD_Result.YES
}

/// libmicrohttpd's text of `count` bytes as a string, or `nil` when it is not UTF-8.
fileprivate func validUTF8(_ text: UnsafePointer<CChar>, count: Int) -> String? {
    String(utf8Bytes: bytes(text, count: count))
}

/// C text as bytes (`CChar` and `UInt8` are related types, so viewing one as the other is allowed).
fileprivate func bytes(_ text: UnsafePointer<CChar>, count: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: count)
}

let formFieldReceiver: MHD_PostDataIterator = { cls, _, key, _, _, _, data, offset, size in
    guard let cls, let key else { return MHD_Result.YES }
    let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    let name = Array(UnsafeRawBufferPointer(start: key, count: strlen(key)))
    let piece = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    return state.appendFormData(name: name, piece: piece, offset: offset) ? MHD_Result.YES : MHD_Result.NO
}

/// libmicrohttpd is done with a response's shared bytes.
let sharedBytesSent: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<SharedBytes>.fromOpaque(cls).release()
}

/// libmicrohttpd is done with a response's lent body.
let lentBytesSent: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<LentBytes>.fromOpaque(cls).release()
}

let eventStreamReader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
    guard let cls, let buffer else { return -1 }
    let stream = Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue()
    guard let count = stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) else {
        return -1 // MHD_CONTENT_READER_END_OF_STREAM
    }
    return count
}

let eventStreamFinished: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<EventStream>.fromOpaque(cls).takeRetainedValue().finish()
}

let libraryLogSink: @convention(c) (UnsafePointer<CChar>?) -> Void = { message in
    guard let message else { return }
    var line = "microhttpd: " + String(cString: message)
    if !line.hasSuffix("\n") { line += "\n" }
    _ = line.withCString { write(2, $0, strlen($0)) }
}
