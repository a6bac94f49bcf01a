import CMicroHTTPD

/// What the server gathers about one request across libmicrohttpd's calls to the access
/// handler. Lives in the request's `con_cls` slot; touched only by the thread serving the
/// connection.
final class RequestState {
    var request: Request
    var postProcessor: OpaquePointer?
    var formFields: [(name: [UInt8], value: [UInt8])] = []
    var rejection: HTTPError?
    /// A form's raw body. It goes to the POST processor in one piece once complete: fed in
    /// pieces, libmicrohttpd 0.9.75 reports a value split inside an escape as two fields.
    var formBody: [UInt8] = []
    /// Checks an urlencoded body's escapes as it arrives; `nil` for other bodies.
    var formEncoding: PercentEncodingValidator?
    /// The bytes a prepared response is sending, kept alive until the request completes.
    var sharedBody: SharedBytes?
    /// The static file the server answers itself; `nil` for requests that go to the responder.
    var staticFile: StaticFiles.File?
    var bytesReceived = 0
    var answered = false
    /// When the responder was called (uptime nanoseconds), for ``Delivery/startedAt``.
    var startedAt: UInt64 = 0
    /// The answer given to libmicrohttpd: its status, its size (`nil` for a stream), and
    /// whether libmicrohttpd took it; reported in a ``Delivery`` when the request completes.
    var answerStatus: HTTPStatus?
    var answerBodyBytes: Int?
    var answerQueued = false
    /// The answer's ``Response/routeSlot`` (the first one queued: a refused stream's error
    /// page keeps the stream's route).
    var answerRouteSlot = -1
    let maximumFormFields: Int

    /// The answer to a form body that cannot be decoded.
    static let malformedForm = HTTPError(
        .badRequest, "The form data could not be read: it is malformed or has a malformed percent-escape.", reason: .malformedForm
    )

    init(request: Request, maximumFormFields: Int) {
        self.request = request
        self.maximumFormFields = maximumFormFields
    }

    /// Adds a piece of a form field from libmicrohttpd's POST processor, which delivers long
    /// values in several pieces with increasing offsets.
    func appendFormData(name: [UInt8], piece: UnsafeRawBufferPointer, offset: UInt64) -> Bool {
        if offset > 0, let last = formFields.indices.last, formFields[last].name == name {
            formFields[last].value.append(contentsOf: piece)
            return true
        }
        guard formFields.count < maximumFormFields else {
            rejection = HTTPError(.contentTooLarge, "The form has more than \(maximumFormFields) fields.", reason: .tooManyFormFields)
            return false
        }
        formFields.append((name: name, value: Array(piece)))
        return true
    }

    /// Runs the POST processor over the complete form body and decodes the fields as UTF-8.
    func finishBody() {
        if rejection == nil, let formEncoding, !formEncoding.isComplete {
            rejection = Self.malformedForm
        }
        if let postProcessor {
            if rejection == nil, !formBody.isEmpty {
                let accepted = formBody.withUnsafeBytes { body in
                    MHD_post_process(postProcessor, body.baseAddress?.assumingMemoryBound(to: CChar.self), body.count)
                }
                if accepted != MHD_Result.YES, rejection == nil { rejection = Self.malformedForm }
            }
            // The last urlencoded value is only delivered when the processor is destroyed.
            MHD_destroy_post_processor(postProcessor)
            self.postProcessor = nil
        }
        guard rejection == nil, !formFields.isEmpty else { return }
        var pairs: [Parameters.Pair] = []
        pairs.reserveCapacity(formFields.count)
        for field in formFields {
            guard let name = field.name.withUnsafeBufferPointer(String.init(utf8Bytes:)),
                  let value = field.value.withUnsafeBufferPointer(String.init(utf8Bytes:)) else {
                rejection = HTTPError(.badRequest, "The form contains text that is not valid UTF-8.", reason: .formNotUTF8)
                return
            }
            pairs.append((name: name, value: value))
        }
        request.form = Parameters(pairs)
    }

    deinit {
        if let postProcessor { MHD_destroy_post_processor(postProcessor) }
    }
}
