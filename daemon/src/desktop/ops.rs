//! What the backend does, as typed methods for the dispatch layer: apps, windows, snapshots,
//! element actions (semantic through AT-SPI or real input through XTest), keys, capture and
//! the clipboard. This file holds the shapes and helpers they share; each submodule adds one
//! group of methods to `Desktop`.

mod aim;
mod apps;
mod clipboard;
mod compact;
mod element;
mod fields;
mod human;
mod input;
mod settle;
mod snapshot;
mod text;
mod windows;

use super::atspi::split_key;
use super::x11;
use super::{Desktop, Error};

pub use aim::{describe, Aim, Guard};
pub use apps::Got;
pub use clipboard::Restore;
pub use fields::{SecretFields, Typing};
pub use glovebox_protocol::results::computer::{Acted, FocusChange, Point, WindowRef};
pub use input::Wheel;
pub use settle::may_open_window;
pub use snapshot::{nodes, nodes_unfolded, Observed};
pub use text::TextState;

/// How an action may reach the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dispatch {
    Auto,
    /// Accessibility only: never moves the pointer or focus.
    Background,
    /// Real input.
    Foreground,
}

/// An element named by a ref: its bus key and the ref for messages.
#[derive(Debug, Clone)]
pub struct El {
    pub key: String,
    pub label: String,
}

/// Done through accessibility: `via` names the action.
fn semantic(via: impl Into<String>) -> Acted {
    Acted { via: via.into(), actual_dispatch: "background".into(), ..Acted::default() }
}

/// Real input, at a point or to the focus.
fn real(via: &str, at: Option<(i32, i32)>) -> Acted {
    Acted {
        via: via.into(),
        actual_dispatch: "foreground".into(),
        at: at.map(|(x, y)| Point { x, y }),
        ..Acted::default()
    }
}

/// `a` with the window its input went to and the focus change while it ran.
fn landed(a: Acted, to: Option<WindowRef>, changed: Option<FocusChange>) -> Acted {
    Acted { delivered_to: to, focus_changed: changed, ..a }
}

fn what(el: &El) -> String {
    el.label.clone()
}

impl Desktop {
    /// The element's (bus name, object path) on the current AT-SPI connection; `Gone` when
    /// its snapshot was taken before the bus restarted (its names may mean other apps now).
    fn parts<'e>(&self, el: &'e El) -> Result<(&'e str, &'e str), Error> {
        if !self.a11y()?.owns_key(&el.key) {
            return Err(Error::Gone { what: what(el) });
        }
        split_key(&el.key).ok_or_else(|| Error::Gone { what: what(el) })
    }

    /// The aim of input at `el`: the element's app when the call named nothing else.
    async fn aim_at(&self, el: &El, aim: Aim) -> Aim {
        if aim != Aim::Free {
            return aim;
        }
        let Ok((bus, _)) = self.parts(el) else { return aim };
        match self.a11y() {
            Ok(a) => match a.pid_of(bus) {
                Some(pid) => Aim::App(pid),
                None => aim,
            },
            Err(_) => aim,
        }
    }

    async fn xrun<T, F>(&self, f: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&x11::X) -> Result<T, Error> + Send + 'static,
    {
        let x = self.x.clone();
        tokio::task::spawn_blocking(move || f(&x))
            .await
            .map_err(|e| Error::Worker(e.to_string()))?
    }
}
