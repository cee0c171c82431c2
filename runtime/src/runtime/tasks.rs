//! Task-augmented requests (revision 2025-11-25 on): the generated request unions ask each
//! params type whether its request runs as a task.

/// A params type with a `task` member (revision 2025-11-25): whether the request asks to run
/// as a task.
pub trait AsksForTask {
    /// Whether `task` is present.
    fn asks_for_task(&self) -> bool;
}
