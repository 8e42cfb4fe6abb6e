// The README's question from Rust, through the C ABI (roofline.h): ROOFLINE_DECODE_MS(8; 64; 4096; 3.35),
// then a model-aware formula with text arguments, ROOFLINE_STEP_MS("llama-3.1-8b"; "h100-sxm"; 64; 4096).
// No crate and no binding generator: the few declarations below are the whole binding. Optional
// arguments are left out at the end of the call, and the library gives them their defaults, as a
// spreadsheet does (roofline.h: roofline_call).
//
// Build and run against an installed libroofline (or a build's c-api folder):
//   rustc --edition 2021 -L <libdir> -l roofline -C link-arg=-Wl,-rpath,<libdir> decode_step.rs
//   ./decode_step
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int};  // (std::ffi has them since Rust 1.64; Debian 12's rustc is 1.63)
use std::ptr;

/// roofline_value: a number, or a UTF-8 text when `text` is not null.
#[repr(C)]
struct RooflineValue {
    number: f64,
    text: *const c_char,
}

/// roofline_array: opaque, owned by the caller once returned, freed with roofline_array_free.
#[repr(C)]
struct RooflineArray {
    _private: [u8; 0],
}

const ROOFLINE_OK: c_int = 0;

extern "C" {
    fn roofline_call(name: *const c_char, args: *const RooflineValue, nargs: usize, result: *mut *mut RooflineArray) -> c_int;
    fn roofline_array_number(array: *const RooflineArray, row: usize, col: usize) -> f64;
    fn roofline_array_free(array: *mut RooflineArray);
    fn roofline_status_string(status: c_int) -> *const c_char;
    fn roofline_errmsg() -> *const c_char;
}

/// An argument: a number, or a text (kept alive by the caller until the call returns).
enum Arg<'a> {
    Number(f64),
    Text(&'a CStr),
}

/// Calls a formula whose result is a number; an error carries the library's message, which names the argument.
fn call_number(formula: &str, args: &[Arg]) -> Result<f64, String> {
    let name = CString::new(formula).map_err(|e| e.to_string())?;
    let values: Vec<RooflineValue> = args
        .iter()
        .map(|a| match a {
            Arg::Number(n) => RooflineValue { number: *n, text: ptr::null() },
            Arg::Text(t) => RooflineValue { number: 0.0, text: t.as_ptr() },
        })
        .collect();
    let mut result: *mut RooflineArray = ptr::null_mut();
    // SAFETY: every pointer is valid for the call; the result array is ours and freed below.
    unsafe {
        let rc = roofline_call(name.as_ptr(), values.as_ptr(), values.len(), &mut result);
        if rc != ROOFLINE_OK {
            let status = CStr::from_ptr(roofline_status_string(rc)).to_string_lossy();
            let message = CStr::from_ptr(roofline_errmsg()).to_string_lossy();
            return Err(format!("{status}: {message}"));
        }
        let ms = roofline_array_number(result, 0, 0);
        roofline_array_free(result);
        Ok(ms)
    }
}

fn main() {
    let decode = call_number(
        "ROOFLINE_DECODE_MS",
        &[Arg::Number(8.0), Arg::Number(64.0), Arg::Number(4096.0), Arg::Number(3.35)],
    );
    let (model, gpu) = (CString::new("llama-3.1-8b").unwrap(), CString::new("h100-sxm").unwrap());
    let step = call_number(
        "ROOFLINE_STEP_MS",
        &[Arg::Text(&model), Arg::Text(&gpu), Arg::Number(64.0), Arg::Number(4096.0)],
    );
    match (decode, step) {
        (Ok(decode), Ok(step)) => {
            println!("one decode step takes at least {decode:.2} ms");
            println!("llama-3.1-8b on one h100-sxm, 64 x 4096 tokens: {step:.2} ms a step (bound)");
        }
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
