//! Who has read the keymap since we last changed it. Clients read the keymap lazily: a
//! MappingNotify only marks their copy stale, and the map is fetched again when the next key
//! event is translated. A keystroke on a borrowed keycode therefore comes out right as long
//! as the keycode keeps its keysym until the client has fetched the map after the keystroke's
//! binding; rebinding or releasing it earlier makes the client translate the keystroke with
//! the later map. The X RECORD extension shows every client's keymap reads (core
//! GetKeyboardMapping, XKB GetMap) in server order with our own ChangeKeyboardMapping
//! requests, on a connection and thread of their own.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use x11rb::connection::{Connection as _, RequestConnection as _};
use x11rb::protocol::record::{self, ConnectionExt as _, ExtRange, Range, Range16, Range8};

const CHANGE_KEYBOARD_MAPPING: u8 = 100;
const GET_KEYBOARD_MAPPING: u8 = 101;
/// XKB's GetMap (minor opcode), named here so the large xkb module stays out of the build.
const XKB_GET_MAP: u8 = 8;
/// RECORD reply categories: intercepted requests from a client, and recording has begun.
const FROM_CLIENT: u8 = 1;
const START_OF_DATA: u8 = 4;
/// How long the recording connection may take to start.
const START_DEADLINE: Duration = Duration::from_secs(2);

#[derive(Debug, Default)]
struct State {
    /// Our ChangeKeyboardMapping requests the server has processed.
    changes: u64,
    /// Per client (resource id base): `changes` when it last read the keymap.
    read: HashMap<u32, u64>,
    /// False once the recording connection is gone.
    live: bool,
}

/// Keymap reads as the server saw them.
#[derive(Debug, Default)]
pub(super) struct KeymapReads {
    state: Mutex<State>,
    changed: Condvar,
}

impl KeymapReads {
    /// Starts recording on a connection of its own; `None` when the server has no RECORD.
    /// `ours` is the resource id base of the connection that changes the keymap.
    pub(super) fn start(display: &str, ours: u32) -> Option<Arc<KeymapReads>> {
        let (conn, _) = crate::desktop::xauth::connect(display).ok()?;
        conn.extension_information(record::X11_EXTENSION_NAME).ok()??;
        conn.record_query_version(1, 13).ok()?.reply().ok()?;
        let xkb = conn.extension_information("XKEYBOARD").ok()?.map(|e| e.major_opcode);
        let core = Range8 { first: CHANGE_KEYBOARD_MAPPING, last: GET_KEYBOARD_MAPPING };
        let get_map = u16::from(XKB_GET_MAP);
        let ext = xkb.map_or(ExtRange::default(), |op| ExtRange {
            major: Range8 { first: op, last: op },
            minor: Range16 { first: get_map, last: get_map },
        });
        let range = Range { core_requests: core, ext_requests: ext, ..Range::default() };
        let ctx = conn.generate_id().ok()?;
        let all = u32::from(record::CS::ALL_CLIENTS);
        conn.record_create_context(ctx, 0, &[all], &[range]).ok()?.check().ok()?;
        let reads = Arc::new(KeymapReads::default());
        let shared = reads.clone();
        let (started, start) = std::sync::mpsc::sync_channel(1);
        let spawned =
            std::thread::Builder::new().name("x11-keymap-reads".into()).spawn(move || {
                if let Ok(replies) = conn.record_enable_context(ctx) {
                    for reply in replies {
                        let Ok(reply) = reply else { break };
                        match reply.category {
                            FROM_CLIENT => shared.saw(&reply, ours, xkb),
                            START_OF_DATA => {
                                shared.lock().live = true;
                                let _ = started.send(());
                            }
                            _ => {}
                        }
                    }
                }
                shared.lock().live = false;
                shared.changed.notify_all();
            });
        spawned.ok()?;
        // Recording from before the first change on, or the counts would never match.
        start.recv_timeout(START_DEADLINE).ok()?;
        Some(reads)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// One batch of intercepted requests, all from the client at `reply.xid_base`.
    fn saw(&self, reply: &record::EnableContextReply, ours: u32, xkb: Option<u8>) {
        let mut s = self.lock();
        for (major, minor) in requests(&reply.data, reply.client_swapped) {
            if major == CHANGE_KEYBOARD_MAPPING && reply.xid_base == ours {
                s.changes += 1;
            } else if major == GET_KEYBOARD_MAPPING || (Some(major) == xkb && minor == XKB_GET_MAP)
            {
                let changes = s.changes;
                s.read.insert(reply.xid_base, changes);
            }
        }
        drop(s);
        self.changed.notify_all();
    }

    /// Waits until `client` (any client but `ours` when `None`) has read the keymap after our
    /// `changes`-th change, or `deadline` passes. False when it had not by then, or when
    /// nothing is recorded any more.
    pub(super) fn wait(
        &self,
        client: Option<u32>,
        ours: u32,
        changes: u64,
        within: Duration,
    ) -> bool {
        let deadline = Instant::now() + within;
        let mut s = self.lock();
        loop {
            let done = match client {
                Some(c) => s.read.get(&c).is_some_and(|n| *n >= changes),
                None => s.read.iter().any(|(c, n)| *c != ours && *n >= changes),
            };
            if done {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if !s.live || left.is_zero() {
                return false;
            }
            s = self.changed.wait_timeout(s, left).unwrap_or_else(|p| p.into_inner()).0;
        }
    }

    pub(super) fn live(&self) -> bool {
        self.lock().live
    }
}

/// (major, minor opcode) of each request in a RECORD data block.
fn requests(data: &[u8], swapped: bool) -> Vec<(u8, u8)> {
    let word16 =
        |b: [u8; 2]| if swapped { u16::from_ne_bytes([b[1], b[0]]) } else { u16::from_ne_bytes(b) };
    let word32 = |b: [u8; 4]| {
        if swapped {
            u32::from_ne_bytes([b[3], b[2], b[1], b[0]])
        } else {
            u32::from_ne_bytes(b)
        }
    };
    let mut out = Vec::new();
    let mut at = 0usize;
    while let Some(head) = data.get(at..at + 4) {
        out.push((head[0], head[1]));
        let mut words = usize::from(word16([head[2], head[3]]));
        if words == 0 {
            // BIG-REQUESTS: the length follows as 32 bits.
            let Some(big) = data.get(at + 4..at + 8) else { break };
            words = word32([big[0], big[1], big[2], big[3]]) as usize;
        }
        if words == 0 {
            break;
        }
        at += words * 4;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::requests;

    #[test]
    fn splits_a_data_block_into_requests() {
        // GetKeyboardMapping (2 words), then an XKB GetMap (opcode 135, minor 8, 7 words).
        let mut data = vec![101, 0];
        data.extend(2u16.to_ne_bytes());
        data.extend([8, 248, 0, 0]);
        data.extend([135, 8]);
        data.extend(7u16.to_ne_bytes());
        data.extend([0; 24]);
        assert_eq!(requests(&data, false), [(101, 0), (135, 8)]);
        let mut swapped = data.clone();
        swapped.swap(2, 3);
        swapped.swap(10, 11);
        assert_eq!(requests(&swapped, true), [(101, 0), (135, 8)]);
    }
}
