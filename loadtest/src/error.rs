//! One error type for the whole tool: every failure ends the run with a
//! message for the person at the terminal, so a boxed error with context is enough.

pub type Fallible<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// An error with its causes, `outer: inner: innermost`, since HTTP client
/// errors put the useful part (refused, reset, timed out) in a source.
pub fn describe(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
