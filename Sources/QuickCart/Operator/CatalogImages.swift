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

    /// Why thumbnails cannot be written under `generated/`, or `nil`: asked before an import
    /// that names photos, a dry run too, so that a folder this user may not write (the photos
    /// copied in by root, the import run as the service's user) is named before anything is
    /// made, with what to do about it.
    var thumbnailFolderProblem: String? {
        let folder = Self.generatedDirectory(in: mediaDirectory)
        var isDirectory = false
        // Where the thumbnails go, or where generated/ is made when there is none yet.
        let written = FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) ? folder : mediaDirectory
        guard access(written, W_OK | X_OK) != 0 else { return nil }
        let reason = String(cString: strerror(errno))
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "uid \(geteuid())"
        return "cannot write thumbnails into \(folder) (\(written): \(reason)): make the media folder writable by \(user), the user this runs as (chown -R \(user): \(mediaDirectory))"
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
                } catch let error as WriteError {
                    return .failure(ImageProblem("cannot write the thumbnail of “\(fileName)” into \(folder): \(error.reason)"))
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
                let thumbnail = try ImageProcessor.webPThumbnail(of: bytes, width: width, maximumHeight: width * ProductImage.maximumAspect)
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
        // generated/ sits in the media folder, which the import has checked exists.
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        if mkdir(folder, 0o755) != 0, errno != EEXIST { throw WriteError(path: folder) }
        // Written beside it and renamed, so a server never sends half a file.
        let temporary = path + ".partial-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let error = WriteError(path: temporary)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        guard close(descriptor) == 0, rename(temporary, path) == 0 else {
            let error = WriteError(path: path)
            unlink(temporary)
            throw error
        }
    }

    /// A file or folder that could not be written, with the system's reason (errno's text).
    private struct WriteError: Error {
        let reason: String

        init(path: String) {
            reason = "\(path): \(String(cString: strerror(errno)))"
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
