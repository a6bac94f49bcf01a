extension OperatorCommand {
    /// `quickcart backup FILE [--replace]`: a checked copy of the SQLite database, made while
    /// the shop runs, in a new FILE (or in place of an existing one with `--replace`).
    static func backUp(_ invocation: Invocation, output: Output) throws -> Int32 {
        try onSQLiteFile(
            invocation, output: output, or: "backup copies a SQLite file; for PostgreSQL use pg_dump",
            example: { database, file in "pg_dump --format=custom --file \(file) '\(Storage.loggable(database))'" }
        ) { database, file in
            let bytes = try Storage.backUp(databasePath: database, to: file, replacing: invocation.replace)
            return "backed up \(database) to \(file): \(bytes) bytes, integrity check ok"
        }
    }

    /// `quickcart restore FILE`: the SQLite database replaced by a backup, unless it is in use
    /// or FILE is the database itself.
    static func restore(_ invocation: Invocation, output: Output) throws -> Int32 {
        try onSQLiteFile(
            invocation, output: output, or: "restore replaces a SQLite file; for PostgreSQL use pg_restore",
            example: { database, file in "pg_restore --clean --if-exists --dbname '\(Storage.loggable(database))' \(file)" }
        ) { database, file in
            // Said, so that a mistyped --db does not pass for the shop's database restored.
            let report = try Storage.restore(from: file, to: database)
            var line = "restored \(database) from \(file)" + (report.madeNewFile ? " (a new file: there was no database there before)" : "")
            // Order numbers are what shoppers quote and bank transfers carry: say which ones
            // the backup does not know, and that new orders take them again.
            if let again = report.numbersGivenAgain {
                let numbers = again.count == 1 ? "order #\(again.lowerBound) is" : "orders #\(again.lowerBound) to #\(again.upperBound) are"
                line += "\nnote: \(numbers) not in the backup (the database replaced had \(again.count == 1 ? "it" : "them")), and new orders will be given "
                    + "\(again.count == 1 ? "that number" : "those numbers") again: check payments and shoppers' messages that name \(again.count == 1 ? "it" : "them")"
            }
            return line
        }
    }

    /// Runs `command` with the `--db` value and FILE, and writes the line it returns, when
    /// `--db` is a SQLite file; when it names PostgreSQL, reports `refusal` with PostgreSQL's
    /// own command for the job, `example`, instead.
    private static func onSQLiteFile(
        _ invocation: Invocation, output: Output, or refusal: String,
        example: (_ database: String, _ file: String) -> String,
        _ command: (_ database: String, _ file: String) throws -> String
    ) throws -> Int32 {
        let database = invocation.configuration.databasePath
        let file = invocation.file ?? ""
        guard !Storage.isPostgreSQL(database) else {
            output.report("quickcart: \(refusal), for example:\n  \(example(database, file))\n(see the README)")
            return failure
        }
        output.write(try command(database, file) + "\n")
        return success
    }
}
