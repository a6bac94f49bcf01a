import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request whose answer is read as it arrives (an event stream never ends by
/// itself): its head first, then its body in pieces. Ending the iteration cancels the request.
enum StreamingConnection {
    /// What arrives, in order: one ``head``, then any number of ``body`` pieces.
    enum Piece: Sendable {
        case head(status: Int, contentType: String?, retryAfter: String?)
        case body(Data)
    }

    /// Sends `request` on a session of its own and returns what arrives.
    static func open(_ request: URLRequest, requestTimeout: TimeInterval) -> AsyncThrowingStream<Piece, any Error> {
        AsyncThrowingStream { continuation in
            let session = URLSession(configuration: QuickCartClient.configuration(requestTimeout: requestTimeout),
                                     delegate: Receiver(continuation), delegateQueue: nil)
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }

    /// Passes what URLSession delivers on to the stream.
    private final class Receiver: NSObject, URLSessionDataDelegate, Sendable {
        let continuation: AsyncThrowingStream<Piece, any Error>.Continuation

        init(_ continuation: AsyncThrowingStream<Piece, any Error>.Continuation) {
            self.continuation = continuation
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            let http = response as? HTTPURLResponse
            continuation.yield(.head(status: http?.statusCode ?? 0, contentType: http?.value(forHTTPHeaderField: "Content-Type"),
                                     retryAfter: http?.value(forHTTPHeaderField: "Retry-After")))
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            continuation.yield(.body(data))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            if let error {
                continuation.finish(throwing: error)
            } else {
                continuation.finish()
            }
        }
    }
}
