//! Where a tree walk stopped short: an app that exited or stopped answering while it was being
//! read. The rest of its tree is left out and the snapshot says so in a warning, rather than
//! the whole call failing. An element that vanished on its own (the tree changed while being
//! read) is no trouble: it is simply not there any more.

use std::io::ErrorKind;

use super::CALL_TIMEOUT;

/// Why the rest of an app's tree was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The app left the bus or its socket closed.
    Exited,
    /// Its calls went unanswered past the call timeout (busy, hung or stopped).
    NotAnswering,
}

/// One app a walk could not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trouble {
    /// The app's bus name.
    pub bus: String,
    pub cut: Cut,
    /// Elements of the app the walk read (and kept) before and while its calls failed.
    pub read: usize,
}

impl Cut {
    /// What a failed call says about its app: `None` when it concerns only the element (it
    /// is gone, or lacks what was asked).
    pub fn of(e: &zbus::Error) -> Option<Cut> {
        match e {
            zbus::Error::InputOutput(io) if io.kind() == ErrorKind::TimedOut => {
                Some(Cut::NotAnswering)
            }
            // A broken, reset or closed socket: the app's direct connection died with it.
            zbus::Error::InputOutput(_) => Some(Cut::Exited),
            zbus::Error::MethodError(name, detail, _) => match name.as_str() {
                "org.freedesktop.DBus.Error.ServiceUnknown"
                | "org.freedesktop.DBus.Error.NameHasNoOwner"
                | "org.freedesktop.DBus.Error.Disconnected" => Some(Cut::Exited),
                // The bus daemon says this when the app left without replying, and when the
                // reply did not come in time.
                "org.freedesktop.DBus.Error.NoReply" => {
                    let left = detail.as_deref().is_some_and(|d| d.contains("disconnected"));
                    Some(if left { Cut::Exited } else { Cut::NotAnswering })
                }
                "org.freedesktop.DBus.Error.Timeout" | "org.freedesktop.DBus.Error.TimedOut" => {
                    Some(Cut::NotAnswering)
                }
                _ => None,
            },
            _ => None,
        }
    }
}

impl Trouble {
    /// One line for the snapshot's `warnings`; `app` names the app (`app:<pid>`).
    pub fn warning(&self, app: &str) -> String {
        let n = self.read;
        let plural = if n == 1 { "" } else { "s" };
        let secs = CALL_TIMEOUT.as_secs();
        match (self.cut, n) {
            (Cut::Exited, 0) => format!("{app} exited before any of its elements were read"),
            (Cut::Exited, _) => format!(
                "{app} exited after {n} element{plural}; anything not read by then is missing"
            ),
            (Cut::NotAnswering, 0) => {
                format!("{app} did not answer within {secs} s; its tree is missing")
            }
            (Cut::NotAnswering, _) => format!(
                "{app} stopped answering after {n} element{plural} (no reply within {secs} s); \
                 anything not read by then is missing"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn method_error(name: &str, detail: &str) -> zbus::Error {
        let msg =
            zbus::Message::method_call("/", "Ping").and_then(|m| m.build(&())).expect("a message");
        let name = zbus::names::OwnedErrorName::try_from(name.to_owned()).expect("an error name");
        zbus::Error::MethodError(name, Some(detail.to_owned()), msg)
    }

    fn io(kind: ErrorKind) -> zbus::Error {
        zbus::Error::InputOutput(Arc::new(std::io::Error::new(kind, "x")))
    }

    #[test]
    fn failures_say_what_happened_to_the_app() {
        let cases = [
            (io(ErrorKind::TimedOut), Some(Cut::NotAnswering)),
            (io(ErrorKind::BrokenPipe), Some(Cut::Exited)),
            (io(ErrorKind::ConnectionReset), Some(Cut::Exited)),
            (method_error("org.freedesktop.DBus.Error.ServiceUnknown", "gone"), Some(Cut::Exited)),
            (
                method_error(
                    "org.freedesktop.DBus.Error.NoReply",
                    "Message recipient disconnected from message bus without replying",
                ),
                Some(Cut::Exited),
            ),
            (
                method_error("org.freedesktop.DBus.Error.NoReply", "Did not receive a reply"),
                Some(Cut::NotAnswering),
            ),
            // The element alone is gone, or lacks the interface: the app is fine.
            (method_error("org.freedesktop.DBus.Error.UnknownObject", "no such object"), None),
            (method_error("org.freedesktop.DBus.Error.UnknownMethod", "no such method"), None),
            (zbus::Error::InvalidReply, None),
        ];
        for (e, want) in cases {
            assert_eq!(Cut::of(&e), want, "{e}");
        }
    }

    #[test]
    fn warnings_name_the_app_and_how_far_the_walk_got() {
        let t = |cut, read| Trouble { bus: ":1.5".into(), cut, read }.warning("app:1234");
        assert_eq!(
            t(Cut::NotAnswering, 57),
            "app:1234 stopped answering after 57 elements (no reply within 5 s); anything not \
             read by then is missing"
        );
        assert_eq!(
            t(Cut::NotAnswering, 0),
            "app:1234 did not answer within 5 s; its tree is missing"
        );
        assert_eq!(
            t(Cut::Exited, 1),
            "app:1234 exited after 1 element; anything not read by then is missing"
        );
        assert_eq!(t(Cut::Exited, 0), "app:1234 exited before any of its elements were read");
    }
}
