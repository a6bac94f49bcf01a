import FoundationEssentials
import Glibc
import Synchronization
import Vips

/// The photos of an import: each original in the media folder is checked and made into the
/// thumbnails pages show (``ProductImage/widths``), as WebP without metadata, under
/// `generated/` in the media folder and named by the original's content hash. The server only
/// ever sends these files; it never decodes an image.
///
/// Each original is decoded once per import: the check of the file makes its thumbnails in
/// memory, and the import writes those.
final class CatalogImages: Sendable {
    /// The folder of the operator's originals.
    let mediaDirectory: String

    /// An original checked, with its thumbnails made.
    private struct Prepared: Sendable {
        let image: ProductImage
        let thumbnails: [(width: Int, bytes: [UInt8])]
    }

    private let prepared = Mutex<[String: Result<Prepared, ImageProblem>]>([:])

    init(mediaDirectory: String) {
        self.mediaDirectory = mediaDirectory
        // libvips names the program in its warnings. Should it fail to load, the first image
        // reports that, with the file's name, so the error is not needed here.
        _ = try? ImageProcessor.start(programName: "quickcart")
    }

    /// Larger originals are refused: decoding one would take too much memory.
    static let maximumSide = 12_000
    static let maximumPixels = 50_000_000
    static let maximumFileBytes = 50 << 20

    /// Where thumbnails go: `generated/` inside the media folder.
    static func generatedDirectory(in mediaDirectory: String) -> String {
        mediaDirectory + "/generated"
    }

    /// Whether the media folder exists (an import naming photos needs it).
    var hasMediaDirectory: Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: mediaDirectory, isDirectory: &isDirectory) && isDirectory
    }

    /// Whether the media folder holds a regular file `name`.
    func hasFile(_ name: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: mediaDirectory + "/" + name, isDirectory: &isDirectory) && !isDirectory
    }

    /// Why the original `fileName` cannot be used, or `nil` when it can (its thumbnails are
    /// then made, in memory).
    func problem(with fileName: String) -> String? {
        guard case .failure(let problem) = process(fileName: fileName, write: false) else { return nil }
        return problem.message
    }

    /// Checks the original `fileName` and makes its thumbnails (once); writes them only when `write`.
    /// - Returns: The photo, or a message saying why the file cannot be used.
    func process(fileName: String, write: Bool) -> Result<ProductImage, ImageProblem> {
        let result: Result<Prepared, ImageProblem>
        if let known = prepared.withLock({ $0[fileName] }) {
            result = known
        } else {
            result = prepare(fileName)
            prepared.withLock { $0[fileName] = result }
        }
        return result.flatMap { prepared in
            guard write else { return .success(prepared.image) }
            let folder = Self.generatedDirectory(in: mediaDirectory)
            for thumbnail in prepared.thumbnails {
                do {
                    try Self.writeOnce(thumbnail.bytes, to: folder + "/" + prepared.image.thumbnailName(width: thumbnail.width))
                } catch {
                    return .failure(ImageProblem("cannot write the thumbnail of “\(fileName)” into \(folder): \(error)"))
                }
            }
            return .success(prepared.image)
        }
    }

    private func prepare(_ fileName: String) -> Result<Prepared, ImageProblem> {
        let path = mediaDirectory + "/" + fileName
        let bytes: [UInt8]
        switch Self.read(path, fileName: fileName) {
        case .success(let read): bytes = read
        case .failure(let problem): return .failure(problem)
        }
        guard ImageFormat(magic: bytes) != nil else {
            let kind = ImageFormat.otherKind(magic: bytes).map { "it holds \($0), not" } ?? "it is not"
            return .failure(ImageProblem("“\(fileName)” is not a readable image: \(kind) a JPEG, PNG or WebP image"))
        }
        let header: ImageProcessor.Header
        do {
            header = try ImageProcessor.header(of: bytes)
        } catch {
            return .failure(ImageProblem("“\(fileName)” is not a readable image (\(error))"))
        }
        guard header.width <= Self.maximumSide, header.height <= Self.maximumSide, header.width * header.height <= Self.maximumPixels else {
            return .failure(ImageProblem(
                "“\(fileName)” is \(header.width) × \(header.height) pixels; the limit is \(Self.maximumSide) pixels a side and \(Self.maximumPixels / 1_000_000) megapixels"
            ))
        }
        var thumbnails: [(width: Int, bytes: [UInt8])] = []
        var widest: ImageProcessor.Encoded?
        for width in ProductImage.widths {
            do {
                let thumbnail = try ImageProcessor.webPThumbnail(of: bytes, width: width)
                thumbnails.append((width, thumbnail.bytes))
                widest = thumbnail
            } catch {
                return .failure(ImageProblem("“\(fileName)” is damaged or cannot be decoded (\(error))"))
            }
        }
        guard let widest else { return .failure(ImageProblem("no thumbnail sizes are configured")) }
        let image = ProductImage(fileName: fileName, key: Hex.encode(SHA256.hash(bytes)), width: widest.width, height: widest.height)
        return .success(Prepared(image: image, thumbnails: thumbnails))
    }

    /// The file's bytes, read only once its size is known to be within the limit: a huge file is
    /// refused by its size, not read into memory first.
    private static func read(_ path: String, fileName: String) -> Result<[UInt8], ImageProblem> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(ImageProblem("cannot read \(path)")) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .failure(ImageProblem("cannot read \(path)"))
        }
        guard status.st_size <= maximumFileBytes else {
            return .failure(ImageProblem("“\(fileName)” is larger than \(maximumFileBytes >> 20) MB"))
        }
        // One byte more than the size said: a file that grew meanwhile is still bounded.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return .failure(ImageProblem("cannot read \(path)")) }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumFileBytes else {
            return .failure(ImageProblem("“\(fileName)” is larger than \(maximumFileBytes >> 20) MB"))
        }
        bytes.removeLast(bytes.count - count)
        return .success(bytes)
    }

    /// Writes `bytes` to `path` unless it exists: a name holds the hash of its original, so
    /// its bytes never change once served (the ETag is strong and the URL immutable).
    private static func writeOnce(_ bytes: [UInt8], to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Written beside it and renamed, so a server never sends half a file.
        let temporary = path + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        if rename(temporary, path) != 0 {
            let code = errno
            try? FileManager.default.removeItem(atPath: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }
}

/// Why a photo cannot be imported.
struct ImageProblem: Error, Equatable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
