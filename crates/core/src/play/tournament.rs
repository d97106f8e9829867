//! Agents against each other: every ordered pair plays a number of games from one position,
//! and the wins are counted (`grundy play --agents`).

use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::{Agent, Oracle};
use crate::game::Stones;

/// The games of one ordered pair: `first` moves first in each.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Pairing {
    /// The agent that moves first in every game of the pairing.
    pub first: Agent,
    /// The agent that moves second.
    pub second: Agent,
    /// Games played.
    pub games: u64,
    /// Games `first` won.
    pub first_wins: u64,
    /// Games `second` won.
    pub second_wins: u64,
    /// Moves played in all the games together.
    pub moves: u64,
}

impl Pairing {
    /// Moves per game, on average.
    pub fn mean_moves(&self) -> f64 {
        self.moves as f64 / self.games.max(1) as f64
    }
}

/// One game from `start` between `first` and `second` (moving in turn, `first` to move):
/// whether `first` wins, and the number of moves played. Normal play: the player with no
/// move loses.
pub fn play(
    oracle: &mut Oracle,
    start: &Stones,
    first: Agent,
    second: Agent,
    rng: &mut SmallRng,
) -> (bool, u64) {
    let mut p = start.clone();
    let mut moves = 0u64;
    loop {
        let agent = if moves.is_multiple_of(2) {
            first
        } else {
            second
        };
        match agent.choose(oracle, &p, rng) {
            Some(q) => p = q,
            None => return (moves % 2 == 1, moves),
        }
        moves += 1;
    }
}

/// `games` games from `start` for every ordered pair of distinct `agents` (a lone agent
/// plays itself), each game's random choices seeded by `seed`, the pair and the game, so
/// that a run is reproduced exactly by its seed.
pub fn tournament(
    oracle: &mut Oracle,
    start: &Stones,
    agents: &[Agent],
    games: u64,
    seed: u64,
) -> Vec<Pairing> {
    let pairs: Vec<(Agent, Agent)> = match agents {
        [one] => vec![(*one, *one)],
        _ => agents
            .iter()
            .flat_map(|&a| {
                agents
                    .iter()
                    .filter(move |&&b| b != a)
                    .map(move |&b| (a, b))
            })
            .collect(),
    };
    pairs
        .into_iter()
        .enumerate()
        .map(|(k, (first, second))| {
            let mut pairing = Pairing {
                first,
                second,
                games,
                first_wins: 0,
                second_wins: 0,
                moves: 0,
            };
            for g in 0..games {
                let mut rng = SmallRng::seed_from_u64(seed ^ (k as u64) << 48 ^ g);
                let (won, moves) = play(oracle, start, first, second, &mut rng);
                pairing.moves += moves;
                match won {
                    true => pairing.first_wins += 1,
                    false => pairing.second_wins += 1,
                }
            }
            pairing
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::testing::{game, oracle};

    /// From a position of nonzero nimber the optimal agent wins every game it starts, and
    /// as second it wins every game against itself from a zero position; seeds reproduce.
    #[test]
    fn optimal_agents_win_what_can_be_won() {
        let g = game("subtraction:1,2,3", 3);
        let win: Stones = [5, 6, 9].into_iter().collect();
        let mut o = oracle(g.as_ref(), &win);
        assert_ne!(o.nimber(&win), 0);
        let all = [Agent::Optimal, Agent::Random];
        let t = tournament(&mut o, &win, &all, 40, 7);
        assert_eq!(t.len(), 2);
        let (opt_first, random_first) = (&t[0], &t[1]);
        assert_eq!(
            (opt_first.first, opt_first.second),
            (Agent::Optimal, Agent::Random)
        );
        assert_eq!(opt_first.first_wins, 40);
        // Random play from a winning position loses some games to the optimal agent.
        assert!(random_first.second_wins > 0, "{random_first:?}");
        assert_eq!(t, tournament(&mut o, &win, &all, 40, 7));
        // 4, 8, 12: every heap a multiple of 4, nimber 0: the second player wins.
        let zero: Stones = [4, 8, 12].into_iter().collect();
        assert_eq!(o.nimber(&zero), 0);
        let t = tournament(&mut o, &zero, &[Agent::Optimal], 10, 1);
        assert_eq!((t[0].first_wins, t[0].second_wins), (0, 10));
    }
}
