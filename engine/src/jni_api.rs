//! The JNI boundary: the native methods of `io.github.odrust.engine.NativeEngine`.
//!
//! This is the only module that uses `jni`. Each export is a thin shell around
//! [`try_unwrap_or_throw`], which runs the real work inside `catch_unwind`, and turns an
//! [`EngineError`] or a panic into a Java exception: `io.github.odrust.engine.EngineException`
//! built with `(String code, String message, boolean user)` (`user`: the user can fix it, see
//! [`EngineError::is_user_error`]), or a `RuntimeException("code: message")` if that class cannot
//! be found. A panic's message names where it happened: the first call installs a panic hook that
//! keeps the location (instead of printing to Maven's console). After throwing, an export returns a null `jstring` (or 0), which Java
//! never sees because the exception is pending. Only strings cross the boundary (see
//! [`crate::protocol`]).

use std::any::Any;
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use jni::objects::{JClass, JObject, JString, JThrowable, JValue};
use jni::sys::{jint, jstring};
use jni::JNIEnv;

use crate::error::EngineError;
use crate::protocol::{self, ABI_VERSION, ENGINE_VERSION};

/// The exception class thrown for every engine error.
const EXCEPTION_CLASS: &str = "io/github/odrust/engine/EngineException";
/// Its `(String code, String message, boolean user)` constructor.
const EXCEPTION_CONSTRUCTOR: &str = "(Ljava/lang/String;Ljava/lang/String;Z)V";
/// Thrown instead when [`EXCEPTION_CLASS`] cannot be found.
const FALLBACK_CLASS: &str = "java/lang/RuntimeException";

/// Why an export failed.
enum Failure {
    /// The engine failed (or panicked): thrown as an `EngineException`.
    Engine(EngineError),
    /// A JNI call failed; a Java exception may already be pending.
    Jni(jni::errors::Error),
}

impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Self {
        Failure::Engine(e)
    }
}

impl From<jni::errors::Error> for Failure {
    fn from(e: jni::errors::Error) -> Self {
        Failure::Jni(e)
    }
}

/// `static native int abiVersion()`.
///
/// # Safety
///
/// Declared `extern "system"` with the JNI signature the JVM uses for this native method; `env`
/// is valid for the duration of the call, as JNI guarantees. The body catches every panic, so no
/// unwinding crosses into the JVM.
#[no_mangle]
pub extern "system" fn Java_io_github_odrust_engine_NativeEngine_abiVersion<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
) -> jint {
    try_unwrap_or_throw(&mut env, 0, |_| Ok(ABI_VERSION))
}

/// `static native String engineVersion()`.
///
/// # Safety
///
/// As for `abiVersion`: the JVM calls it with a valid `env` on an attached thread, and no panic
/// escapes. The returned local reference is owned by the JVM frame of the call.
#[no_mangle]
pub extern "system" fn Java_io_github_odrust_engine_NativeEngine_engineVersion<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
) -> jstring {
    try_unwrap_or_throw(&mut env, std::ptr::null_mut(), |env| {
        Ok(env.new_string(ENGINE_VERSION)?.into_raw())
    })
}

/// `static native String call(String op, String requestJson)`.
///
/// # Safety
///
/// As for `abiVersion`. `op` and `request` are local references handed in by the JVM, valid for
/// the call; they may be null, which is checked before they are read. No panic escapes.
#[no_mangle]
pub extern "system" fn Java_io_github_odrust_engine_NativeEngine_call<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    op: JString<'local>,
    request: JString<'local>,
) -> jstring {
    try_unwrap_or_throw(&mut env, std::ptr::null_mut(), |env| {
        let op = read_string(env, &op, "op", "<null>")?;
        let request = read_string(env, &request, "requestJson", &op)?;
        let response = protocol::call(&op, &request)?;
        Ok(env.new_string(response)?.into_raw())
    })
}

/// Reads a Java string argument; a null one is a bad request of `op`.
fn read_string(
    env: &mut JNIEnv<'_>,
    value: &JString<'_>,
    what: &str,
    op: &str,
) -> Result<String, Failure> {
    if value.is_null() {
        return Err(EngineError::bad_request(op, format!("{what} is null")).into());
    }
    Ok(env.get_string(value)?.into())
}

thread_local! {
    /// Where the last panic on this thread happened (`file:line:column`).
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the panic hook, once, by one that keeps the location for the exception's message.
/// The engine runs inside Maven's JVM, where the default hook's print would only repeat it.
fn keep_panic_locations() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let location = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            PANIC_LOCATION.with(|cell| *cell.borrow_mut() = location);
        }));
    });
}

/// Runs `work`, catching panics, and turns a failure into a pending Java exception and `default`.
fn try_unwrap_or_throw<'local, T>(
    env: &mut JNIEnv<'local>,
    default: T,
    work: impl FnOnce(&mut JNIEnv<'local>) -> Result<T, Failure>,
) -> T {
    keep_panic_locations();
    PANIC_LOCATION.with(|cell| cell.borrow_mut().take());
    let failure = match catch_unwind(AssertUnwindSafe(|| work(env))) {
        Ok(Ok(value)) => return value,
        Ok(Err(failure)) => failure,
        Err(payload) => Failure::Engine(EngineError::Panic {
            payload: panic_message(payload.as_ref()),
            location: PANIC_LOCATION.with(|cell| cell.borrow_mut().take()),
        }),
    };
    match failure {
        Failure::Engine(error) => throw_engine_exception(env, &error),
        Failure::Jni(error) => {
            // A failed JNI call usually leaves its own Java exception pending: let it propagate.
            if !env.exception_check().unwrap_or(false) {
                let message = format!("odrust engine: JNI call failed: {error}");
                let _ = env.throw_new(FALLBACK_CLASS, message);
            }
        }
    }
    default
}

/// The text of a panic payload (`panic!` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic whose payload is not a string".to_string()
    }
}

/// Throws `EngineException(code, message, user)`, or `RuntimeException("code: message")` when
/// the class or its constructor cannot be used. Never fails: if even that fails, whatever
/// exception the JVM raised stays pending.
fn throw_engine_exception(env: &mut JNIEnv<'_>, error: &EngineError) {
    let (code, message) = (error.code(), error.to_string());
    if env.exception_check().unwrap_or(false) {
        // Never throw over a pending exception; ours carries the engine's message.
        let _ = env.exception_clear();
    }
    if new_engine_exception(env, code, &message, error.is_user_error()).is_err() {
        // `FindClass` failing leaves a `NoClassDefFoundError` pending: replace it.
        let _ = env.exception_clear();
        let _ = env.throw_new(FALLBACK_CLASS, format!("{code}: {message}"));
    }
}

fn new_engine_exception(
    env: &mut JNIEnv<'_>,
    code: &str,
    message: &str,
    user: bool,
) -> jni::errors::Result<()> {
    let class = env.find_class(EXCEPTION_CLASS)?;
    let code = JObject::from(env.new_string(code)?);
    let message = JObject::from(env.new_string(message)?);
    let exception = env.new_object(
        class,
        EXCEPTION_CONSTRUCTOR,
        &[
            JValue::Object(&code),
            JValue::Object(&message),
            JValue::Bool(u8::from(user)),
        ],
    )?;
    env.throw(JThrowable::from(exception))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_payloads_become_messages() {
        let payload = catch_unwind(|| panic!("boom {}", 1)).unwrap_err();
        assert_eq!(panic_message(payload.as_ref()), "boom 1");
        let payload = catch_unwind(|| panic!("static")).unwrap_err();
        assert_eq!(panic_message(payload.as_ref()), "static");
        let payload = catch_unwind(|| std::panic::panic_any(7_u8)).unwrap_err();
        assert!(panic_message(payload.as_ref()).contains("not a string"));
    }

    #[test]
    fn selftest_panic_is_caught_with_its_message() {
        let payload = catch_unwind(|| protocol::call("selftest_panic", "{}")).unwrap_err();
        let error = EngineError::Panic {
            payload: panic_message(payload.as_ref()),
            location: None,
        };
        assert_eq!(error.code(), "panic");
        assert!(error.to_string().contains(protocol::SELFTEST_PANIC_MESSAGE));
    }
}
