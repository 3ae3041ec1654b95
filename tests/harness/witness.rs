//! A witness of real input on an X display: the RECORD extension reports every key and button
//! press and release the server delivers, from any client, XTest injections included.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use x11rb::connection::Connection as _;
use x11rb::protocol::record::{self, ConnectionExt as _, Range, Range8};

/// RECORD reply categories.
const FROM_SERVER: u8 = 0;
const START_OF_DATA: u8 = 4;
/// Core device events: KeyPress 2 .. ButtonRelease 5 (motion left out).
const FIRST: u8 = 2;
const LAST: u8 = 5;

pub struct InputWitness {
    presses: Arc<AtomicU64>,
}

impl InputWitness {
    /// Starts recording on `display`; returns once the server is recording.
    pub fn start(display: &str) -> InputWitness {
        let (conn, _) = glovebox_daemon::desktop::xauth::connect(display)
            .expect("X connection for the witness");
        conn.record_query_version(1, 13).expect("RECORD").reply().expect("RECORD version");
        let range =
            Range { device_events: Range8 { first: FIRST, last: LAST }, ..Range::default() };
        let ctx = conn.generate_id().expect("id");
        let all = u32::from(record::CS::ALL_CLIENTS);
        conn.record_create_context(ctx, 0, &[all], &[range])
            .expect("context")
            .check()
            .expect("context made");
        let presses = Arc::new(AtomicU64::new(0));
        let seen = presses.clone();
        let (started, start) = mpsc::sync_channel(1);
        std::thread::spawn(move || {
            let Ok(replies) = conn.record_enable_context(ctx) else { return };
            for reply in replies {
                let Ok(reply) = reply else { break };
                match reply.category {
                    // Each device event is 32 bytes.
                    FROM_SERVER => {
                        seen.fetch_add((reply.data.len() / 32) as u64, Ordering::SeqCst);
                    }
                    START_OF_DATA => {
                        let _ = started.send(());
                    }
                    _ => {}
                }
            }
        });
        start.recv_timeout(Duration::from_secs(5)).expect("the witness records");
        InputWitness { presses }
    }

    /// Key and button events delivered since the start.
    pub fn events(&self) -> u64 {
        self.presses.load(Ordering::SeqCst)
    }
}
