//! Status codes and the thread-local message of the last failed call.

use crate::error::Error;
use std::cell::RefCell;
use std::ffi::{c_char, CString};

/// Result of every fallible C API call. Numbers are part of the ABI: never reordered or reused.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GripStatus {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullPointer = 1,
    /// A value, count, size, enum or float argument was out of range or not finite.
    InvalidArgument = 2,
    /// A mesh was malformed: bad indices, degenerate, inverted or duplicate elements.
    InvalidMesh = 3,
    /// No object with that id exists in this solver.
    UnknownObject = 4,
    /// Newton did not converge; the solver is as it was before the call.
    NotConverged = 5,
    /// The progress callback cancelled; the solver is as it was before the call.
    Cancelled = 6,
    /// An internal error was caught at the boundary; the solver is as it was before the call.
    Panic = 7,
}

impl From<&Error> for GripStatus {
    fn from(e: &Error) -> Self {
        match e {
            Error::NullPointer(_) => GripStatus::NullPointer,
            Error::InvalidArgument(_) => GripStatus::InvalidArgument,
            Error::InvalidMesh(_) => GripStatus::InvalidMesh,
            Error::UnknownObject(_) => GripStatus::UnknownObject,
            Error::NotConverged(_) => GripStatus::NotConverged,
            Error::Cancelled(_) => GripStatus::Cancelled,
            Error::Panic(_) => GripStatus::Panic,
        }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Stores `message` (interior NULs replaced) as this thread's last error.
pub fn set_last_error(message: &str) {
    let clean = message.replace('\0', " ");
    let c = CString::new(clean).unwrap_or_default();
    LAST_ERROR.with(|m| *m.borrow_mut() = c);
}

/// Message of the last failed call on the calling thread, or "" if the last call succeeded.
/// The string is owned by grip and valid until the next grip call on this thread; never NULL.
#[no_mangle]
pub extern "C" fn grip_last_error() -> *const c_char {
    LAST_ERROR.with(|m| m.borrow().as_ptr())
}
