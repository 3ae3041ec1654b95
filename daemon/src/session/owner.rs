//! Who a connection speaks for: a token's digest (never the token), its admin bit and its
//! party's lane.

/// Who a connection speaks for: a hash of its token (never the token), whether that token
/// is an admin's, who may use every session, and its party's lane (a browser context).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    token: [u8; 32],
    pub admin: bool,
    /// The party's short hash: the token's own, or its `party=` name's.
    lane: [u8; 8],
}

fn lane_of_token(token: &[u8; 32]) -> [u8; 8] {
    let mut lane = [0; 8];
    lane.copy_from_slice(&token[..8]);
    lane
}

impl std::fmt::Debug for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Owner({:02x}{:02x}..)", self.token[0], self.token[1])
    }
}

impl Owner {
    pub fn of_token(token: &str, admin: bool) -> Owner {
        Self::of_digest(crate::auth::digest(token), admin)
    }

    /// The owner whose token has this digest.
    pub fn of_digest(token: crate::auth::Digest, admin: bool) -> Owner {
        Owner { token, admin, lane: lane_of_token(&token) }
    }

    /// The same owner in `party` (from its token file line), if it has one.
    pub fn in_party(mut self, party: Option<&str>) -> Owner {
        self.lane = match party {
            Some(p) => lane_of_token(&crate::auth::digest(&format!("party:{p}"))),
            None => lane_of_token(&self.token),
        };
        self
    }

    /// Its party's lane as 16 hex digits: what names its browser context and downloads.
    pub fn lane(&self) -> String {
        self.lane.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Its token's digest (what the token file keeps).
    pub fn digest(&self) -> crate::auth::Digest {
        self.token
    }

    /// A short stable name of the token (16 hex digits of its hash): no secret, no guess.
    pub fn short(&self) -> String {
        self.token[..8].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// No token's: what only admins (and, for approvals, approvers) see.
    pub fn nobody() -> Owner {
        Owner { token: [0; 32], admin: false, lane: [0; 8] }
    }

    /// Whether a session `creator` made may be used by this owner.
    pub fn may_use(&self, creator: &Owner) -> bool {
        self.admin || self.token == creator.token
    }
}
