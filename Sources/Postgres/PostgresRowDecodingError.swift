import RowDecoding

/// A ``PostgresRow`` value could not be read as the requested type; the value's kind
/// (`integer`, `double`, `numeric`, `bool`, `text`, `bytes`) is what a mismatch names.
public typealias PostgresRowDecodingError = RowDecodingError
