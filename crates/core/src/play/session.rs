//! A game between a person and the optimal agent: what the person typed, read as a command;
//! the moves so far, for `undo`. The terminal loop (`grundy play`) prints what this returns.

use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::{Agent, Oracle};
use crate::catalog::parse_counts;
use crate::error::Error;
use crate::game::Stones;

/// What the person typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A move, given as the position it leads to.
    Move(Stones),
    /// The winning moves.
    Hint,
    /// Every move, numbered.
    Moves,
    /// Take back the last move of each side.
    Undo,
    /// The list of commands.
    Help,
    /// End the game.
    Quit,
}

/// The commands, for `help`.
pub const HELP: &str = "a move is the position it leads to (as typed for `grundy sg`) or #N for \
                        the N-th of `moves`; `moves` lists them, `hint` the winning ones, `undo` \
                        takes back your last move and the reply, `quit` ends the game";

/// A game in progress: the positions so far (the last is the current one).
pub struct Session<'o, 'g> {
    oracle: &'o mut Oracle<'g>,
    history: Vec<Stones>,
    rng: SmallRng,
}

impl<'o, 'g> Session<'o, 'g> {
    /// A game from `start`; the optimal agent's choices among losing moves are seeded by
    /// `seed`.
    pub fn new(oracle: &'o mut Oracle<'g>, start: Stones, seed: u64) -> Self {
        Session {
            oracle,
            history: vec![start],
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    /// The position to move from.
    pub fn position(&self) -> &Stones {
        self.history
            .last()
            .expect("a session always has a position")
    }

    /// The moves from the current position, in the order `#N` numbers them.
    pub fn moves(&self) -> Vec<Stones> {
        self.oracle.moves(self.position())
    }

    /// Moves played so far.
    pub fn moves_played(&self) -> usize {
        self.history.len() - 1
    }

    /// The values and moves of the game.
    pub fn oracle(&mut self) -> &mut Oracle<'g> {
        self.oracle
    }

    /// Reads one line: a command word, `#N`, or a position. A position that is not a move
    /// from the current one, a move number out of range, or an unreadable line is an error
    /// whose message says what was wrong; the game goes on.
    pub fn parse(&self, line: &str) -> Result<Command, Error> {
        let line = line.trim();
        match line {
            "hint" | "h" => return Ok(Command::Hint),
            "moves" | "m" => return Ok(Command::Moves),
            "undo" | "u" => return Ok(Command::Undo),
            "help" | "?" => return Ok(Command::Help),
            "quit" | "q" | "exit" => return Ok(Command::Quit),
            _ => {}
        }
        let moves = self.moves();
        if let Some(number) = line.strip_prefix('#') {
            return match number.trim().parse::<usize>() {
                Ok(k) if (1..=moves.len()).contains(&k) => Ok(Command::Move(moves[k - 1].clone())),
                _ => Err(Error::Usage(format!(
                    "`{line}`: the moves are #1 to #{} (`moves` lists them)",
                    moves.len()
                ))),
            };
        }
        let game = self.oracle.game();
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        let typed = match game.read_position(&words) {
            Ok(q) => q,
            // A heap split in two makes positions longer than the game's typed form; the
            // heaps it leaves may be typed in either order.
            Err(e) => {
                let sorted = |q: &[u64]| {
                    let mut q = q.to_vec();
                    q.sort_unstable();
                    q
                };
                let typed = parse_counts(&words).map(|c| sorted(&c));
                let widened = |q: &Stones| q.iter().map(|&x| x as u64).collect::<Vec<_>>();
                match typed {
                    Ok(c) => match moves.iter().find(|q| sorted(&widened(q)) == c) {
                        Some(q) => q.clone(),
                        None => return Err(e),
                    },
                    Err(_) => return Err(e),
                }
            }
        };
        if moves.contains(&typed) {
            Ok(Command::Move(typed))
        } else {
            Err(Error::Usage(format!(
                "{} is not a move from {} (`moves` lists them)",
                game.format_position(&typed),
                game.format_position(self.position())
            )))
        }
    }

    /// Plays `q` (a move from the current position, as [`Session::parse`] returns).
    pub fn play(&mut self, q: Stones) {
        self.history.push(q);
    }

    /// The optimal agent's reply from the current position, played; `None` when there is no
    /// move (the agent has lost).
    pub fn reply(&mut self) -> Option<Stones> {
        let p = self.position().clone();
        let q = Agent::Optimal.choose(self.oracle, &p, &mut self.rng)?;
        self.history.push(q.clone());
        Some(q)
    }

    /// Takes back the last two moves (the person's and the reply), or the last one when only
    /// one was played; whether there was anything to take back.
    pub fn undo(&mut self) -> bool {
        match self.history.len() {
            1 => false,
            2 => {
                self.history.pop();
                true
            }
            _ => {
                self.history.truncate(self.history.len() - 2);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::testing::{game, oracle};

    #[test]
    fn moves_are_read_as_positions_or_numbers() {
        let g = game("subtraction:1,2,3", 2);
        let start: Stones = [2, 3].into_iter().collect();
        let mut o = oracle(g.as_ref(), &start);
        let mut s = Session::new(&mut o, start.clone(), 0);
        let to = |v: [u32; 2]| Command::Move(v.into_iter().collect());
        assert_eq!(s.parse("1,3").unwrap(), to([1, 3]));
        assert_eq!(s.parse(" 2 0 ").unwrap(), to([2, 0]));
        // Natural order: heap 0 first, 1 then 2 taken.
        assert_eq!(s.parse("#1").unwrap(), to([1, 3]));
        assert!(s.parse("#0").is_err() && s.parse("#6").is_err());
        assert!(s.parse("2,3").is_err(), "no move");
        assert!(s.parse("0,2").is_err(), "two heaps changed");
        assert!(s.parse("1,2,3").is_err() && s.parse("x").is_err());
        assert_eq!(s.parse("hint").unwrap(), Command::Hint);
        // 2 ^ 3 = 1: the winning move leaves 2, 2 (nimber 0), and the reply keeps the game
        // going; undo goes back to the start.
        s.play([2, 2].into_iter().collect());
        let reply = s.reply().unwrap();
        assert_eq!(s.moves_played(), 2);
        assert!(s
            .oracle()
            .moves(&[2, 2].into_iter().collect())
            .contains(&reply));
        assert!(s.undo());
        assert_eq!(s.position(), &start);
        assert!(!s.undo());
    }

    /// A heap split in two is typed with its extra heap.
    #[test]
    fn splits_are_typed_with_their_extra_heap() {
        let g = game("grundy-game", 1);
        let start: Stones = [7].into_iter().collect();
        let mut o = oracle(g.as_ref(), &start);
        let s = Session::new(&mut o, start, 0);
        let split = s.parse("5,2").unwrap();
        assert!(
            matches!(split, Command::Move(ref q) if q.len() == 2),
            "{split:?}"
        );
        assert!(s.parse("3,4").is_ok() && s.parse("6,1").is_ok());
        assert!(s.parse("4,4").is_err() && s.parse("5,3").is_err());
    }
}
