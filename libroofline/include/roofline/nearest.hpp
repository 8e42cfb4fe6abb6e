// Nearest-match suggestions for a mistyped id: one rule for every kind of id (models, GPUs, dtypes,
// profiles, catalog fields, formula names) and for every host (the C ABI exposes it as roofline_nearest).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace roofline {

/// The edit distance between two words, case-insensitive: insertions, deletions, substitutions and
/// transpositions of neighbours each count 1 ("stpe" -> "step" is 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The index of the candidate closest to `word` when it is close enough to be a likely typo, else
/// nullopt. Separators ('-', '_', '.', ' ') weigh nothing ("llama3-70b" is "llama-3-70b" exactly). A candidate
/// equal to the word but for case and separators wins; else one that starts with the word (of at least 3
/// characters; "h100" -> "h100-sxm", the shortest such, then the closest spelled, then the first); else at most one
/// edit per three characters of the word (at least one) may separate them. Among equally close candidates, the
/// one whose spelling with separators is closest, then the first, wins.
std::optional<std::size_t> nearest(std::string_view word, std::span<const std::string_view> candidates);
std::optional<std::size_t> nearest(std::string_view word, std::span<const std::string> candidates);

/// The end of an unknown-id message: "; did you mean '<nearest>'?" when a candidate is close to `word`,
/// else "". Every kind of id in every message uses it.
std::string suggestion(std::string_view word, std::span<const std::string_view> candidates);
std::string suggestion(std::string_view word, std::span<const std::string> candidates);

/// The reason an id of a catalog names nothing: "no <kind> '<id>' in the catalog" and its suggestion, e.g.
/// "no model 'llama3-70b' in the catalog; did you mean 'llama-3-70b'?". The one wording of an unknown model or
/// GPU: the formulas and the serving model both say it so.
std::string unknown_catalog_id(std::string_view kind, std::string_view id, std::span<const std::string> known);
/// The reason an id of a short closed list (dtypes, profiles, fields) names nothing: "no <kind> '<id>' (<a, b,
/// c>)" and its suggestion, e.g. "no profile 'fast' (bound, llama.cpp, typical)".
std::string unknown_choice(std::string_view kind, std::string_view id, std::span<const std::string> known);

}  // namespace roofline
