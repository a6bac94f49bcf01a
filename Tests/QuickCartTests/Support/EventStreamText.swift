@testable import MicroHTTP

extension EventStream {
    /// What the stream has queued and not yet sent, as text; reading it empties the queue.
    func drainedText() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(into: $0) }
            guard let count, count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
