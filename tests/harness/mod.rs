//! The one harness every integration test uses: the real daemon (in-process on port 0, or the
//! `gloveboxd` binary on an embedded desktop) and a raw WebSocket client that sends exactly
//! what `wscat` would. Every wait has a deadline.

pub mod binary;
pub mod browser;
pub mod desktop;
pub mod http;
pub mod image;
pub mod raw;
pub mod viewer;
pub mod witness;

use std::path::PathBuf;
use std::time::Duration;

use glovebox_daemon::auth::{Role, Tokens};
use glovebox_daemon::Config;
use tokio::sync::oneshot;

pub use raw::Raw;

/// The deadline of any single wait in the tests.
pub const DEADLINE: Duration = Duration::from_secs(20);

// At least 32 characters each, as the daemon demands of a token file and `GLOVEBOX_TOKEN`.
pub const ACTOR: &str = "actor-token-for-tests-0123456789abcdef";
pub const OBSERVER: &str = "observer-token-for-tests-0123456789abcdef";
pub const APPROVER: &str = "approver-token-for-tests-0123456789abcdef";
/// A second actor: another agent on the same daemon.
pub const OTHER_ACTOR: &str = "other-actor-token-for-tests-0123456789abcdef";
pub const ADMIN: &str = "admin-token-for-tests-0123456789abcdef";

/// A daemon served from this process on a free loopback port.
pub struct InProcess {
    pub addr: std::net::SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    /// The daemon's state dir (its `files/` is where uploads may come from).
    pub state: TempDir,
}

/// A last word on the daemon's configuration, e.g. to plug a backend in.
pub type Configure = std::sync::Arc<dyn Fn(&mut Config) + Send + Sync>;

/// Knobs tests turn; everything else is the daemon's default.
#[derive(Clone, Default)]
pub struct Options {
    pub max_message_bytes: Option<u32>,
    pub max_in_flight: Option<usize>,
    pub max_ops_per_sec: Option<u32>,
    pub allowed_origins: Vec<String>,
    /// Last word on the configuration, e.g. to plug a backend in.
    pub configure: Option<Configure>,
}

impl InProcess {
    pub async fn start() -> InProcess {
        Self::with(Options::default()).await
    }

    pub async fn with(options: Options) -> InProcess {
        let state = TempDir::new("inproc");
        let tokens = Tokens::new([
            (ACTOR.to_owned(), Role::Actor),
            (OBSERVER.to_owned(), Role::Observer),
            (APPROVER.to_owned(), Role::Approver),
            (OTHER_ACTOR.to_owned(), Role::Actor),
            (ADMIN.to_owned(), Role::Admin),
        ])
        // The actor and its observer are one party: one browser context, one set of tabs.
        .in_party(ACTOR, "a")
        .in_party(OBSERVER, "a");
        let mut config = Config::new(tokens, state.path.clone());
        if let Some(n) = options.max_message_bytes {
            config.max_message_bytes = n;
        }
        if let Some(n) = options.max_in_flight {
            config.max_in_flight = n;
        }
        if let Some(n) = options.max_ops_per_sec {
            config.max_ops_per_sec = n;
        }
        config.allowed_origins = options.allowed_origins;
        if let Some(f) = &options.configure {
            f(&mut config);
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind port 0");
        let addr = listener.local_addr().expect("local addr");
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let shutdown = async {
                let _ = rx.await;
            };
            glovebox_daemon::run(listener, config, shutdown).await.expect("daemon ran");
        });
        InProcess { addr, stop: Some(tx), task: Some(task), state }
    }

    pub fn url(&self) -> String {
        format!("ws://{}/rpc", self.addr)
    }

    /// A raw connection with the actor token that already said hello.
    pub async fn actor(&self) -> Raw {
        let mut c = Raw::connect(&self.url(), Some(ACTOR)).await.expect("connect");
        c.hello(None).await;
        c
    }

    /// Stop the daemon and wait for `run` to return.
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(DEADLINE, task).await.expect("daemon stops").expect("no panic");
        }
    }
}

impl Drop for InProcess {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}

/// A directory removed when dropped.
pub struct TempDir {
    pub path: PathBuf,
}

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let path =
            std::env::temp_dir().join(format!("glovebox-test-{}-{tag}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("temp dir");
        TempDir { path }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
