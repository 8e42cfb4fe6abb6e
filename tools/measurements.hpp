// Reading tests/data/measurements.csv: published measurements of real engines (header-only, for the
// fit tool and the accuracy benchmark).
#pragma once

#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace measurements {

struct Row {
    std::map<std::string, std::string> field;
    const std::string& operator[](const std::string& k) const { return field.at(k); }
    double number(const std::string& k) const { return std::stod(field.at(k)); }
};

/// Splits one CSV line (RFC 4180 quotes).
inline std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
            else if (c == '"') quoted = false;
            else out.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else if (c != '\r') {
            out.back() += c;
        }
    }
    return out;
}

inline std::vector<Row> read(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = split(line);
    std::vector<Row> rows;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto cells = split(line);
        Row r;
        for (std::size_t i = 0; i < header.size(); ++i) r.field[header[i]] = i < cells.size() ? cells[i] : "";
        rows.push_back(std::move(r));
    }
    return rows;
}

}  // namespace measurements
