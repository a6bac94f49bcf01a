extension OperatorCommand {
    /// `quickcart backup FILE`: a checked copy of the SQLite database, made while the shop runs.
    static func backUp(_ invocation: Invocation, output: Output) throws -> Int32 {
        let database = invocation.configuration.databasePath
        let file = invocation.file ?? ""
        guard isSQLiteFile(
            database, output: output, or: "backup copies a SQLite file; for PostgreSQL use pg_dump",
            example: "pg_dump --format=custom --file \(file) '\(Storage.loggable(database))'"
        ) else { return failure }
        let bytes = try Storage.backUp(databasePath: database, to: file)
        output.write("backed up \(database) to \(file): \(bytes) bytes, integrity check ok\n")
        return success
    }

    /// `quickcart restore FILE`: the SQLite database replaced by a backup, unless it is in use.
    static func restore(_ invocation: Invocation, output: Output) throws -> Int32 {
        let database = invocation.configuration.databasePath
        let file = invocation.file ?? ""
        guard isSQLiteFile(
            database, output: output, or: "restore replaces a SQLite file; for PostgreSQL use pg_restore",
            example: "pg_restore --clean --if-exists --dbname '\(Storage.loggable(database))' \(file)"
        ) else { return failure }
        try Storage.restore(from: file, to: database)
        output.write("restored \(database) from \(file)\n")
        return success
    }

    /// Whether `database` (a `--db` value) is a SQLite file; when it is a PostgreSQL URL, reports
    /// `refusal` with PostgreSQL's own command for the job, `example`.
    private static func isSQLiteFile(_ database: String, output: Output, or refusal: String, example: String) -> Bool {
        guard Storage.isPostgreSQL(database) else { return true }
        output.report("quickcart: \(refusal), for example:\n  \(example)\n(see the README)")
        return false
    }
}
