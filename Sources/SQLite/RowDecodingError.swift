import RowDecoding

/// A ``Row`` (or ``StatementRow``) value could not be read as the requested type; the
/// storage class (`integer`, `real`, `text`, `blob`) is what a mismatch names.
public typealias RowDecodingError = RowDecoding.RowDecodingError
