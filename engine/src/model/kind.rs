//! The kinds of flaky test, in Wei et al.'s (TACAS 2021) vocabulary: a *victim* fails after a *polluter*
//! (unless a *cleaner* ran in between), a *brittle* fails unless a *state-setter* ran first; a
//! NOD test fails and passes in the same order.

use serde::{Deserialize, Serialize};

/// How an order-dependent test depends on the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OdRole {
    /// Passes alone, fails after a polluter (unless a cleaner ran in between).
    Victim,
    /// Fails alone, passes after a state-setter.
    Brittle,
}

/// What kind of flaky test a finding is. Written as one word in reports: `victim`, `brittle`,
/// `nod`, `unclassified`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "KindName", into = "KindName")]
pub enum FlakyKind {
    /// Order-dependent, with its role.
    Od(OdRole),
    /// Non-deterministic: fails and passes in the same order.
    Nod,
    /// Confirmed order-dependent, but its alone runs have not finished.
    Unclassified,
}

impl FlakyKind {
    /// A victim.
    pub const VICTIM: FlakyKind = FlakyKind::Od(OdRole::Victim);
    /// A brittle.
    pub const BRITTLE: FlakyKind = FlakyKind::Od(OdRole::Brittle);

    /// Every kind, in the reports' order.
    pub const ALL: [FlakyKind; 4] = [
        FlakyKind::VICTIM,
        FlakyKind::BRITTLE,
        FlakyKind::Nod,
        FlakyKind::Unclassified,
    ];

    /// The word reports use: `victim`, `brittle`, `nod`, `unclassified`.
    pub fn name(self) -> &'static str {
        match self {
            FlakyKind::Od(OdRole::Victim) => "victim",
            FlakyKind::Od(OdRole::Brittle) => "brittle",
            FlakyKind::Nod => "nod",
            FlakyKind::Unclassified => "unclassified",
        }
    }

    /// Its role, when it is a classified OD test.
    pub fn role(self) -> Option<OdRole> {
        match self {
            FlakyKind::Od(role) => Some(role),
            FlakyKind::Nod | FlakyKind::Unclassified => None,
        }
    }
}

/// The one-word form of a [`FlakyKind`].
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum KindName {
    Victim,
    Brittle,
    Nod,
    Unclassified,
}

impl From<KindName> for FlakyKind {
    fn from(name: KindName) -> Self {
        match name {
            KindName::Victim => FlakyKind::VICTIM,
            KindName::Brittle => FlakyKind::BRITTLE,
            KindName::Nod => FlakyKind::Nod,
            KindName::Unclassified => FlakyKind::Unclassified,
        }
    }
}

impl From<FlakyKind> for KindName {
    fn from(kind: FlakyKind) -> Self {
        match kind {
            FlakyKind::Od(OdRole::Victim) => KindName::Victim,
            FlakyKind::Od(OdRole::Brittle) => KindName::Brittle,
            FlakyKind::Nod => KindName::Nod,
            FlakyKind::Unclassified => KindName::Unclassified,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_written_as_one_word_and_read_back() {
        for (kind, word) in [
            (FlakyKind::VICTIM, "\"victim\""),
            (FlakyKind::BRITTLE, "\"brittle\""),
            (FlakyKind::Nod, "\"nod\""),
            (FlakyKind::Unclassified, "\"unclassified\""),
        ] {
            assert_eq!(serde_json::to_string(&kind).unwrap(), word);
            assert_eq!(format!("\"{}\"", kind.name()), word);
            assert_eq!(serde_json::from_str::<FlakyKind>(word).unwrap(), kind);
        }
        assert!(serde_json::from_str::<FlakyKind>("\"od\"").is_err());
        assert_eq!(FlakyKind::BRITTLE.role(), Some(OdRole::Brittle));
        assert_eq!(FlakyKind::Nod.role(), None);
    }
}
