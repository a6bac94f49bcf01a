extension OperatorCommand {
    /// `quickcart backup FILE`: a checked copy of the SQLite database, made while the shop runs.
    static func backUp(_ invocation: Invocation, output: Output) throws -> Int32 {
        let database = invocation.configuration.databasePath
        let file = invocation.file ?? ""
        guard !Storage.isPostgreSQL(database) else {
            output.report("quickcart: backup copies a SQLite file; for PostgreSQL use pg_dump, for example:\n"
                + "  pg_dump --format=custom --file \(file) '\(Storage.loggable(database))'\n(see the README)")
            return failure
        }
        let bytes = try Storage.backUp(databasePath: database, to: file)
        output.write("backed up \(database) to \(file): \(bytes) bytes, integrity check ok\n")
        return success
    }

    /// `quickcart restore FILE`: the SQLite database replaced by a backup, unless it is in use.
    static func restore(_ invocation: Invocation, output: Output) throws -> Int32 {
        let database = invocation.configuration.databasePath
        let file = invocation.file ?? ""
        guard !Storage.isPostgreSQL(database) else {
            output.report("quickcart: restore replaces a SQLite file; for PostgreSQL use pg_restore, for example:\n"
                + "  pg_restore --clean --if-exists --dbname '\(Storage.loggable(database))' \(file)\n(see the README)")
            return failure
        }
        try Storage.restore(from: file, to: database)
        output.write("restored \(database) from \(file)\n")
        return success
    }
}
