//! The registry of the built-in games: the one list from which the runtime
//! [`Game`] enum, [`Game::ALL`], the games' modules and [`dispatch!`] are
//! generated.
//!
//! Each line names a game's [`Game`] variant, which is also the name of its
//! rules type, and the module (file) that defines it. Everything else about
//! a game (its name on the command line, traditional size, stores) is read
//! from its [`Rules`] constants, so a game is described in its own file
//! only. A game left out of this list cannot be dispatched to, and one in
//! it is in every loop over [`Game::ALL`]: no second list can drift.

/// The list of the built-in games, handed to one of the generators below.
/// Hidden: use [`Game`] and [`dispatch!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __games_registry {
    ($generator:ident $args:tt) => {
        $crate::__games_registry! { @ $generator $args [
            /// Kalah, the reference game of Irving, Donkers and Uiterwijk.
            Kalah in kalah,
            /// Awari, the reference game of Romein and Bal, and Lincke.
            Awari in awari,
            /// Akon.
            Akon in akon,
            /// Djenon-abe.
            DjenonAbe in djenon_abe,
            /// Anywoli.
            Anywoli in anywoli,
            /// Dakon.
            Dakon in dakon,
        ] }
    };

    // The modules, the rules types, and the runtime enum.
    (@ define () [ $( $(#[$doc:meta])* $game:ident in $module:ident, )* ]) => {
        $( pub mod $module; )*
        $( pub use $module::$game; )*

        /// One of the built-in games, as a runtime value (used at the edges
        /// only: the generic parts of the toolkit take a [`Rules`] type).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Game {
            $( $(#[$doc])* $game, )*
        }

        impl Game {
            /// All built-in games, in the order of the rules document.
            pub const ALL: [Game; [$( Game::$game ),*].len()] = [$( Game::$game ),*];

            /// The lower-case name used on the command line
            /// ([`Rules::NAME`]).
            pub const fn name(self) -> &'static str {
                match self {
                    $( Game::$game => <$game as Rules>::NAME, )*
                }
            }

            /// The traditional board: pits per row and seeds per pit
            /// ([`Rules::DEFAULT_SIZE`]).
            pub const fn default_size(self) -> (usize, usize) {
                match self {
                    $( Game::$game => <$game as Rules>::DEFAULT_SIZE, )*
                }
            }

            /// Whether seeds are sown into the stores
            /// ([`Rules::SOWS_INTO_STORES`]).
            pub const fn sows_into_stores(self) -> bool {
                match self {
                    $( Game::$game => <$game as Rules>::SOWS_INTO_STORES, )*
                }
            }

            /// Whether captured seeds are kept in stores, drawn beside the
            /// rows ([`Rules::HAS_STORES`]).
            pub const fn has_stores(self) -> bool {
                match self {
                    $( Game::$game => <$game as Rules>::HAS_STORES, )*
                }
            }

            /// The game of a lower-case name.
            pub fn from_name(name: &str) -> Option<Game> {
                Game::ALL.into_iter().find(|g| g.name() == name)
            }

            /// The names of all games, comma-separated (for messages).
            pub fn names() -> String {
                Game::ALL.map(Game::name).join(", ")
            }
        }
    };

    // The body of `dispatch!`.
    (@ dispatch ($game:expr, $r:ident, $body:expr)
        [ $( $(#[$doc:meta])* $g:ident in $module:ident, )* ]) => {
        match $game {
            $(
                $crate::Game::$g => {
                    type $r = $crate::games::$g;
                    $body
                }
            )*
        }
    };
}

/// Calls `$body` with `$r` bound to the rules type of the runtime game
/// `$game`, so the body is compiled once per game.
///
/// ```
/// use mancala::{dispatch, Game, Rules};
/// fn name(g: Game) -> &'static str {
///     dispatch!(g, R => R::NAME)
/// }
/// assert_eq!(name(Game::Dakon), "dakon");
/// ```
#[macro_export]
macro_rules! dispatch {
    ($game:expr, $r:ident => $body:expr) => {
        $crate::__games_registry!(dispatch($game, $r, $body))
    };
}
