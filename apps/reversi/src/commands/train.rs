//! `reversi train`: the command line of [`reversi_train`]: each subcommand's options turned
//! into the library's, its progress printed to standard error and its report to standard output.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Subcommand};
use reversi_engine::levels::Level;
use reversi_engine::pattern::{Extras, PATTERN_NAMES};
use reversi_engine::shard::Shard;
use reversi_train::selfplay::{self, Output, RandomMoves};
use reversi_train::{data, deep, duel, fit, human_scale, label, measure, probcut};

use crate::data::{shared_data, xot_openings};

#[derive(Debug, Args)]
pub struct TrainArgs {
    #[command(subcommand)]
    pub what: TrainCommand,
}

#[derive(Debug, Subcommand)]
pub enum TrainCommand {
    /// Label the positions of WTHOR games (one data file per year and shard, resumable).
    Data(DataArgs),
    /// Self-play games from XOT openings, positions labelled by the searches that played
    /// them and exact solves near the end (one data file per run, named by its seed).
    Selfplay(SelfplayArgs),
    /// Label the positions of a data file again, by deeper searches and exact solves.
    Label(LabelArgs),
    /// Deep labels: sample positions of self-play games and value them by deeper searches
    /// (text lines `GAME PLY SCORE KIND` beside the games, resumable; docs/training.md)
    Deep(DeepArgs),
    /// Join the shard files of `train data`, `selfplay` or `label --shard K/N` into the
    /// files one run writes (the same bytes).
    Merge {
        /// Folder to write the joined files to.
        #[arg(long)]
        out: PathBuf,
        /// Shard files, or folders whose shard files to take.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Fit the weights on a data folder and write a weights file.
    Fit(FitArgs),
    /// Mean absolute error of the static evaluations on the validation positions.
    Mae(MaeArgs),
    /// Pattern evaluation against the hand-made one at equal depth on XOT openings, each
    /// opening played with both colours.
    Match(DuelArgs),
    /// Deviations of probcut's shallow searches from deep searches and exact scores, and
    /// their linear fits (the engine's probcut constants).
    Probcut(ProbcutArgs),
    /// The human scale: ratings fitted to the WTHOR players, their disc loss a move by
    /// rating band, the curve from loss to rating, and each level placed on it (the table
    /// `reversi levels` shows; docs/human-scale.md).
    HumanScale(HumanScaleArgs),
    /// The rate of best moves (by the file's exact scores) of a fixed-depth midgame search.
    Bestmove {
        /// OBF files.
        files: Vec<PathBuf>,
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Weights file [default: the shipped weights].
        #[arg(long)]
        weights: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct DataArgs {
    /// Folder of WTH_YYYY.wtb files [default: the reference data's wthor/]
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// Folder to write the data files to.
    #[arg(long)]
    pub out: PathBuf,
    /// Solve positions with this many empties or fewer exactly.
    #[arg(long, default_value_t = 12)]
    pub exact_empties: u32,
    /// Also solve the positions with exactly these numbers of empties (for measures).
    #[arg(long, value_delimiter = ',')]
    pub also_exact: Vec<u32>,
    /// Solve the --also-exact positions of one game in this many.
    #[arg(long, default_value_t = 1)]
    pub also_every: usize,
    /// Transposition table of each thread's solver, in MB (cleared before every game).
    #[arg(long, default_value_t = 4, value_parser = crate::options::hash_mb)]
    pub hash_mb: usize,
    /// A folder of deep labels (`train deep`): where it holds `WTH_YYYY.labels` for a year's
    /// file, they replace the theoretical scores of the positions they label.
    #[arg(long, value_name = "DIR")]
    pub deep_labels: Option<PathBuf>,
    /// Label only shard K of N (the games numbered K modulo N in each year) into
    /// `wthor-YEAR-K-of-N.bin`; `train merge` joins the N shards into one run's files.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Games labelled at once (the records do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
}

#[derive(Debug, Args)]
pub struct MaeArgs {
    /// Data folder.
    #[arg(long)]
    pub data: PathBuf,
    /// Weights files to measure besides the shipped ones.
    #[arg(long)]
    pub weights: Vec<PathBuf>,
    /// WTHOR years from this one on are the validation split.
    #[arg(long, default_value_t = 2021)]
    pub valid_from: u16,
    /// Also measure at 30 and 40 empties against the values of searches this deep (0:
    /// not), where exact scores are out of reach.
    #[arg(long, default_value_t = 0)]
    pub search_depth: u32,
    /// Positions searched for each of 30 and 40 empties (spread evenly over the split).
    #[arg(long, default_value_t = 100)]
    pub search_positions: usize,
    /// Searches run at once, one thread each.
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
}

#[derive(Debug, Args)]
pub struct FitArgs {
    /// Data folder (wthor-YYYY.bin files, selfplay-*.bin files).
    #[arg(long)]
    pub data: PathBuf,
    /// Weights file to write.
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 12)]
    pub epochs: u32,
    /// Adam step size [default: 0.02 disc for tables, 0.002 for networks].
    #[arg(long)]
    pub lr: Option<f32>,
    /// L2 regularisation (tables only).
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f32,
    /// The L2 penalty pulls towards the `--start` weights instead of zero (tables only).
    #[arg(long, requires = "start")]
    pub l2_to_start: bool,
    /// The pattern tables keep the `--start` weights (for example the tables a network
    /// generates); only the scalars, the mobility patterns and the head learn (tables only).
    #[arg(long, requires = "start")]
    pub keep_patterns: bool,
    /// Positions per Adam step [default: 256 for tables, 1024 for networks].
    #[arg(long)]
    pub batch: Option<usize>,
    /// What to fit: `tables` (every weight of every stage free, generations 1-2) or `net`
    /// (generation 3: a small network per pattern generates the tables; a 72 KB file).
    #[arg(long, default_value = "tables", value_parser = PossibleValuesParser::new(["tables", "net"])
        .map(|m| if m == "net" { fit::Model::Net } else { fit::Model::Tables }))]
    pub model: fit::Model,
    /// WTHOR years from this one on are the validation split, never trained on.
    #[arg(long, default_value_t = 2021)]
    pub valid_from: u16,
    /// The generation number written into the file.
    #[arg(long, default_value_t = 1)]
    pub generation: u16,
    /// Start from these weights (either generation's file, as many stages) instead of zero.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Weight sets sharing the game evenly (15: one per four empties, 30: per two, 60: per one).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u16).range(1..=60))]
    pub stages: u16,
    /// A stage also learns from positions this many empties outside its own range.
    #[arg(long, default_value_t = 2)]
    pub window: u32,
    /// Stages fitted at once (the weights do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
    /// Train on the mean of the theoretical score and the last exact solve carried up the game.
    #[arg(long)]
    pub average_labels: bool,
    /// Feature families beyond the patterns and scalars (generation 3; with `--model net`
    /// learnt beside the networks):
    /// `mobility-patterns` (each side's legal moves on every pattern image, as a binary index).
    #[arg(long, value_delimiter = ',', value_parser = PossibleValuesParser::new(["mobility-patterns"]))]
    pub features: Vec<String>,
    /// Hidden units of a head added to the sum (generation 3; 0: none; with `--model net`
    /// learnt beside the networks): a
    /// leaky-ReLU layer over each pattern's sum, the scalars' sum and the phase.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=64))]
    pub head: u16,
    /// Fit only these patterns (tables only; default: all), comma-separated: the others keep
    /// zero weights and the evaluation skips them, a smaller and cheaper evaluation (for the
    /// solver's move ordering, `reversi solve --order-weights`).
    #[arg(long, value_delimiter = ',', value_parser = PossibleValuesParser::new(PATTERN_NAMES))]
    pub patterns: Vec<String>,
    /// With `--features mobility-patterns`, give mobility patterns only to these patterns
    /// (tables only; default: all), comma-separated: the others' mobility weights stay zero
    /// and the evaluation skips them, a cheaper evaluation.
    #[arg(long, value_delimiter = ',', value_parser = PossibleValuesParser::new(PATTERN_NAMES))]
    pub mobility_patterns: Vec<String>,
    /// Hidden units a layer of each pattern network (`--model net` only: 16 or 32)
    /// [default: the start's, or 16]. A narrower `--start` is widened first: its new units
    /// start with no say in the output, so the fit starts from the start's values.
    #[arg(long, value_parser = PossibleValuesParser::new(["16", "32"]).map(|h| if h == "32" { 32usize } else { 16 }))]
    pub net_hidden: Option<usize>,
}

#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// Data folder to write `selfplay-SEED.bin` (or its shard file) to.
    #[arg(long)]
    pub out: PathBuf,
    /// Games (from consecutive XOT openings starting at the seed's offset; with
    /// `--random-moves` the list is taken again from its start when it runs out).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Depth of the searches that play and label the positions.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Solve positions with this many empties or fewer exactly.
    #[arg(long, default_value_t = 14)]
    pub exact_empties: u32,
    /// Random legal moves each game plays after its XOT opening before the engine takes
    /// over (drawn from the seed and the game's number: the same whatever the threads or
    /// shards): N, or A-B for a number drawn for each game from A to B, so that the engine
    /// takes over at every stage of the game.
    #[arg(long, default_value = "0")]
    pub random_moves: RandomMoves,
    /// What to write: `positions` (`selfplay-SEED.bin`, each position labelled by the
    /// search that played it and exact solves near the end) or `games` (`selfplay-SEED.games`,
    /// the games' moves in about 25 bytes a game, both sides solving exactly from
    /// `--exact-empties`; each position is labelled with its game's final score when read).
    #[arg(long, default_value = "positions", value_parser = PossibleValuesParser::new(["positions", "games"])
        .map(|f| if f == "games" { Output::Games } else { Output::Positions }))]
    pub format: Output,
    /// Picks the first opening (seed × games) and names the file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Weights of the playing engine [default: the shipped weights].
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// XOT openings [default: the reference data's xot-large.txt]
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Play only shard K of N (the games numbered K modulo N) into
    /// `selfplay-SEED-K-of-N.bin`; `train merge` joins the N shards into the file one run
    /// writes.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Games played at once, one thread each (the records do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
}

#[derive(Debug, Args)]
pub struct LabelArgs {
    /// The data file whose positions to label (a `train selfplay` or `train data` file).
    #[arg(long)]
    pub data: PathBuf,
    /// Folder to write the labelled file to, under the input's name (or its shard file).
    #[arg(long)]
    pub out: PathBuf,
    /// Depth of the midgame searches.
    #[arg(long, default_value_t = 12)]
    pub depth: u32,
    /// Solve positions with this many empties or fewer exactly.
    #[arg(long, default_value_t = 18)]
    pub exact_empties: u32,
    /// Weights of the searches [default: the shipped weights].
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Transposition table of each thread, in MB (cleared before every position).
    #[arg(long, default_value_t = 16, value_parser = crate::options::hash_mb)]
    pub hash_mb: usize,
    /// Label only shard K of N (the positions numbered K modulo N) into
    /// `NAME-K-of-N.bin`; `train merge` joins the N shards into the file one run writes.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Positions labelled at once, one thread each (the labels do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
}

#[derive(Debug, Args)]
pub struct DeepArgs {
    /// Games files whose positions to sample (`data/selfplay/selfplay-N.games`, or WTHOR
    /// files `WTH_YYYY.wtb`), each labelled into `OUT/selfplay-N.labels` (`OUT/WTH_YYYY.labels`).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Folder of the label files.
    #[arg(long, default_value = "data/deep-labels")]
    pub out: PathBuf,
    /// Depth of the midgame searches.
    #[arg(long, default_value_t = 14)]
    pub depth: u32,
    /// Solve positions with this many empties or fewer exactly.
    #[arg(long, default_value_t = 24)]
    pub exact_empties: u32,
    /// The fewest empties of a position sampled.
    #[arg(long, default_value_t = 24)]
    pub min_empties: u32,
    /// The most empties of a position sampled.
    #[arg(long, default_value_t = 50)]
    pub max_empties: u32,
    /// Positions sampled a game.
    #[arg(long, default_value_t = 1)]
    pub per_game: usize,
    /// Seeds the sampling (with each game's number).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Weights of the searches [default: the shipped weights].
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Transposition table of each thread, in MB (cleared before every position).
    #[arg(long, default_value_t = 64, value_parser = crate::options::hash_mb)]
    pub hash_mb: usize,
    /// Positions labelled at once, one thread each (the labels do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
}

#[derive(Debug, Args)]
pub struct DuelArgs {
    /// Midgame depth of both sides (each solves exactly once the depth reaches the end).
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Games; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// XOT openings [default: the reference data's xot-large.txt]
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Weights of the pattern side [default: the shipped weights].
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// The other side's weights instead of the hand-made evaluation.
    #[arg(long)]
    pub against: Option<PathBuf>,
    /// Games played at once, one thread each (the results do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
}

#[derive(Debug, Args)]
pub struct ProbcutArgs {
    /// WTHOR file to take positions from [default: the reference data's WTH_2023.wtb]
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// Positions per number of empty squares.
    #[arg(long, default_value_t = 60)]
    pub positions: usize,
    /// Deepest midgame search measured.
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Shallowest and deepest endgames solved exactly for the endgame deviations.
    #[arg(long, default_value_t = 12)]
    pub exact_from: u32,
    #[arg(long, default_value_t = 20)]
    pub exact_to: u32,
}

#[derive(Debug, Args)]
pub struct HumanScaleArgs {
    /// The WTHOR folder [default: the reference data's wthor/].
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// The XOT openings the levels play from [default: the reference data's xot-large.txt].
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// The level every game is analysed at (`history analyze` rates games analysed at it).
    #[arg(long, default_value = "8", value_parser = parse_level)]
    pub analysis_level: Level,
    /// The first year of the sampled games (the ratings use every year).
    #[arg(long, default_value_t = 2000)]
    pub from_year: u16,
    /// The games a player needs in the database for their games to be sampled.
    #[arg(long, default_value_t = 50)]
    pub min_games: usize,
    /// The width of a rating band.
    #[arg(long, default_value_t = 200.0)]
    pub band_width: f64,
    /// Sides (a player's moves in one game) wanted in each band.
    #[arg(long, default_value_t = 60)]
    pub sides_per_band: usize,
    /// Bands with fewer sides are left out.
    #[arg(long, default_value_t = 20)]
    pub min_sides: usize,
    /// The levels measured, by number or name [default: the named ones].
    #[arg(long, value_delimiter = ',', value_parser = parse_level)]
    pub levels: Vec<Level>,
    /// Games each level plays against itself.
    #[arg(long, default_value_t = 10)]
    pub level_games: usize,
    #[arg(long, default_value_t = 34)]
    pub seed: u64,
    /// Games analysed or played at once (the results do not depend on it, but for the
    /// levels' time budgets).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
    /// Write the table here (the program ships crates/game/data/human-scale.txt); without
    /// it the table is printed after the report.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Keep this table's people (bands and curve, measured at the same --analysis-level)
    /// and measure only --levels again, keeping its other levels: minutes instead of the
    /// people's analysis.
    #[arg(long, value_name = "TABLE")]
    pub update: Option<PathBuf>,
}

fn parse_level(text: &str) -> Result<Level, String> {
    Level::parse(text).ok_or_else(|| format!("{text:?} is not a level 1-60 or a level name"))
}

fn progress(line: &str) {
    eprintln!("{line}");
}

pub fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    match args.what {
        TrainCommand::Data(a) => {
            let how = data::Labelling {
                exact_empties: a.exact_empties,
                also_exact: a.also_exact,
                also_every: a.also_every,
                hash_mb: a.hash_mb,
                deep_labels: a.deep_labels,
            };
            let wthor = a.wthor.unwrap_or_else(|| shared_data().join("wthor"));
            data::run(&wthor, &a.out, &how, a.shard, a.threads, &progress)?;
        }
        TrainCommand::Selfplay(a) => {
            let options = selfplay::SelfplayOptions {
                out: a.out,
                games: a.games,
                depth: a.depth,
                exact_empties: a.exact_empties,
                random_moves: a.random_moves,
                format: a.format,
                seed: a.seed,
                weights: a.weights,
                openings: a.openings.unwrap_or_else(xot_openings),
                shard: a.shard,
                threads: a.threads,
            };
            selfplay::run(&options, &progress)?;
        }
        TrainCommand::Label(a) => {
            let options = label::LabelOptions {
                data: a.data,
                out: a.out,
                depth: a.depth,
                exact_empties: a.exact_empties,
                weights: a.weights,
                hash_mb: a.hash_mb,
                shard: a.shard,
                threads: a.threads,
            };
            label::run(&options, &progress)?;
        }
        TrainCommand::Deep(a) => {
            for games in &a.games {
                let options = deep::DeepOptions {
                    games: games.clone(),
                    out: a.out.clone(),
                    depth: a.depth,
                    exact_empties: a.exact_empties,
                    empties: (a.min_empties, a.max_empties),
                    per_game: a.per_game,
                    seed: a.seed,
                    weights: a.weights.clone(),
                    hash_mb: a.hash_mb,
                    threads: a.threads,
                };
                let report = deep::run(&options, &progress)?;
                outln!("{report}")?;
            }
        }
        TrainCommand::Merge { out, inputs } => {
            for (path, records) in reversi_train::merge(&out, &inputs)? {
                outln!("wrote {} ({records} positions)", path.display())?;
            }
        }
        TrainCommand::Fit(a) => {
            anyhow::ensure!(
                a.patterns.is_empty() || a.model == fit::Model::Tables,
                "--patterns chooses table patterns; a network (--model net) fits them all"
            );
            anyhow::ensure!(
                a.mobility_patterns.is_empty()
                    || (a.model == fit::Model::Tables
                        && a.features.iter().any(|f| f == "mobility-patterns")),
                "--mobility-patterns chooses table mobility patterns; it needs --features \
                 mobility-patterns and a table fit (not --model net)"
            );
            anyhow::ensure!(
                a.net_hidden.is_none() || a.model == fit::Model::Net,
                "--net-hidden sets the width of networks; it needs --model net"
            );
            anyhow::ensure!(
                !a.keep_patterns || a.model == fit::Model::Tables,
                "--keep-patterns keeps table patterns; a network (--model net) fits them all"
            );
            let bits = |names: &[String]| {
                if names.is_empty() {
                    u32::MAX
                } else {
                    PATTERN_NAMES
                        .iter()
                        .enumerate()
                        .filter(|(_, n)| names.iter().any(|p| p == *n))
                        .fold(0u32, |m, (k, _)| m | 1 << k)
                }
            };
            let job = fit::FitJob {
                patterns: bits(&a.patterns),
                mobility_patterns: bits(&a.mobility_patterns),
                data: a.data,
                out: a.out,
                seed: a.seed,
                epochs: a.epochs,
                lr: a.lr,
                l2: a.l2,
                l2_to_start: a.l2_to_start,
                keep_patterns: a.keep_patterns,
                batch: a.batch,
                model: a.model,
                valid_from: a.valid_from,
                generation: a.generation,
                start: a.start,
                stages: a.stages,
                window: a.window,
                threads: a.threads,
                average_labels: a.average_labels,
                extras: Extras {
                    mobility: a.features.iter().any(|f| f == "mobility-patterns"),
                    hidden: usize::from(a.head),
                },
                net_hidden: a.net_hidden,
            };
            outln!("{}", fit::run(&job, &progress)?)?;
        }
        TrainCommand::Probcut(a) => {
            let options = probcut::ProbcutOptions {
                wthor: a
                    .wthor
                    .unwrap_or_else(|| shared_data().join("wthor/WTH_2023.wtb")),
                positions: a.positions,
                depth: a.depth,
                exact_from: a.exact_from,
                exact_to: a.exact_to,
            };
            let report = probcut::run(&options, &|done, total, empties, secs| {
                eprint!("\r{done}/{total} positions ({empties} empties), {secs:.0} s");
            });
            eprintln!();
            let report = report?;
            out!("{report}")?;
            report.fits()?;
        }
        TrainCommand::Mae(a) => {
            let searched = measure::Searched {
                depth: a.search_depth,
                positions: a.search_positions,
                threads: a.threads,
            };
            outln!(
                "{}",
                measure::mae(&a.data, &a.weights, a.valid_from, &searched)?
            )?;
        }
        TrainCommand::Match(a) => {
            let options = duel::DuelOptions {
                depth: a.depth,
                games: a.games,
                openings: a.openings.unwrap_or_else(xot_openings),
                weights: a.weights,
                against: a.against,
                threads: a.threads,
            };
            outln!("{}", duel::run(&options, &progress)?)?;
        }
        TrainCommand::HumanScale(a) => {
            let options = human_scale::Options {
                wthor: a.wthor.unwrap_or_else(|| shared_data().join("wthor")),
                openings: a.openings.unwrap_or_else(xot_openings),
                analysis_level: a.analysis_level,
                from_year: a.from_year,
                min_games: a.min_games,
                band_width: a.band_width,
                sides_per_band: a.sides_per_band,
                min_sides: a.min_sides,
                levels: if a.levels.is_empty() {
                    Level::NAMED.iter().map(|&(_, l)| l).collect()
                } else {
                    a.levels
                },
                level_games: a.level_games,
                seed: a.seed,
                threads: a.threads,
                update: match &a.update {
                    Some(path) => {
                        let text = std::fs::read_to_string(path)
                            .with_context(|| format!("reading {}", path.display()))?;
                        Some(
                            reversi_game::human_scale::HumanScale::parse(&text)
                                .with_context(|| format!("reading {}", path.display()))?,
                        )
                    }
                    None => None,
                },
            };
            // Ctrl-C ends the process; nothing is written before the end.
            let stop = std::sync::atomic::AtomicBool::new(false);
            let report = human_scale::run(&options, &stop, &progress)?;
            outln!("{report}")?;
            let text = report.scale.to_text();
            match a.out {
                Some(path) => {
                    std::fs::write(&path, &text)
                        .with_context(|| format!("writing {}", path.display()))?;
                    outln!("wrote {}", path.display())?;
                }
                None => out!("\n{text}")?,
            }
        }
        TrainCommand::Bestmove {
            files,
            depth,
            weights,
        } => outln!("{}", measure::bestmove(&files, depth, weights.as_deref())?)?,
    }
    Ok(ExitCode::SUCCESS)
}
