//! The grip command line (filled in below).
