#include "output.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>

#include "options.hpp"

namespace cli {

void print_lines(const std::vector<Line>& lines, bool json, const std::string& title, const nlohmann::json& also) {
    if (json) {
        nlohmann::json object = also;
        for (const Line& line : lines)
            object[line.json_key] = line.value ? nlohmann::json(*line.value) : nlohmann::json(nullptr);
        fmt::print("{}\n", object.dump(2));
        return;
    }
    fmt::print("{}\n", title);
    size_t width = 0;
    for (const Line& line : lines) width = std::max(width, line.label.size());
    for (const Line& line : lines) {
        if (line.value) fmt::print("  {:<{}}  {:>12.6g} {}\n", line.label, width, *line.value, line.unit);
        else fmt::print("  {:<{}}  {}\n", line.label, width, line.none);
    }
}

std::optional<double> number_or_none(const std::function<Result()>& compute) {
    try {
        return compute().number();
    } catch (const Failure& failure) {
        if (failure.exit_code != kNoSolution) throw;
        return std::nullopt;
    }
}

std::vector<Operator> operators_of(const Result& breakdown) {
    // The columns by the names in the header row (the formula table's), not by their places.
    const std::size_t name = breakdown.column("operator"), flop = breakdown.column("FLOP"),
                      bytes = breakdown.column("bytes"), ms = breakdown.column("ms"), bound = breakdown.column("bound");
    std::vector<Operator> operators;
    for (size_t row = 1; row < breakdown.rows.size(); ++row) {
        const auto& cells = breakdown.rows[row];
        operators.push_back({std::get<std::string>(cells[name]), std::get<double>(cells[flop]),
                             std::get<double>(cells[bytes]), std::get<double>(cells[ms]),
                             std::get<std::string>(cells[bound])});
    }
    return operators;
}

std::string count_of(double count, const std::string& singular) {
    return fmt::format("{} {}{}", count, singular, count == 1 ? "" : "s");
}

std::string dense_model(const Values& values) {
    return fmt::format("{}B parameters at {} each, {} TFLOP/s, {} TB/s", values.at("params_b"),
                       count_of(values.at("bytes_per_param"), "byte"), values.at("tflops"), values.at("bw_tbs"));
}

std::string KvCache::phrase() const {
    return is_default ? fmt::format("KV cache: {} ({})", dtype, note) : fmt::format("KV cache: {}", dtype);
}

nlohmann::json KvCache::json() const { return {{"kv_dtype", dtype}, {"kv_dtype_is_default", is_default}}; }

namespace {

std::string default_kv_dtype() { return formula_arg("ROOFLINE_STEP_MS", "kv_dtype").default_text; }

}  // namespace

KvCache kv_cache_of(const Values& values) {
    const std::string& given = values.text_at("kv_dtype");
    const std::string fallback = default_kv_dtype();
    if (given.empty() || given == fallback) return {fallback, true, "default"};
    return {given, false, ""};
}

KvCache prefill_kv_cache() { return {default_kv_dtype(), true, "written by the prefill"}; }

nlohmann::json json_rows(const Result& array, std::size_t count) {
    nlohmann::json rows = nlohmann::json::array();
    const auto& header = array.rows.at(0);
    for (std::size_t r = 1; r <= count; ++r) {
        nlohmann::json row = nlohmann::json::object();
        for (std::size_t c = 0; c < header.size(); ++c) {
            const Cell& cell = array.rows.at(r).at(c);
            const auto* text = std::get_if<std::string>(&cell);
            row[std::get<std::string>(header[c])] =
                text ? (text->empty() ? nlohmann::json(nullptr) : nlohmann::json(*text)) : nlohmann::json(std::get<double>(cell));
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string model_label(const std::string& model) {
    const std::size_t first = model.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || model[first] != '{') return model;
    std::uint64_t h = 14695981039346656037ull;  // FNV-1a, 64 bits, of the exact text, as the library hashes it
    for (unsigned char ch : model) {
        h ^= ch;
        h *= 1099511628211ull;
    }
    return fmt::format("config:{:08x}", h >> 32);
}

std::string deployment(const Values& values, const KvCache& kv_cache) {
    std::string text = fmt::format("{} on {}, weights {}", model_label(values.text_at("model")), values.text_at("gpu"),
                                   values.text_at("weight_dtype"));
    const double tp = values.at("tp");
    auto layout = [&](const char* name) { return values.has(name) ? values.at(name) : 1.0; };
    const double ep = layout("ep"), dp = layout("dp_attention"), pp = layout("pp");
    if (ep == 1 && dp == 1 && pp == 1) {
        if (tp > 1) text += fmt::format(", {} in tensor parallel", count_of(tp, "GPU"));
    } else {
        text += fmt::format(", {}: ", count_of(tp, "GPU"));
        std::vector<std::string> parts;
        if (pp > 1) parts.push_back(fmt::format("{} pipeline stages", pp));
        if (dp > 1) parts.push_back(fmt::format("attention in {} data-parallel groups", dp));
        if (ep > 1) parts.push_back(fmt::format("experts over {} GPUs", ep));
        for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : "") + parts[i];
    }
    return text + "; " + kv_cache.phrase();
}

std::string read_file(const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) throw Failure{kIo, path, "cannot read the file"};
    std::string text;
    char buffer[65536];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
    std::fclose(file);
    return text;
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::vector<CsvRecord> csv_records(const std::string& path, const std::string& text) {
    std::vector<CsvRecord> rows;
    std::vector<std::string> cells;
    std::string field;
    bool quoted = false, any = false;
    std::size_t line = 1, row_line = 1;
    auto end_field = [&] {
        if (field.find('\t') != std::string::npos)
            throw Failure{kBadValue, fmt::format("{}:{}", file_name(path), row_line), "a field holds a tab"};
        cells.push_back(std::move(field));
        field.clear();
    };
    auto end_row = [&] {
        end_field();
        if (any) rows.push_back({std::move(cells), fmt::format("{}:{}", file_name(path), row_line)});
        cells.clear();
        any = false;
        row_line = line;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else if (c == '\n' || c == '\r') throw Failure{kBadValue, fmt::format("{}:{}", file_name(path), line), "a quoted field holds a line break"};
            else field += c;
        } else if (c == '"') {
            quoted = any = true;
        } else if (c == ',') {
            end_field();
            any = true;
        } else if (c == '\n') {
            ++line;
            end_row();
        } else if (c != '\r') {
            field += c;
            any = true;
        }
    }
    if (any || !field.empty()) end_row();
    return rows;
}

}  // namespace cli
