import FoundationEssentials

extension OperatorCommand {
    /// `quickcart delivery import FILE [--dry-run]`: the shop's delivery methods from a file,
    /// checked whole, then put in place of the stored ones in one transaction.
    static func importDelivery(_ invocation: Invocation, output: Output) throws -> Int32 {
        let path = invocation.file ?? ""
        guard let data = FileManager.default.contents(atPath: path) else {
            output.report("quickcart: cannot read \(path): \(OperatorCommand.whyUnreadable(path))")
            return failure
        }
        let methods: [DeliveryMethod]
        switch DeliveryFile.read(Array(data)) {
        case .success(let read): methods = read
        case .failure(let failure): return refuse(failure.problems, path: path, output: output)
        }
        let storage = try openExisting(invocation.configuration)
        defer { storage.close() }
        let storedMethods = try storage.deliveryMethods.deliveryMethods()
        let stored = Dictionary(storedMethods.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
        let count = methods.count == 1 ? "1 delivery method" : "\(methods.count) delivery methods"
        if invocation.dryRun {
            output.write("dry run: \(path) is valid (\(count)); nothing was written\n")
        } else {
            try storage.deliveryMethods.replaceDeliveryMethods(methods)
            output.write("imported \(count) from \(path)\n")
        }
        let codes = Set(methods.map(\.code))
        // Each method of the file as the import finds it: new, the same, or changed (its name,
        // price, countries or payment), so a dry run shows what an import will change.
        var lines = methods.map { method in
            guard let before = stored[method.code] else { return "added " + method.code }
            return (before.isSame(as: method) ? "kept " : "changed ") + method.code
        } + Set(stored.keys).subtracting(codes).sorted().map { "removed " + $0 }
        // The Delivery step lists methods in the file's order: a move is a change shoppers see.
        let keptInFileOrder = methods.map(\.code).filter { stored[$0] != nil }
        if keptInFileOrder != storedMethods.map(\.code).filter(codes.contains) {
            lines.append("new order: " + methods.map(\.code).joined(separator: ", "))
        }
        output.write(lines.joined(separator: "\n") + "\n")
        return success
    }

    /// `quickcart delivery export [--format csv|json]`: the methods as a file that imports back unchanged.
    static func exportDelivery(_ invocation: Invocation, output: Output) throws -> Int32 {
        let storage = try openExisting(invocation.configuration)
        defer { storage.close() }
        output.write(DeliveryFile.text(of: try storage.deliveryMethods.deliveryMethods(), format: invocation.format))
        return success
    }
}

private extension DeliveryMethod {
    /// Whether `other` delivers the same way: its countries in any order (`CA US` is `US CA`).
    func isSame(as other: DeliveryMethod) -> Bool {
        var mine = self, theirs = other
        mine.countries.sort()
        theirs.countries.sort()
        return mine == theirs
    }
}
