//! The crate's error type; each kind maps onto one `GripStatus` at the C boundary.

use std::fmt;

/// What went wrong, with a message that names the problem.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// A required pointer was null.
    NullPointer(String),
    /// A value, count, enum or size is out of range or not finite.
    InvalidArgument(String),
    /// A mesh is malformed (indices, degenerate or inverted elements, duplicates).
    InvalidMesh(String),
    /// No object has this id.
    UnknownObject(String),
    /// Newton did not converge; the solver was rolled back.
    NotConverged(String),
    /// The progress callback asked to stop; the solver was rolled back.
    Cancelled(String),
    /// A bug inside grip was caught before it reached the host.
    Panic(String),
}

/// Result with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An [`Error::InvalidArgument`].
    pub fn invalid(msg: impl Into<String>) -> Self {
        Error::InvalidArgument(msg.into())
    }
    /// An [`Error::InvalidMesh`].
    pub fn mesh(msg: impl Into<String>) -> Self {
        Error::InvalidMesh(msg.into())
    }
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            Error::NullPointer(m)
            | Error::InvalidArgument(m)
            | Error::InvalidMesh(m)
            | Error::UnknownObject(m)
            | Error::NotConverged(m)
            | Error::Cancelled(m)
            | Error::Panic(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}
