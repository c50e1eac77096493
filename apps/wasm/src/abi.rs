//! The WebAssembly module's exports and imports (docs/web-engine.md): memory for requests,
//! `call`, and the page's clocks and progress reports. The only `unsafe` of the crate: raw
//! pointers across the module's boundary.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Duration;

use reversi_engine::clock::Clock;

use crate::{Bridge, Host};

mod js {
    #[link(wasm_import_module = "env")]
    extern "C" {
        /// `performance.now()`: milliseconds, monotonic.
        pub fn now_ms() -> f64;
        /// `Date.now()`: milliseconds since 1970.
        pub fn date_ms() -> f64;
        /// A progress report: `len` bytes of JSON at `ptr`, valid during the call only.
        pub fn report(ptr: *const u8, len: usize);
    }
}

/// The page's `performance.now()`.
#[derive(Debug)]
struct PageClock;

impl Clock for PageClock {
    fn now(&self) -> Duration {
        // SAFETY: an import without arguments that the page provides (docs/web-engine.md);
        // it only reads the page's clock.
        let ms = unsafe { js::now_ms() };
        Duration::from_secs_f64((ms / 1000.0).max(0.0))
    }
}

struct PageHost;

impl Host for PageHost {
    fn wall_ms(&self) -> f64 {
        // SAFETY: as `now_ms`: an import without arguments reading the page's clock.
        unsafe { js::date_ms() }
    }

    fn report(&mut self, json: &str) {
        // SAFETY: `json` is valid for `len` bytes for the whole call, and the page reads it
        // before returning (docs/web-engine.md).
        unsafe { js::report(json.as_ptr(), json.len()) }
    }
}

thread_local! {
    static BRIDGE: RefCell<Bridge> = RefCell::new(Bridge::new(Arc::new(PageClock)));
    static RESPONSE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Memory for a request of `len` bytes, for the page to write into.
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    // A boxed slice has exactly this length, which `dealloc` rebuilds it with.
    Box::into_raw(vec![0u8; len.max(1)].into_boxed_slice()).cast::<u8>()
}

/// Frees what [`alloc`] gave.
///
/// # Safety
/// `ptr` and `len` must be a pair [`alloc`] returned and not yet freed.
#[no_mangle]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    let slice = std::ptr::slice_from_raw_parts_mut(ptr, len.max(1));
    // SAFETY: the caller hands back, once, the boxed slice of `len.max(1)` bytes `alloc`
    // made.
    drop(unsafe { Box::from_raw(slice) });
}

/// Answers the request of `len` bytes at `ptr`; returns the length of the response, which
/// [`response_ptr`] points at until the next call.
///
/// # Safety
/// `ptr` must point at `len` initialised bytes (a buffer from [`alloc`]).
#[no_mangle]
pub unsafe extern "C" fn call(ptr: *const u8, len: usize) -> usize {
    // SAFETY: the caller wrote `len` bytes at `ptr`, in a buffer it keeps until we return.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let request = String::from_utf8_lossy(bytes);
    let answer = BRIDGE.with(|b| b.borrow_mut().call(&request, &mut PageHost));
    RESPONSE.with(|r| {
        let mut r = r.borrow_mut();
        *r = answer.into_bytes();
        r.len()
    })
}

/// Where the last response is.
#[no_mangle]
pub extern "C" fn response_ptr() -> *const u8 {
    RESPONSE.with(|r| r.borrow().as_ptr())
}
