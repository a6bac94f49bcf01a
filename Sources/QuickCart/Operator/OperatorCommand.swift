import FoundationEssentials
import Glibc

/// The operator's subcommands of the `quickcart` executable, over the same storage the server
/// uses (`--db`, `--media` and the other options read as for serving):
///
/// ```
/// quickcart catalog import FILE [--dry-run]
/// quickcart catalog export [--format csv|json]
/// quickcart delivery import FILE [--dry-run]
/// quickcart delivery export [--format csv|json]
/// quickcart orders export [--since DATE] [--format csv|json] [--follow]
/// quickcart orders mark ID paid|shipped|delivered|cancelled [--tracking URL] [--carrier NAME] [--reason TEXT]
/// quickcart backup FILE [--replace]
/// quickcart restore FILE
/// ```
public enum OperatorCommand {
    /// Where a command writes: its output, and its messages and problems (one per line).
    public struct Output: Sendable {
        public let write: @Sendable (String) -> Void
        public let report: @Sendable (String) -> Void

        public init(write: @escaping @Sendable (String) -> Void, report: @escaping @Sendable (String) -> Void) {
            self.write = write
            self.report = report
        }
    }

    /// Exit statuses.
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usageError: Int32 = 2

    /// How often `orders export --follow` looks for new orders.
    public static let followInterval: Duration = .seconds(1)

    /// One command: its noun and verb (`backup` and `restore` are their own verbs) and how it
    /// is called.
    struct Synopsis: Sendable {
        let noun: String
        let verb: String
        let line: String
    }

    /// Every command, in the order the helps list them: `quickcart --help` and this one's
    /// usage lines both come from here, so neither can leave one out.
    static let synopses = [
        Synopsis(noun: "catalog", verb: "import", line: "quickcart catalog import FILE [--dry-run] [options]"),
        Synopsis(noun: "catalog", verb: "export", line: "quickcart catalog export [--format csv|json] [options]"),
        Synopsis(noun: "delivery", verb: "import", line: "quickcart delivery import FILE [--dry-run] [options]"),
        Synopsis(noun: "delivery", verb: "export", line: "quickcart delivery export [--format csv|json] [options]"),
        Synopsis(noun: "orders", verb: "export", line: "quickcart orders export [--since DATE] [--format csv|json] [--follow] [options]"),
        Synopsis(
            noun: "orders", verb: "mark",
            line: "quickcart orders mark ID paid|shipped|delivered|cancelled [--tracking URL] [--carrier NAME] [--reason TEXT] [options]"
        ),
        Synopsis(noun: "backup", verb: "backup", line: "quickcart backup FILE [--replace] [options]"),
        Synopsis(noun: "restore", verb: "restore", line: "quickcart restore FILE [options]"),
    ]

    /// The usage lines of every command, the first after `prefix`, the others indented under it.
    static func usageLines(after prefix: String) -> String {
        prefix + synopses.map(\.line).joined(separator: "\n" + String(repeating: " ", count: prefix.count))
    }

    /// The one line after a usage error (the whole help would bury the error): the usage line
    /// of the command `arguments` name, or where to read them all.
    static func usageHint(for arguments: [String]) -> String {
        let noun = arguments.first ?? ""
        let named = synopses.first { $0.noun == noun && ($0.verb == noun || $0.verb == arguments.dropFirst().first) }
        return named.map { "usage: \($0.line)" } ?? "see quickcart \(noun) --help"
    }

    /// The text of `quickcart catalog --help` (or any command's `--help`).
    public static let usage = usageLines(after: "Usage: ") + """


          import FILE     checks the whole file (CSV with a header row, or JSON), then adds or
                          updates products by slug in one transaction; products missing from the
                          file become inactive. Problems are printed one per line and nothing is
                          written. --dry-run prints what would change and writes nothing.
          catalog export  writes the catalog in the import's format (CSV by default).
          delivery import FILE
                          checks the whole file of delivery methods (code, name, price,
                          countries, free_from, payment, payment_details), then puts them in
                          place of the shop's methods in one transaction; --dry-run writes nothing.
          delivery export writes the delivery methods in the import's format.
          orders export   writes placed orders with their lines; --since 2026-11-30 (or an ISO 8601
                          time) leaves out older ones; --follow keeps running and prints each new
                          order as it is placed and each order again when its state changes
                          (JSON: one object per line).
          orders mark     moves order ID on: placed -> paid, shipped or cancelled; paid -> shipped
                          or cancelled; shipped -> delivered (an order paid by bank transfer is
                          shipped only once paid). shipped takes --tracking URL (http or
                          https) and --carrier NAME, cancelled takes --reason TEXT, all optional.
                          An impossible move or an unknown order is refused and changes nothing.
          backup FILE     copies the SQLite database to FILE while the shop runs (one consistent
                          snapshot, checked, synced, renamed into place) and prints its size. An
                          existing FILE is refused unless --replace is given; the database's own
                          files (itself, its -wal, -shm, -journal, .lock) always are.
          restore FILE    replaces the SQLite database with the copy in FILE; refused while the
                          database is in use (stop the server first). On PostgreSQL use
                          pg_dump and pg_restore (see the README).
          options         every serving option is read as for serving (see quickcart --help); those
                          that matter here: --db PATH, --media DIR (photos; default media/ beside
                          the database), --resources DIR

        """

    /// Whether `arguments` (without the program's name) start with a subcommand.
    public static func isCommand(_ arguments: [String]) -> Bool {
        synopses.contains { $0.noun == arguments.first }
    }

    /// Runs the subcommand `arguments` names.
    /// - Parameter shouldContinue: Asked between polls of `--follow`; it stops when this is false.
    /// - Returns: The exit status: 0, 1 when the work failed (problems printed), 2 for a usage error.
    public static func run(
        arguments: [String], environment: [String: String], output: Output,
        shouldContinue: @escaping @Sendable () -> Bool = { true }
    ) -> Int32 {
        // Reports quote the operator's file (slugs, columns, JSON keys, values) and arguments:
        // each line is made printable as the server's log lines are, so a value holding
        // `ESC ]0;…` or `ESC [2J` shows as escapes instead of driving the terminal.
        let output = Output(write: output.write, report: { text in
            output.report(text.split(separator: "\n", omittingEmptySubsequences: false).map { LogLine.printable($0, limit: 4096) }.joined(separator: "\n"))
        })
        let invocation: Invocation
        do {
            invocation = try Invocation(arguments: arguments, environment: environment)
        } catch {
            output.report("quickcart: \(error)\n\(usageHint(for: arguments))")
            return usageError
        }
        if invocation.wantsHelp {
            output.write(usage)
            return success
        }
        // Lines opening storage logged are written before the process exits.
        defer { Log.output.flush() }
        do {
            switch (invocation.noun, invocation.verb) {
            case ("catalog", "import"): return try importCatalog(invocation, output: output)
            case ("catalog", "export"): return try exportCatalog(invocation, output: output)
            case ("delivery", "import"): return try importDelivery(invocation, output: output)
            case ("delivery", "export"): return try exportDelivery(invocation, output: output)
            case ("backup", _): return try backUp(invocation, output: output)
            case ("restore", _): return try restore(invocation, output: output)
            case ("orders", "mark"): return try markOrder(invocation, output: output)
            default: return try exportOrders(invocation, output: output, shouldContinue: shouldContinue)
            }
        } catch {
            output.report("quickcart: \(error)")
            return failure
        }
    }

    // MARK: - The commands

    private static func importCatalog(_ invocation: Invocation, output: Output) throws -> Int32 {
        let path = invocation.file ?? ""
        guard let data = FileManager.default.contents(atPath: path) else {
            output.report("quickcart: cannot read \(path): \(whyUnreadable(path))")
            return failure
        }
        let configuration = invocation.configuration
        let images = CatalogImages(mediaDirectory: configuration.mediaDirectory)
        let context = CatalogFile.Context(
            hasMediaFile: images.hasFile, knownIcons: knownIcons(resourcesPath: configuration.resourcesPath),
            imageProblem: images.problem(with:), mediaFolder: (images.mediaDirectory, images.hasMediaDirectory)
        )
        let rows: [CatalogFile.Row]
        switch CatalogFile.read(Array(data), context: context) {
        case .success(let read): rows = read
        case .failure(let failure): return refuse(failure.problems, path: path, output: output)
        }
        if rows.contains(where: { $0.image != nil }), let problem = images.thumbnailFolderProblem {
            output.report("quickcart: \(problem); nothing was imported")
            return failure
        }
        // Every photo was checked with the file (its thumbnails made then); now they are written.
        var problems: [CatalogFile.Problem] = []
        var madeImages: [String: ProductImage] = [:]
        for row in rows {
            guard let fileName = row.image else { continue }
            switch images.process(fileName: fileName, write: !invocation.dryRun) {
            case .success(let made): madeImages[row.slug] = made
            case .failure(let problem): problems.append(CatalogFile.Problem(line: row.line, field: "image", message: problem.message))
            }
        }
        guard problems.isEmpty else { return refuse(problems, path: path, output: output) }

        let storage = try openExisting(configuration)
        defer { storage.close() }
        let current = try storage.catalogStore.loadCatalog()
        let stored = current.products
        let entries = CatalogFile.entries(rows, images: madeImages, stored: stored)
        let changes = CatalogChanges(from: stored, to: entries)
        if invocation.dryRun {
            output.write("dry run: \(path) is valid (\(Self.products(entries.count))); nothing was written\n")
        } else if changes.isEmpty, current.origin == .own, stored.map(\.slug).starts(with: entries.map(\.slug)) {
            // The catalog as it is, in its order: a new version would only make every instance
            // reload it and every open page read itself again.
            output.write("\(path) is the catalog as it is (\(Self.products(entries.count))); nothing was written (catalog version \(current.version))\n")
        } else {
            let imported = try storage.catalogStore.importCatalog(entries, origin: .own)
            output.write("imported \(Self.products(entries.count)) from \(path) (catalog version \(imported.version))\n")
        }
        output.write(changes.lines.joined(separator: "\n") + "\n")
        return success
    }

    /// "1 product", "30 products".
    private static func products(_ count: Int) -> String {
        count == 1 ? "1 product" : "\(count) products"
    }

    /// Why `path` could not be read, in the system's words ("No such file or directory"), or
    /// that it is a folder.
    static func whyUnreadable(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return "it is a folder, not a file" }
        return "it cannot be read"
    }

    static func refuse(_ problems: [CatalogFile.Problem], path: String, output: Output) -> Int32 {
        output.report(problems.map { "\(path): \($0)" }.joined(separator: "\n"))
        output.report("quickcart: \(problems.count == 1 ? "1 problem" : "\(problems.count) problems"); nothing was imported")
        return failure
    }

    private static func exportCatalog(_ invocation: Invocation, output: Output) throws -> Int32 {
        let storage = try openExisting(invocation.configuration)
        defer { storage.close() }
        output.write(CatalogFile.text(of: try storage.catalogStore.loadCatalog().products, format: invocation.format))
        return success
    }

    private static func exportOrders(_ invocation: Invocation, output: Output, shouldContinue: @Sendable () -> Bool) throws -> Int32 {
        let storage = try openExisting(invocation.configuration)
        defer { storage.close() }
        let format = invocation.format
        // With --follow, JSON is one object per line (an array could never be closed).
        let asArray = format == .json && !invocation.follow
        if format == .csv { output.write(OrderExport.csvHeader + "\n") }
        if asArray { output.write("[") }
        var lastID: Int64 = 0
        // Moves made from here on print their order again; earlier ones are in its first print.
        var lastMoveID = invocation.follow ? try storage.orderFeed.lastMoveID() : 0
        var written = 0
        func write(_ orders: [Order]) {
            var text = ""
            for order in orders {
                switch format {
                case .csv: text += OrderExport.csvRows(order).map { $0 + "\n" }.joined()
                case .json where asArray: text += (written == 0 ? "\n  " : ",\n  ") + OrderExport.jsonObject(order)
                case .json: text += OrderExport.jsonObject(order) + "\n"
                }
                written += 1
            }
            output.write(text)
        }
        while true {
            let batch = try storage.orderFeed.placedOrders(afterID: lastID, placedSince: invocation.since, limit: 500)
            if !batch.isEmpty {
                write(batch)
                lastID = batch[batch.count - 1].id
                continue
            }
            if invocation.follow {
                let moved = try storage.orderFeed.movedOrders(afterMoveID: lastMoveID, placedSince: invocation.since, limit: 500)
                write(moved.orders)
                if moved.lastMoveID != lastMoveID {
                    lastMoveID = moved.lastMoveID
                    continue
                }
            }
            guard invocation.follow, shouldContinue() else { break }
            sleep(UInt32(followInterval.components.seconds))
            guard shouldContinue() else { break }
        }
        if asArray { output.write(written == 0 ? "]\n" : "\n]\n") }
        return success
    }

    private static func markOrder(_ invocation: Invocation, output: Output) throws -> Int32 {
        guard let mark = invocation.mark else { return usageError }
        let storage = try openExisting(invocation.configuration)
        defer { storage.close() }
        let now = Int64(Date().timeIntervalSince1970.rounded(.down))
        let change = OrderStateChange(state: mark.state, at: now, carrier: mark.carrier, trackingURL: mark.tracking, reason: mark.reason)
        let move: OrderMove
        do {
            move = try storage.orderLife.move(orderID: mark.orderID, by: change)
        } catch let error as OrderMoveError {
            output.report("quickcart: \(error); nothing was changed")
            return failure
        }
        var text = "order \(move.order.number) is now \(move.order.state.rawValue) (\(OrderExport.time(change.at)))"
        if let carrier = change.carrier { text += "; carrier: \(carrier)" }
        if let tracking = change.trackingURL { text += "; tracking: \(tracking)" }
        if let reason = change.reason { text += "; reason: \(reason)" }
        output.write(LogLine.printable(text, limit: 4096) + "\n")
        return success
    }

    /// The database the shop serves from, which must exist: only serving creates one, so a
    /// mistyped `--db` (or none, in the wrong folder) is an error naming the path, never an
    /// empty new database that an export would report as holding no orders.
    static func openExisting(_ configuration: Configuration) throws -> any ShopStorage {
        try Storage.open(configuration, connections: 2, creatingDatabase: false)
    }

    /// The line icons the shop has, when its resources can be found.
    private static func knownIcons(resourcesPath: String?) -> Set<String>? {
        guard let resources = try? Resources.locate(configured: resourcesPath),
              let files = try? FileManager.default.contentsOfDirectory(atPath: resources.public + "/icons") else { return nil }
        return Set(files.filter { $0.hasSuffix(".svg") }.map { String($0.dropLast(4)) })
    }
}

/// A subcommand's arguments, read.
struct Invocation {
    var noun = ""
    var verb = ""
    var file: String?
    var dryRun = false
    var follow = false
    var replace = false
    var format = CatalogFile.Format.csv
    var since: Int64?
    var wantsHelp = false
    var configuration = Configuration()
    /// `orders mark`'s order, state and what was said about the move.
    var mark: Mark?

    struct Mark {
        var orderID: Int64
        var state: OrderState
        var tracking: String?
        var carrier: String?
        var reason: String?
    }

    init(arguments: [String], environment: [String: String]) throws {
        var remaining = arguments[...]
        noun = remaining.popFirst() ?? ""
        if remaining.first == "--help" || remaining.first == "-h" {
            wantsHelp = true
            return
        }
        // `backup FILE` and `restore FILE` are verbs alone.
        let standsAlone = noun == "backup" || noun == "restore"
        verb = standsAlone ? noun : remaining.popFirst() ?? ""
        guard OperatorCommand.synopses.contains(where: { ($0.noun, $0.verb) == (noun, verb) }) else {
            throw Configuration.UsageError(description: "unknown command “\(([noun, verb]).joined(separator: " "))”")
        }
        var serving: [String] = []
        var positional: [String] = []
        var said: [String: String] = [:]
        while let argument = remaining.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let name = argument.hasPrefix("--") ? parts[0] : argument
            func value() throws -> String {
                if parts.count == 2 { return parts[1] }
                // An option's name is never its value: `--tracking --db shop.sqlite` lacks the link.
                guard let next = remaining.first, !next.hasPrefix("--") else {
                    throw Configuration.UsageError(description: "\(name) needs a value (write \(name)=VALUE for one that starts with --)")
                }
                remaining.removeFirst()
                return next
            }
            switch name {
            case "--help", "-h": wantsHelp = true
            case "--dry-run" where verb == "import": dryRun = true
            case "--follow" where verb == "export" && noun == "orders": follow = true
            case "--replace" where noun == "backup": replace = true
            case "--format" where verb == "export":
                let text = try value()
                guard let format = CatalogFile.Format(rawValue: text) else {
                    throw Configuration.UsageError(description: "--format must be csv or json, not “\(text)”")
                }
                self.format = format
            case "--tracking" where verb == "mark", "--carrier" where verb == "mark", "--reason" where verb == "mark":
                guard said[name] == nil else { throw Configuration.UsageError(description: "\(name) is given twice") }
                said[name] = try value()
            case "--since" where noun == "orders" && verb == "export":
                let text = try value()
                guard let since = OrderExport.parseSince(text) else {
                    throw Configuration.UsageError(
                        description: "--since must be a date like 2026-11-30 or an ISO 8601 time with its offset like 2026-11-30T09:00:00Z or 2026-11-30T10:00:00+01:00, not “\(text)”"
                    )
                }
                self.since = since
            case _ where ConfigurationOption.named(name)?.takesValue == true:
                // The serving option's value, never taken for the FILE.
                serving.append(name)
                serving.append(try value())
            case _ where verb == "mark" && name.count > 1 && name.utf8.dropFirst().allSatisfy({ (0x30...0x39).contains($0) }):
                // `orders mark -1 paid`: a number, though it looks like an option.
                positional.append(argument)
            case _ where name.hasPrefix("-"):
                serving.append(argument)
            case _ where verb == "mark":
                positional.append(argument)
            default:
                guard verb == "import" || standsAlone, file == nil else {
                    throw Configuration.UsageError(description: "unexpected argument “\(argument)”")
                }
                file = argument
            }
        }
        if verb == "import" || standsAlone, file == nil, !wantsHelp {
            throw Configuration.UsageError(description: "\(standsAlone ? noun : noun + " import") needs a FILE")
        }
        if standsAlone, file == "" {
            throw Configuration.UsageError(description: "\(noun) needs a FILE, and the name given is empty")
        }
        if verb == "mark", !wantsHelp { mark = try Self.mark(positional, said) }
        configuration = try Configuration.parse(arguments: serving, environment: environment)
    }

    /// `orders mark ID STATE` and its options, checked: operator text is limited and printable,
    /// a tracking link is http(s), and each option belongs to its state.
    private static func mark(_ positional: [String], _ said: [String: String]) throws -> Mark {
        let states = OrderState.allCases.filter { $0 != .placed }.map(\.rawValue).joined(separator: ", ")
        guard positional.count == 2 else {
            throw Configuration.UsageError(description: "orders mark needs an order number and a state (\(states))")
        }
        // "#1042", as the shopper's pages show it and a shopper reads it out, is 1042.
        let number = positional[0].hasPrefix("#") ? String(positional[0].dropFirst()) : positional[0]
        guard !number.isEmpty, number.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw Configuration.UsageError(description: "the order number must be digits like 1042, not “\(positional[0])”")
        }
        // Digits, yet no order's: ids are positive 64-bit integers, as both backends store them.
        guard let id = Int64(number), id > 0 else {
            throw Configuration.UsageError(
                description: "the order number \(number) is out of range: order numbers run from 1 to \(Int64.max)"
            )
        }
        guard let state = OrderState(rawValue: positional[1]), state != .placed else {
            throw Configuration.UsageError(description: "the state must be one of \(states), not “\(positional[1])”")
        }
        let belongs: [String: OrderState] = ["--tracking": .shipped, "--carrier": .shipped, "--reason": .cancelled]
        for (option, _) in said.sorted(by: { $0.key < $1.key }) where belongs[option] != state {
            throw Configuration.UsageError(description: "\(option) goes with \(belongs[option]?.rawValue ?? "")")
        }
        for (option, text) in said.sorted(by: { $0.key < $1.key }) where text.allSatisfy(\.isWhitespace) {
            throw Configuration.UsageError(description: "\(option) is empty")
        }
        if let tracking = said["--tracking"], !OrderStateChange.isTrackingURL(tracking) {
            throw Configuration.UsageError(
                description: "--tracking must be an http:// or https:// link with a host (and a port from 1 to 65535, if any), at most 2048 characters, "
                    + "without spaces, quotes, backslashes, backticks, < or > (percent-encode them: %20, %22, %3C, %3E)"
            )
        }
        if let carrier = said["--carrier"], !OrderStateChange.isPrintable(carrier, within: OrderStateChange.carrierLimit) {
            throw Configuration.UsageError(description: "--carrier must be printable text of at most 80 characters")
        }
        if let reason = said["--reason"], !OrderStateChange.isPrintable(reason, within: OrderStateChange.reasonLimit) {
            throw Configuration.UsageError(description: "--reason must be printable text of at most 500 characters")
        }
        return Mark(orderID: id, state: state, tracking: said["--tracking"], carrier: said["--carrier"], reason: said["--reason"])
    }
}
