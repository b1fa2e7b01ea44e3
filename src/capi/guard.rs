//! The boundary guard: no panic unwinds into the host, every failure becomes a status and a
//! message, and raw pointers from C are turned into checked slices and references.

use super::status::{set_last_error, GripStatus};
use crate::error::{Error, Result};
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `body`, converting its error or a panic into a status and the thread-local message.
/// On success the message is cleared.
pub fn call(body: impl FnOnce() -> Result<()>) -> GripStatus {
    let outcome = catch_unwind(AssertUnwindSafe(body));
    match outcome {
        Ok(Ok(())) => {
            set_last_error("");
            GripStatus::Ok
        }
        Ok(Err(e)) => {
            set_last_error(e.message());
            GripStatus::from(&e)
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            set_last_error(&format!("internal error caught at the C boundary: {what}"));
            GripStatus::Panic
        }
    }
}

/// `ptr` as a slice of `len` elements; NULL is an error unless `len == 0`.
///
/// # Safety
/// The caller (the C host) promises `ptr` points to `len` valid elements when non-NULL.
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize, what: &str) -> Result<&'a [T]> {
    if ptr.is_null() {
        if len == 0 {
            return Ok(&[]);
        }
        return Err(Error::NullPointer(format!("{what} is NULL")));
    }
    check_layout::<T>(ptr as usize, len, what)?;
    Ok(std::slice::from_raw_parts(ptr, len))
}

/// `ptr` as a mutable slice of `len` elements; NULL is an error unless `len == 0`.
///
/// # Safety
/// As [`slice()`], and the memory must not alias anything grip holds.
pub unsafe fn slice_mut<'a, T>(ptr: *mut T, len: usize, what: &str) -> Result<&'a mut [T]> {
    if ptr.is_null() {
        if len == 0 {
            return Ok(&mut []);
        }
        return Err(Error::NullPointer(format!("{what} is NULL")));
    }
    check_layout::<T>(ptr as usize, len, what)?;
    Ok(std::slice::from_raw_parts_mut(ptr, len))
}

fn check_layout<T>(addr: usize, len: usize, what: &str) -> Result<()> {
    if !addr.is_multiple_of(std::mem::align_of::<T>()) {
        return Err(Error::invalid(format!("{what} is not aligned for its element type")));
    }
    match len.checked_mul(std::mem::size_of::<T>()) {
        Some(bytes) if bytes <= isize::MAX as usize && addr.checked_add(bytes).is_some() => Ok(()),
        _ => Err(Error::invalid(format!("{what}: element count {len} is too large"))),
    }
}

/// `ptr` as a reference; NULL is an error.
///
/// # Safety
/// The caller promises a non-NULL `ptr` points to a valid `T`.
pub unsafe fn reference<'a, T>(ptr: *const T, what: &str) -> Result<&'a T> {
    if ptr.is_null() {
        return Err(Error::NullPointer(format!("{what} is NULL")));
    }
    check_layout::<T>(ptr as usize, 1, what)?;
    Ok(&*ptr)
}

/// Checks an output pointer before anything is changed: not NULL, aligned.
pub fn check_out<T>(out: *mut T, what: &str) -> Result<()> {
    if out.is_null() {
        return Err(Error::NullPointer(format!("{what} is NULL")));
    }
    check_layout::<T>(out as usize, 1, what)
}

/// Writes `value` through `out`; NULL is an error.
///
/// # Safety
/// The caller promises a non-NULL `out` points to writable memory for a `T`.
pub unsafe fn write<T>(out: *mut T, value: T, what: &str) -> Result<()> {
    if out.is_null() {
        return Err(Error::NullPointer(format!("{what} is NULL")));
    }
    check_layout::<T>(out as usize, 1, what)?;
    out.write(value);
    Ok(())
}

/// A NUL-terminated UTF-8 string.
///
/// # Safety
/// The caller promises a non-NULL `ptr` is NUL-terminated.
pub unsafe fn string<'a>(ptr: *const c_char, what: &str) -> Result<&'a str> {
    if ptr.is_null() {
        return Err(Error::NullPointer(format!("{what} is NULL")));
    }
    CStr::from_ptr(ptr).to_str().map_err(|_| Error::invalid(format!("{what} is not valid UTF-8")))
}
