import CMicroHTTPD

/// What the server gathers about one request across libmicrohttpd's calls to the access
/// handler. Lives in the request's `con_cls` slot; touched only by the thread serving the
/// connection.
final class RequestState {
    var request: Request
    var postProcessor: OpaquePointer?
    var formFields: [(name: [UInt8], value: [UInt8])] = []
    var rejection: HTTPError?
    var bytesReceived = 0
    var answered = false
    let maximumFormFields: Int

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
            rejection = HTTPError(.contentTooLarge, "The form has more than \(maximumFormFields) fields.")
            return false
        }
        formFields.append((name: name, value: Array(piece)))
        return true
    }

    /// Flushes the POST processor and decodes the form fields as UTF-8.
    func finishBody() {
        if let postProcessor {
            // The last urlencoded value is only delivered when the processor is destroyed.
            MHD_destroy_post_processor(postProcessor)
            self.postProcessor = nil
        }
        guard rejection == nil, !formFields.isEmpty else { return }
        var pairs: [Parameters.Pair] = []
        pairs.reserveCapacity(formFields.count)
        for field in formFields {
            guard let name = String(validating: field.name, as: UTF8.self),
                  let value = String(validating: field.value, as: UTF8.self) else {
                rejection = HTTPError(.badRequest, "The form contains text that is not valid UTF-8.")
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
