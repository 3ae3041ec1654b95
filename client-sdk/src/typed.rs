//! `PendingCall`, the awaitable a typed call returns so op keys can be set fluently. Its
//! params are the protocol's typed structs (`glovebox_protocol::actions`), which implement
//! [`ActionArgs`] (the protocol's `Params`).

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use glovebox_protocol::wire::OpOutcome;

use crate::{CallOptions, Client, ClientError};

/// The params of one contract action: the protocol's
/// [`Params`](glovebox_protocol::actions::Params), under the name this crate
/// has always given it; every generated struct implements it.
pub use glovebox_protocol::actions::Params as ActionArgs;

/// A typed call not sent yet: `.await` it, after setting op keys if needed.
///
/// ```no_run
/// # async fn f(client: &glovebox_client::Client) -> Result<(), glovebox_client::ClientError> {
/// use glovebox_client::generated::ComputerWait;
/// let args = ComputerWait { duration_ms: Some(10), ..Default::default() };
/// let outcome = client.computer_wait(args).op_id(client.new_op_id()).timeout_ms(5_000).await?;
/// # Ok(()) }
/// ```
#[must_use = "a call does nothing until it is awaited"]
#[derive(Debug)]
pub struct PendingCall<'a, A> {
    client: &'a Client,
    args: A,
    options: CallOptions,
    attempts: u32,
}

impl<'a, A: ActionArgs> PendingCall<'a, A> {
    pub fn new(client: &'a Client, args: A) -> Self {
        PendingCall { client, args, options: CallOptions::default(), attempts: 1 }
    }

    /// Idempotency key (see [`CallOptions::op_id`]).
    pub fn op_id(mut self, op_id: impl Into<String>) -> Self {
        self.options.op_id = Some(op_id.into());
        self
    }

    /// The op's deadline in ms; the client waits that long plus a margin.
    pub fn timeout_ms(mut self, ms: u64) -> Self {
        self.options.timeout_ms = Some(ms);
        self
    }

    /// `false`: no screenshot after a state-changing action.
    pub fn capture(mut self, capture: impl Into<glovebox_protocol::wire::Capture>) -> Self {
        self.options.capture = Some(capture.into());
        self
    }

    /// `true`: when the action opens a tab, the session moves to it.
    pub fn follow(mut self, follow: bool) -> Self {
        self.options.follow = Some(follow);
        self
    }

    /// Replace all op keys at once.
    pub fn options(mut self, options: CallOptions) -> Self {
        self.options = options;
        self
    }

    /// Await the call and read its result as the action's typed result (`A::Result`, from
    /// [`glovebox_protocol::results`]); [`IntoFuture`] gives the whole outcome instead.
    ///
    /// ```no_run
    /// # async fn f(client: &glovebox_client::Client) -> Result<(), glovebox_client::ClientError> {
    /// use glovebox_client::generated::ComputerWait;
    /// let args = ComputerWait { duration_ms: Some(10), ..Default::default() };
    /// let waited = client.computer_wait(args).result().await?;
    /// println!("waited {} ms", waited.waited_ms);
    /// # Ok(()) }
    /// ```
    pub async fn result(self) -> Result<A::Result, ClientError>
    where
        A: Send + Sync + 'a,
    {
        let outcome = self.await?;
        outcome.result_as::<A>().map_err(ClientError::Decode)
    }

    /// Survive up to `attempts - 1` lost connections: reconnect and re-send with the same
    /// op id (minted when unset), which the daemon answers without running the op twice.
    pub fn retry(mut self, attempts: u32) -> Self {
        self.attempts = attempts.max(1);
        self
    }
}

impl<'a, A: ActionArgs + Send + Sync + 'a> IntoFuture for PendingCall<'a, A> {
    type Output = Result<OpOutcome, ClientError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let args = crate::client::to_object(&self.args)?;
            let client = self.client;
            if self.attempts > 1 {
                client.call_with_retry(A::TOOL, A::ACTION, args, self.options, self.attempts).await
            } else {
                client.call_action(A::TOOL, A::ACTION, args, self.options).await
            }
        })
    }
}
