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
/// nullopt. Separators ('-', '_', '.', ' ') weigh nothing ("llama3-70b" is "llama-3-70b" exactly);
/// then at most one edit per three characters of the word (at least one) may separate them. Among equally
/// close candidates, the one whose spelling with separators is closest, then the first, wins.
std::optional<std::size_t> nearest(std::string_view word, std::span<const std::string_view> candidates);
std::optional<std::size_t> nearest(std::string_view word, std::span<const std::string> candidates);

/// The end of an unknown-id message: "; did you mean '<nearest>'?" when a candidate is close to `word`,
/// else "". Every kind of id in every message uses it.
std::string suggestion(std::string_view word, std::span<const std::string_view> candidates);
std::string suggestion(std::string_view word, std::span<const std::string> candidates);

}  // namespace roofline
