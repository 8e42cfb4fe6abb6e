// What the subcommands print: labelled values as an aligned table or JSON, and the phrases their
// titles share.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "calls.hpp"

namespace cli {

/// `value` rounded to `digits` decimals with halves away from zero, as Calc rounds what a cell shows (fmt's
/// fixed format rounds an exact half to even: 1562.5 would print 1562 where Calc shows 1,563). Format the result
/// with the same number of decimals.
inline double half_away(double value, int digits) {
    const double scale = std::pow(10.0, digits);
    return std::round(value * scale) / scale;
}

/// One printed value: "  step time   15.03 ms" in text, "step_ms": 15.03 in JSON.
struct Line {
    std::string label;
    std::string json_key;
    std::optional<double> value;  ///< nullopt: no answer (printed with `none`)
    std::string unit;
    std::string none = "none";
};

/// Prints `title` and the lines as an aligned table, or the lines as one JSON object with the
/// members of `also` (e.g. the KV cache format assumed).
void print_lines(const std::vector<Line>& lines, bool json, const std::string& title,
                 const nlohmann::json& also = nlohmann::json::object());

/// Rows 1 .. `count` of an array with a header row, as JSON objects keyed by the header's names; a number cell a
/// number, a text cell its text, or null for an empty text (a plan's missing price).
nlohmann::json json_rows(const Result& array, std::size_t count);

/// The number `compute` returns, or nullopt where the library finds no answer (exit code kNoSolution).
std::optional<double> number_or_none(const std::function<Result()>& compute);

/// One row of ROOFLINE_STEP_BREAKDOWN or ROOFLINE_TTFT_BREAKDOWN.
struct Operator {
    std::string name;
    double flop = 0, bytes = 0, ms = 0;
    std::string bound;
};

/// The operators of a breakdown array (its rows after the header).
std::vector<Operator> operators_of(const Result& breakdown);

/// "1 prompt", "2 prompts".
std::string count_of(double count, const std::string& singular);

/// The bytes of a file; Failure (kIo) naming it where it cannot be read.
std::string read_file(const std::string& path);
/// The file name of a path, as messages name it.
std::string file_name(const std::string& path);
/// One record of a CSV file: its fields, and where it is ("file.csv:7").
struct CsvRecord {
    std::vector<std::string> fields;
    std::string where;
};
/// The records of CSV text (RFC 4180: quoted fields, doubled quotes; empty lines skipped). Failure (kBadValue) for a
/// field that holds a tab or a quoted line break: the rows go to the library as one tab-separated table.
std::vector<CsvRecord> csv_records(const std::string& path, const std::string& text);

/// "8B parameters at 2 bytes each, 989 TFLOP/s, 3.35 TB/s": a dense model from its parameter count.
std::string dense_model(const Values& values);

/// The KV cache format a model-aware result assumed: the --kv-dtype given, else the library's default.
struct KvCache {
    std::string dtype;   ///< e.g. "bf16", "fp8"
    bool is_default;     ///< --kv-dtype not given (or empty): the formula table's default
    std::string note;    ///< why, when it is the default: "default", "written by the prefill"
    /// "KV cache: bf16 (default)", "KV cache: fp8".
    std::string phrase() const;
    /// {"kv_dtype": "bf16", "kv_dtype_is_default": true}
    nlohmann::json json() const;
};

/// The KV cache of a subcommand with a --kv-dtype option.
KvCache kv_cache_of(const Values& values);

/// The KV cache a prefill writes (ROOFLINE_TTFT_MS has no kv_dtype: its prefill writes the default format).
KvCache prefill_kv_cache();

/// How a model argument is named in a title or a JSON member: the id itself, or for the text of a
/// config.json (its first character other than a space, tab, CR or LF is '{') the id the library gives it,
/// "config:" and the first 8 hex digits of the text's 64-bit FNV-1a hash (roofline.h), not the whole text.
std::string model_label(const std::string& model);

/// "llama-3-8b on h100-sxm, weights bf16, 4 GPUs in tensor parallel; KV cache: bf16 (default)": a
/// catalog model on a catalog GPU.
std::string deployment(const Values& values, const KvCache& kv_cache);

}  // namespace cli
